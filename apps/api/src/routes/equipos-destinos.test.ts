import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { VERSION_API_WHATSAPP } from '@pregon/contract/rules/whatsapp';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEquipo } from '../../testing/fabrica.ts';

// Device urls as a port scanner and a relay (issue 49.3), over real sockets on both engines:
// what answers on a port never reaches the operator (only the class of the failure), an url
// with '#' or '?' or a WhatsApp version '../x' is refused, a template list's paging.next is
// followed only on the device's origin, and a loopback target not in EQUIPOS_DESTINOS_PERMITIDOS
// is refused at save and at send without a connection.

/** An HTTP server on loopback that records every request (path and authorization). */
async function servidorHttp(
  responder: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_q, r) =>
    r.writeHead(404).end(),
) {
  const pedidos: { ruta: string; autorizacion: string | undefined }[] = [];
  const conexiones: net.Socket[] = [];
  const s = http.createServer((req, res) => {
    pedidos.push({ ruta: req.url ?? '', autorizacion: req.headers.authorization });
    responder(req, res);
  });
  s.on('connection', (c) => conexiones.push(c));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const puerto = (s.address() as net.AddressInfo).port;
  return {
    puerto,
    url: `http://127.0.0.1:${puerto}`,
    pedidos,
    conexiones,
    cerrar: () => {
      s.closeAllConnections();
      return new Promise<void>((r) => s.close(() => r()));
    },
  };
}

/** A TCP listener on loopback that only counts connections. */
async function escuchaTcp() {
  let conexiones = 0;
  const s = net.createServer((c) => {
    conexiones++;
    c.destroy();
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    puerto: (s.address() as net.AddressInfo).port,
    conexiones: () => conexiones,
    cerrar: () => new Promise<void>((r) => s.close(() => r())),
  };
}

/** A loopback port nothing listens on. */
async function puertoCerrado(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const p = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return p;
}

/** Digits of length 7 or more in a text: the numbers a PDU parser would quote from the peer. */
const NUMEROS_LARGOS = /\d{7,}/;

describe.each(MOTORES)('destinos de los equipos (issue 49.3, %s)', (motor) => {
  let api: ApiDePrueba;
  let token = '';
  let web: Awaited<ReturnType<typeof servidorHttp>>;
  let ajeno: Awaited<ReturnType<typeof servidorHttp>>;
  let meta: Awaited<ReturnType<typeof servidorHttp>>;
  let noListado: Awaited<ReturnType<typeof escuchaTcp>>;
  let cerrado = 0;
  const PG = 5432;

  beforeAll(async () => {
    web = await servidorHttp((_q, r) =>
      r.writeHead(200, { 'content-type': 'text/plain' }).end('hola'),
    );
    ajeno = await servidorHttp((_q, r) =>
      r.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'),
    );
    // A Cloud API whose template list points its next page at another origin (listed too, so
    // only the same-origin rule keeps the token from it).
    meta = await servidorHttp((_q, r) =>
      r.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          data: [{ name: 'uno', language: 'es_MX', status: 'APPROVED', components: [] }],
          paging: { next: `${ajeno.url}/${VERSION_API_WHATSAPP}/waba-1/message_templates?after=x` },
        }),
      ),
    );
    noListado = await escuchaTcp();
    cerrado = await puertoCerrado();
    api = await levantarApi(motor, {
      EQUIPOS_DESTINOS_PERMITIDOS: [PG, web.puerto, ajeno.puerto, meta.puerto, cerrado]
        .map((p) => `127.0.0.1:${p}`)
        .join(','),
    });
    token = await ingresar(api);
  });
  afterAll(async () => {
    await api?.cerrar();
    await Promise.all([web?.cerrar(), ajeno?.cerrar(), meta?.cerrar(), noListado?.cerrar()]);
  });

  const crear = (body: Record<string, unknown>) =>
    pedir(api.url, 'POST', '/equipos/', { token, body: { alias: 'Equipo SMS', ...body } });
  const probar = (id: number) =>
    pedir(api.url, 'POST', `/equipos/${id}/prueba/`, { token, body: { telefono: '5512345678' } });
  const smpp = { system_id: 'pregon', password: 'clave' };

  it.each([
    ['PostgreSQL', () => PG],
    ['HTTP', () => web.puerto],
  ])(
    'prueba SMPP contra %s: "no responde como un SMSC", sin los bytes del otro lado',
    async (_nombre, puerto) => {
      const c = await crear({
        protocolo: 'smpp',
        url: `smpp://127.0.0.1:${puerto()}`,
        credenciales: smpp,
      });
      expect(c.status).toBe(200);
      const r = await probar(c.body.id_equipo);
      expect(r.status).toBe(502);
      expect(r.body.message).toBe(
        msg('pruebaFallida', {
          motivo: `SMPP: ${msg('sinConexionCon', { destino: `127.0.0.1:${puerto()}`, motivo: msg('redNoSmsc') })}`,
        }),
      );
      expect(r.body.message).not.toMatch(NUMEROS_LARGOS);
      expect(r.body.message).not.toMatch(/PDU|HTTP|FATAL/);
    },
  );

  it('prueba SMPP a un puerto cerrado: "conexión rechazada"', async () => {
    const c = await crear({
      protocolo: 'smpp',
      url: `smpp://127.0.0.1:${cerrado}`,
      credenciales: smpp,
    });
    expect(c.status).toBe(200);
    const r = await probar(c.body.id_equipo);
    expect(r.status).toBe(502);
    expect(r.body.message).toBe(
      msg('pruebaFallida', {
        motivo: msg('sinConexionCon', {
          destino: `127.0.0.1:${cerrado}`,
          motivo: msg('redRechazada'),
        }),
      }),
    );
  });

  it('prueba AMI contra un servidor HTTP: "no responde como un Asterisk (AMI)"', async () => {
    const id = await crearEquipo(api.ctx.db, {
      protocolo: 'asterisk',
      url: `ami://127.0.0.1:${web.puerto}`,
      credenciales: { usuario: 'u', secreto: 's', troncal: 't' },
    });
    const r = await probar(id);
    expect(r.status).toBe(502);
    expect(r.body.message).toContain(msg('redNoAsterisk'));
    expect(r.body.message).not.toMatch(/HTTP|Bad Request/);
  });

  it.each([`http://127.0.0.1:29080/auth/signin/#`, `http://127.0.0.1:29080/auth/signin/?x=`])(
    'Android %s: rechazada al guardar, en el campo url',
    async (url) => {
      const r = await crear({
        protocolo: 'android',
        url,
        credenciales: { usuario: 'u', password: 'p' },
      });
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toContain(
        msg('urlEquipoConsulta', { forma: msg('formaUrlAndroid') }),
      );
    },
  );

  it("un equipo Android guardado antes con '#': la prueba no llega a ninguna ruta ni lleva credenciales", async () => {
    const id = await crearEquipo(api.ctx.db, {
      protocolo: 'android',
      url: `${web.url}/auth/signin/#`,
      credenciales: { usuario: 'u', password: 'p' },
    });
    const antes = web.pedidos.length;
    const r = await probar(id);
    expect(r.status).toBe(502);
    expect(r.body.message).toContain(msg('urlEquipoConsulta', { forma: msg('formaUrlAndroid') }));
    expect(web.pedidos.slice(antes)).toEqual([]);
  });

  it("WhatsApp con version '../x': rechazada al guardar, en credenciales.version", async () => {
    const r = await crear({
      protocolo: 'whatsapp',
      alias: 'WhatsApp',
      url: 'https://graph.facebook.com',
      credenciales: { phone_number_id: '1', token: 't', version: '../x' },
    });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain(
      msg('versionWhatsappForma', { defecto: VERSION_API_WHATSAPP }),
    );
  });

  it("WhatsApp guardado antes con version '../../x': la prueba no envía nada", async () => {
    const id = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: web.url,
      credenciales: { phone_number_id: '1', token: 'secreto-wa', version: '../../auth' },
    });
    const antes = web.pedidos.length;
    const r = await probar(id);
    expect(r.status).toBe(502);
    expect(r.body.message).toContain(
      msg('versionWhatsappForma', { defecto: VERSION_API_WHATSAPP }),
    );
    // Only the pre-start probe's GET of the base url, never with the token.
    expect(web.pedidos.slice(antes).filter((p) => p.autorizacion)).toEqual([]);
  });

  it('paging.next a otro origen no se sigue: el otro servidor no recibe nada, ni el token', async () => {
    const id = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: meta.url,
      credenciales: { phone_number_id: '1', token: 'token-meta', waba_id: 'waba-1' },
    });
    const r = await pedir(api.url, 'GET', `/equipos/${id}/plantillas/`, { token });
    expect(meta.pedidos.some((p) => p.autorizacion === 'Bearer token-meta')).toBe(true);
    expect(ajeno.pedidos).toEqual([]);
    expect(r.status).toBe(502);
    expect(r.body.message).toContain(msg('paginaOtroServidor'));
  });

  it('un destino de loopback fuera de la lista: rechazado al guardar (POST y PUT) y al enviar, sin conexión', async () => {
    const url = `smpp://127.0.0.1:${noListado.puerto}`;
    const esperado = msg('destinoNoPermitido', {
      destino: `127.0.0.1:${noListado.puerto}`,
      ip: '127.0.0.1',
    });
    const c = await crear({ protocolo: 'smpp', url, credenciales: smpp });
    expect(c.status).toBe(400);
    expect(c.body.message).toBe(esperado);
    expect(c.body.campo).toBe('url');
    const bueno = await crear({
      protocolo: 'smpp',
      url: `smpp://127.0.0.1:${cerrado}`,
      credenciales: smpp,
    });
    const m = await pedir(api.url, 'PUT', `/equipos/${bueno.body.id_equipo}/`, {
      token,
      body: { url: `smpp://localhost:${noListado.puerto}` },
    });
    expect(m.status).toBe(400);
    expect(m.body.message).toContain(`localhost:${noListado.puerto}`);
    // Saved before the rule (or its name now points here): the test send refuses it too.
    for (const [protocolo, u] of [
      ['smpp', url],
      ['android', `http://127.0.0.1:${noListado.puerto}`],
      ['whatsapp', `http://127.0.0.1:${noListado.puerto}`],
      ['asterisk', `ami://127.0.0.1:${noListado.puerto}`],
    ]) {
      const id = await crearEquipo(api.ctx.db, {
        protocolo: protocolo!,
        url: u,
        credenciales: {
          ...smpp,
          usuario: 'u',
          secreto: 's',
          troncal: 't',
          token: 't',
          phone_number_id: '1',
        },
      });
      const r = await probar(id);
      expect(r.status, protocolo).toBe(502);
      expect(r.body.message, protocolo).toBe(msg('pruebaFallida', { motivo: esperado }));
    }
    expect(noListado.conexiones()).toBe(0);
  });
});
