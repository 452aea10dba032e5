import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { MOTORES, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { cuerpoEjercicio, insertarEquipo } from '../../testing/ejercicios.ts';
import { ClavesApi } from '../services/claves.ts';
import { arrancarWebhooks } from '../services/webhooks-salida.ts';
import { leerDestinosPermitidos } from '@pregon/despacho/destinos';
import { escribirLecturas } from '../repositories/respuestas.ts';

// Issue 47.4: API keys (scopes, shown once, stored hashed, revocable, 'último uso', rate-limited,
// audited as the account) and signed outgoing webhooks (HMAC-SHA256 over `marca.cuerpo`,
// retried from a durable queue, delivery log, 'Reenviar', local targets refused by default).

/** A receiver of webhooks: answers 500 to the first `fallos` requests, then 200. */
function receptor(fallos: number) {
  const recibidas: { cabeceras: http.IncomingHttpHeaders; cuerpo: string; hora: number }[] = [];
  const servidor = http.createServer((req, res) => {
    const partes: Buffer[] = [];
    req.on('data', (c: Buffer) => partes.push(c));
    req.on('end', () => {
      recibidas.push({
        cabeceras: req.headers,
        cuerpo: Buffer.concat(partes).toString('utf8'),
        hora: Date.now(),
      });
      const falla = recibidas.length <= fallos;
      res.writeHead(falla ? 500 : 200, { 'content-type': 'text/plain' });
      res.end(falla ? 'caido' : 'recibido');
    });
  });
  return {
    recibidas,
    servidor,
    async escuchar() {
      await new Promise<void>((r) => servidor.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(servidor.address() as AddressInfo).port}/pregon`;
    },
  };
}

/** Whether a delivery's signature is right for `secreto` (what a receiver checks). */
function firmaValida(secreto: string, cabeceras: http.IncomingHttpHeaders, cuerpo: string) {
  const marca = String(cabeceras['x-pregon-marca']);
  const esperada = `sha256=${crypto.createHmac('sha256', secreto).update(`${marca}.${cuerpo}`).digest('hex')}`;
  const dada = String(cabeceras['x-pregon-firma']);
  return (
    dada.length === esperada.length &&
    crypto.timingSafeEqual(Buffer.from(dada), Buffer.from(esperada)) &&
    Math.abs(Date.now() / 1000 - Number(marca)) < 300
  );
}

async function esperar(cond: () => Promise<boolean> | boolean, ms = 15_000) {
  const fin = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > fin) throw new Error('tiempo agotado esperando la condición');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(MOTORES)('claves de API y webhooks salientes (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let equipo: number;
  const bearer = (clave: string) => `Bearer ${clave}`;
  const crearClave = async (nombre: string, alcances: string) => {
    const r = await pedir(api.url, 'POST', '/integraciones/claves/', {
      token: admin,
      body: { nombre, alcances },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as { clave: string; data: { id_clave: number; prefijo: string } };
  };

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = `Bearer ${(await pedir(api.url, 'POST', '/auth/signin/', { body: { usuario: 'admin', password: api.adminPassword } })).body.token}`;
    equipo = await insertarEquipo(api, 'SMS principal', 'smpp');
  });
  afterAll(async () => {
    await api?.cerrar();
  });

  it('una clave se muestra una vez, se guarda como hash y actúa solo dentro de sus alcances', async () => {
    const lectura = await crearClave('Tablero estatal', 'lectura');
    expect(lectura.clave).toMatch(/^pregon_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    const fila = await api.ctx.db.kysely
      .selectFrom('claves_api')
      .selectAll()
      .where('id_clave', '=', lectura.data.id_clave)
      .executeTakeFirstOrThrow();
    // The secret is all after 'pregon_<id_publico>_' (it may hold '_' itself, even first).
    expect(JSON.stringify(fila)).not.toContain(lectura.clave.slice('pregon_'.length + 13));
    expect(fila.hash).toBe(crypto.createHash('sha256').update(lectura.clave).digest('hex'));
    const lista = await pedir(api.url, 'GET', '/integraciones/claves/', { token: admin });
    expect(JSON.stringify(lista.body)).not.toContain(lectura.clave);
    expect(lista.body.data[0]).toMatchObject({ nombre: 'Tablero estatal', ultimo_uso: null });

    // Reads with 'lectura'; creating needs 'crear_simulacros'; admin routes take no key.
    const leer = await pedir(api.url, 'GET', '/ejercicios/', { token: bearer(lectura.clave) });
    expect(leer.status).toBe(200);
    const crear = await pedir(api.url, 'POST', '/ejercicio/', {
      token: bearer(lectura.clave),
      body: cuerpoEjercicio(equipo),
    });
    expect(crear.status).toBe(403);
    expect(crear.body.mensaje).toBe(msg('claveSinAlcance', { alcance: 'crear_simulacros' }));
    const adminRuta = await pedir(api.url, 'GET', '/integraciones/claves/', {
      token: bearer(lectura.clave),
    });
    expect(adminRuta.status).toBe(403);
    const despues = await pedir(api.url, 'GET', '/integraciones/claves/', { token: admin });
    expect(despues.body.data[0].ultimo_uso).toBeGreaterThan(0);

    // With the scope it creates, audited as the account; a real alert needs its own scope.
    const sistema = await crearClave('Sistema estatal', 'lectura,crear_simulacros');
    const ok = await pedir(api.url, 'POST', '/ejercicio/', {
      token: bearer(sistema.clave),
      body: cuerpoEjercicio(equipo, { titulo: 'Creado por clave' }),
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const auditoria = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select(['usuario', 'id_usuario'])
      .where('entidad', '=', 'ejercicio')
      .where('accion', '=', 'crear')
      .where('id_entidad', '=', String(ok.body.id_ejercicio))
      .executeTakeFirstOrThrow();
    expect(auditoria).toEqual({ usuario: 'clave:Sistema estatal', id_usuario: null });
    const real = await pedir(api.url, 'POST', '/ejercicio/', {
      token: bearer(sistema.clave),
      body: cuerpoEjercicio(equipo, { modo: 'real' }),
    });
    expect(real.status).toBe(403);
    expect(real.body.mensaje).toBe(msg('claveSinAlcance', { alcance: 'solicitar_alertas_reales' }));

    // Revoked: 401 at the next request.
    const rev = await pedir(api.url, 'DELETE', `/integraciones/claves/${sistema.data.id_clave}/`, {
      token: admin,
    });
    expect(rev.status).toBe(200);
    const tras = await pedir(api.url, 'GET', '/ejercicios/', { token: bearer(sistema.clave) });
    expect(tras.status).toBe(401);
    expect(tras.body.mensaje).toBe(msg('claveInvalida'));
    // A key with a wrong secret is as unknown.
    const falsa = `${lectura.clave.slice(0, -4)}AAAA`;
    expect((await pedir(api.url, 'GET', '/ejercicios/', { token: bearer(falsa) })).status).toBe(
      401,
    );
  });

  it('limita las peticiones por clave y minuto (429)', async () => {
    const { clave } = await crearClave('Ráfaga', 'lectura');
    const limitada = new ClavesApi(api.ctx.db.kysely, 2);
    await limitada.verificar(clave);
    await limitada.verificar(clave);
    await expect(limitada.verificar(clave)).rejects.toMatchObject({
      statusCode: 429,
      message: msg('demasiadasPeticiones'),
    });
  });

  it('/docs documenta el esquema de claves y el alcance de cada ruta', async () => {
    const doc = (await pedir(api.url, 'GET', '/docs/json')).body;
    expect(doc.components.securitySchemes.claveApi).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(doc.paths['/ejercicio/'].post.description).toContain("alcance 'crear_simulacros'");
    expect(doc.paths['/integraciones/claves/'].get.description).toBe('No acepta claves de API.');
  });

  it('rechaza un destino 127.0.0.1 salvo que WEBHOOKS_DESTINOS_PERMITIDOS lo permita', async () => {
    const r = await pedir(api.url, 'POST', '/integraciones/webhooks/', {
      token: admin,
      body: { url: 'http://127.0.0.1:9/x', eventos: ['ejercicio.creado'] },
    });
    expect(r.status).toBe(400);
    expect(r.body.campo).toBe('url');
    expect(r.body.mensaje).toBe(
      msg('destinoWebhookNoPermitido', { destino: '127.0.0.1:9', ip: '127.0.0.1' }),
    );
    expect(await api.ctx.db.kysely.selectFrom('webhooks').selectAll().execute()).toEqual([]);
  });

  it('firma cada entrega, reintenta tras tres 500 (cola durable) y registra; Reenviar repite', async () => {
    const rec = receptor(3);
    const url = await rec.escuchar();
    const cfg = api.ctx.webhooks;
    cfg.destinos = leerDestinosPermitidos('127.0.0.1/32');
    cfg.reintentoMs = 100;
    cfg.sondeoMs = 25;
    try {
      const alta = await pedir(api.url, 'POST', '/integraciones/webhooks/', {
        token: admin,
        body: { url, eventos: 'ejercicio.creado,ejercicio.detenido' },
      });
      expect(alta.status, JSON.stringify(alta.body)).toBe(200);
      const { secreto } = alta.body as { secreto: string };
      const id_webhook = alta.body.data.id_webhook as number;

      const creado = await pedir(api.url, 'POST', '/ejercicio/', {
        token: admin,
        body: cuerpoEjercicio(equipo, { titulo: 'Avisado por webhook' }),
      });
      expect(creado.status).toBe(200);

      // First worker: one attempt, then it stops (as a process would); the next one goes on.
      let trabajador = arrancarWebhooks(api.ctx.db.kysely, cfg);
      await esperar(() => rec.recibidas.length >= 1);
      await trabajador.detener();
      trabajador = arrancarWebhooks(api.ctx.db.kysely, cfg);
      try {
        await esperar(() => rec.recibidas.length >= 4);
        const entregas = async () =>
          (
            await pedir(api.url, 'GET', `/integraciones/webhooks/${id_webhook}/entregas/`, {
              token: admin,
            })
          ).body.data;
        await esperar(async () => (await entregas())[0]?.estado === 'entregado');
        const [e] = await entregas();
        expect(e).toMatchObject({
          evento: 'ejercicio.creado',
          estado: 'entregado',
          intentos: 4,
          estado_http: 200,
          respuesta: 'recibido',
          error: null,
        });
        expect(e.duracion_ms).toBeGreaterThanOrEqual(0);
        for (const r of rec.recibidas) {
          expect(firmaValida(secreto, r.cabeceras, r.cuerpo)).toBe(true);
          expect(r.cabeceras['x-pregon-evento']).toBe('ejercicio.creado');
          expect(JSON.parse(r.cuerpo)).toMatchObject({
            evento: 'ejercicio.creado',
            datos: { id_ejercicio: creado.body.id_ejercicio, usuario: 'admin' },
          });
        }
        expect(
          firmaValida('otro-secreto', rec.recibidas[0]!.cabeceras, rec.recibidas[0]!.cuerpo),
        ).toBe(false);
        // Backoff: each wait at least the previous one's double (100, 200, 400 ms).
        const h = rec.recibidas.map((r) => r.hora);
        expect(h[2]! - h[1]!).toBeGreaterThanOrEqual(190);
        expect(h[3]! - h[2]!).toBeGreaterThanOrEqual(390);

        const re = await pedir(
          api.url,
          'POST',
          `/integraciones/entregas/${e.id_entrega}/reenviar/`,
          {
            token: admin,
          },
        );
        expect(re.status).toBe(200);
        await esperar(() => rec.recibidas.length >= 5);
        expect(rec.recibidas[4]!.cuerpo).toBe(rec.recibidas[0]!.cuerpo);
        await esperar(async () => (await entregas())[0]?.intentos === 5);
      } finally {
        await trabajador.detener();
      }
    } finally {
      rec.servidor.close();
      cfg.destinos = leerDestinosPermitidos('');
    }
  });

  it('una respuesta leída encola respuesta.recibida en la misma transacción', async () => {
    api.ctx.webhooks.destinos = leerDestinosPermitidos('127.0.0.1/32');
    try {
      const alta = await pedir(api.url, 'POST', '/integraciones/webhooks/', {
        token: admin,
        body: { url: 'http://127.0.0.1:9/respuestas', eventos: ['respuesta.recibida'] },
      });
      expect(alta.status).toBe(200);
    } finally {
      api.ctx.webhooks.destinos = leerDestinosPermitidos('');
    }
    const k = api.ctx.db.kysely;
    const recibida = Date.now();
    const { id_respuesta } = await k
      .insertInto('respuestas_recibidas')
      .values({
        id_equipo: equipo,
        canal: 'smpp',
        remitente: '525512345678',
        telefono: '5512345678',
        texto: 'BAJA',
        texto_crudo: Buffer.from('BAJA').toString('hex'),
        codificacion: 'gsm7',
        fecha_recibida: recibida,
        clave: `prueba:${Math.random()}`,
      })
      .returning('id_respuesta')
      .executeTakeFirstOrThrow();
    await k.transaction().execute((trx) =>
      escribirLecturas(trx, [
        {
          id_respuesta: Number(id_respuesta),
          clasificacion: 'baja',
          id_ejercicio: null,
          id_detalle: null,
        },
      ]),
    );
    const filas = await k
      .selectFrom('webhook_entregas')
      .select(['evento', 'cuerpo'])
      .where('evento', '=', 'respuesta.recibida')
      .execute();
    expect(filas).toHaveLength(1);
    // What a receiver needs without calling back: the number, the text and when it came.
    expect(JSON.parse(filas[0]!.cuerpo).datos).toEqual({
      id_respuesta: Number(id_respuesta),
      id_ejercicio: null,
      clasificacion: 'baja',
      canal: 'smpp',
      telefono: '5512345678',
      nombre: null,
      texto: 'BAJA',
      recibida: new Date(recibida).toISOString(),
    });
  });
});
