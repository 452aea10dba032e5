import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { msg } from '@pregon/contract/messages';
import { SimuladorAndroid } from '@pregon/simulators/android';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { tokenConRol } from '../../testing/roles.ts';
import {
  ESTADO_CDMX,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
} from '../../testing/ejercicios.ts';
import { buildApp } from '../server.ts';
import { arrancarDespachador } from '../dispatcher/index.ts';
import { CONFIG_PRUEBA, esperarCompletado, esperarQue } from '@pregon/despacho/testing/comun';
import { claveWebhookAndroid, reintentarWebhooksAndroid } from '../services/webhook-android.ts';

// Issue 46.1, replies over 'SMS Gateway for Android', over real sockets on both engines: saving
// an Android device registers its 'sms:received' webhook on the phone (signing key first, with the
// device's basic auth), the phone's signed replies are stored once and matched to the poll (a
// 'Necesito ayuda' opens a case), forged, unsigned and stale deliveries are refused with nothing
// stored, a reply the phone retries while the api is down is taken once, and hostile texts are
// kept as text.

const TELS = ['5541000001', '5541000002', '5541000003'];
const USUARIO = 'pregon';
const PASSWORD = 'clave-del-telefono';

/** A loopback port nothing listens on. */
async function puertoCerrado(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const p = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return p;
}

describe.each(MOTORES)('respuestas por Android (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let operador: string;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>> | undefined;
  let otraApp: FastifyInstance | undefined;
  const tel = new SimuladorAndroid({
    usuario: USUARIO,
    password: PASSWORD,
    retrasoReciboMs: 5,
    reintentoMs: 150,
    reintentos: 10,
  });
  let id_equipo = 0;

  beforeAll(async () => {
    api = await levantarApi(motor);
    // The phones reach the api where it listens (URL_WEBHOOKS in production).
    api.ctx.config.urlWebhooks = api.url;
    admin = await ingresar(api);
    operador = (await tokenConRol(api, 'operadores', 'operadora')).token;
    await tel.iniciar();
    for (const t of TELS) await insertarTelefono(api, t, ESTADO_CDMX, [1]);
  });
  afterAll(async () => {
    await despachador?.detener();
    await tel.detener();
    await otraApp?.close();
    await api?.cerrar();
  });

  /** Replies stored for a sender, oldest first. */
  const guardadas = (remitente: string) =>
    api.ctx.db.kysely
      .selectFrom('respuestas_recibidas')
      .selectAll()
      .where('remitente', '=', remitente)
      .orderBy('id_respuesta')
      .execute();
  const total = async () =>
    Number(
      (
        await api.ctx.db.kysely
          .selectFrom('respuestas_recibidas')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('guardar el equipo registra el webhook sms:received en el teléfono, con la clave de firma', async () => {
    const r = await pedir(api.url, 'POST', '/equipos/', {
      token: admin,
      body: {
        alias: 'Android respuestas',
        serial: 'A1',
        url: tel.url,
        protocolo: 'android',
        puertos: 1,
        tasa: 10,
        credenciales: { usuario: USUARIO, password: PASSWORD },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.aviso_respuestas).toBeUndefined();
    id_equipo = r.body.id_equipo;
    const inst = await api.ctx.db.kysely
      .selectFrom('ajustes')
      .select('valor')
      .where('clave', '=', 'instalacion')
      .executeTakeFirstOrThrow();
    // What the phone keeps, as its GET /webhooks answers it.
    const lista = await fetch(`${tel.url}/webhooks`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${USUARIO}:${PASSWORD}`).toString('base64')}`,
      },
    }).then((x) => x.json());
    expect(lista).toEqual([
      {
        id: `pregon-respuestas-${inst.valor}-${id_equipo}`,
        deviceId: null,
        url: `${api.url}/webhooks/android/${id_equipo}/`,
        event: 'sms:received',
        source: 'Local',
      },
    ]);
    // The phone signs with the key Pregón set, kept encrypted.
    const clave = await claveWebhookAndroid(api.ctx.db, id_equipo);
    expect(clave.length).toBeGreaterThanOrEqual(32);
    expect(tel.claveFirma).toBe(clave);
    const fila = await api.ctx.db.kysely
      .selectFrom('webhooks_android')
      .selectAll()
      .where('id_equipo', '=', id_equipo)
      .executeTakeFirstOrThrow();
    expect(fila.clave.startsWith('v1:')).toBe(true);
    expect(fila.clave).not.toContain(clave);
    expect(fila.error).toBeNull();
    expect(Number(fila.registrado)).toBeGreaterThan(0);
    // Saving it again (a new password) replaces the same registration and keeps the key.
    const otra = await pedir(api.url, 'PUT', `/equipos/${id_equipo}/`, {
      token: admin,
      body: { credenciales: { usuario: USUARIO, password: PASSWORD } },
    });
    expect(otra.status).toBe(200);
    expect(tel.webhooks.size).toBe(1);
    expect(tel.claveFirma).toBe(clave);
  });

  it('un teléfono que no responde: el equipo se guarda, el aviso dice por qué, y probarlo lo registra después', async () => {
    const cerrado = await puertoCerrado();
    const sinRed = await pedir(api.url, 'POST', '/equipos/', {
      token: admin,
      body: {
        alias: 'Android apagado',
        serial: 'A2',
        url: `http://127.0.0.1:${cerrado}`,
        protocolo: 'android',
        credenciales: { usuario: USUARIO, password: PASSWORD },
      },
    });
    expect(sinRed.status).toBe(200);
    expect(sinRed.body.aviso_respuestas).toBe(
      msg('webhookAndroidNoRegistrado', {
        alias: 'Android apagado',
        motivo: msg('webhookAndroidSinConexion', { error: 'ECONNREFUSED' }),
      }),
    );
    const leido = await pedir(api.url, 'GET', `/equipos/${sinRed.body.id_equipo}/`, {
      token: admin,
    });
    expect(leido.body.data.alias).toBe('Android apagado');

    // An app too old for PATCH /settings: the reason names the update it needs.
    const viejo = new SimuladorAndroid({ usuario: USUARIO, password: PASSWORD, conAjustes: false });
    await viejo.iniciar();
    try {
      const r = await pedir(api.url, 'POST', '/equipos/', {
        token: admin,
        body: {
          alias: 'Android viejo',
          serial: 'A3',
          url: viejo.url,
          protocolo: 'android',
          credenciales: { usuario: USUARIO, password: PASSWORD },
        },
      });
      expect(r.body.aviso_respuestas).toBe(
        msg('webhookAndroidNoRegistrado', {
          alias: 'Android viejo',
          motivo: msg('webhookAndroidSinAjustes', { status: 404 }),
        }),
      );
      expect(viejo.webhooks.size).toBe(0);
    } finally {
      await viejo.detener();
    }

    // A phone down (503) at save is registered when the device is tested once it is back.
    const caido = new SimuladorAndroid({ usuario: USUARIO, password: PASSWORD, caido: true });
    await caido.iniciar();
    try {
      const r = await pedir(api.url, 'POST', '/equipos/', {
        token: admin,
        body: {
          alias: 'Android caído',
          serial: 'A4',
          url: caido.url,
          protocolo: 'android',
          credenciales: { usuario: USUARIO, password: PASSWORD },
        },
      });
      expect(r.body.aviso_respuestas).toContain('HTTP 503');
      expect(caido.webhooks.size).toBe(0);
      await caido.ajustar({ caido: false });
      const prueba = await pedir(api.url, 'POST', `/equipos/${r.body.id_equipo}/prueba/`, {
        token: admin,
        body: { telefono: TELS[0] },
      });
      expect(prueba.status).toBe(200);
      await esperarQue(async () => caido.webhooks.size === 1, 'el registro al probar el equipo');
      const fila = await api.ctx.db.kysely
        .selectFrom('webhooks_android')
        .select(['error', 'registrado'])
        .where('id_equipo', '=', r.body.id_equipo)
        .executeTakeFirstOrThrow();
      expect(fila.error).toBeNull();
      expect(caido.claveFirma).toBe(await claveWebhookAndroid(api.ctx.db, r.body.id_equipo));
    } finally {
      await caido.detener();
    }
  });

  it('al arrancar el despachador: un teléfono que perdió el webhook lo recibe otra vez; uno que lo tiene no se toca', async () => {
    const clave = await claveWebhookAndroid(api.ctx.db, id_equipo);
    // The app was reinstalled: no webhook, a key of its own.
    tel.webhooks.clear();
    tel.claveFirma = 'clave-nueva';
    await reintentarWebhooksAndroid(api.ctx.db);
    expect([...tel.webhooks.values()].map((w) => w.url)).toEqual([
      `${api.url}/webhooks/android/${id_equipo}/`,
    ]);
    expect(tel.claveFirma).toBe(clave);
    // Registered and listed: only read, nothing changed on the phone (no notice to its user).
    const cambios = tel.ajustesCambiados;
    await reintentarWebhooksAndroid(api.ctx.db);
    expect(tel.ajustesCambiados).toBe(cambios);
    expect(tel.webhooks.size).toBe(1);
  });

  it('una encuesta por Android: las respuestas firmadas se guardan una vez y quien pide ayuda abre un caso', async () => {
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
    });
    const id = await crearYGenerar(
      api,
      admin,
      cuerpoEjercicio(id_equipo, {
        titulo: 'Encuesta Android',
        accion: 'Simulacro: ¿cómo está?',
        categorias: '1',
        encuesta: {
          opciones: [
            { digito: 1, texto: 'Estoy a salvo' },
            { digito: 2, texto: 'Necesito ayuda', atencion: '1' },
          ],
          anexar_opciones: '1',
        },
      }),
    );
    const inicio = await pedir(api.url, 'POST', '/ejercicio/sms/', {
      token: operador,
      body: { id_ejercicio: id },
    });
    expect(inicio.status).toBe(200);
    await esperarCompletado(api.ctx.db, id);
    expect(tel.registro.filter((m) => TELS.some((t) => m.telefono.endsWith(t))).length).toBe(3);

    // The phone receives two answers and posts them, signed, to the webhook.
    expect(await tel.recibirSms({ de: `+52${TELS[0]}`, texto: '1' })).toEqual([200]);
    expect(await tel.recibirSms({ de: TELS[1]!, texto: 'Necesito ayuda' })).toEqual([200]);
    const casos = await esperarQue(async () => {
      const r = await pedir(api.url, 'GET', `/ejercicio/${id}/casos/`, { token: operador });
      return r.body.data?.length === 1 ? r.body.data : null;
    }, 'el caso de quien pidió ayuda');
    expect(casos[0]).toMatchObject({ telefono: TELS[1], opcion: 'Necesito ayuda' });
    const r = await pedir(api.url, 'GET', `/ejercicio/${id}/respuestas/`, { token: operador });
    expect(r.body.opciones.map((o: any) => [o.digito, o.total])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    const [fila] = await guardadas(TELS[1]!);
    expect(fila).toMatchObject({
      id_equipo,
      canal: 'android',
      telefono: TELS[1],
      texto: 'Necesito ayuda',
      codificacion: 'UTF-8',
      texto_crudo: Buffer.from('Necesito ayuda').toString('hex'),
      id_ejercicio: id,
    });
    // The phone's local time with its offset, as an instant.
    expect(Math.abs(Number(fila!.fecha_gateway) - Date.now())).toBeLessThan(60_000);

    // The phone delivers the same message again (its retry after a lost answer), signed anew:
    // stored once. Its messageId is the same for any equal text: it is not the key.
    const ultimo = tel.intentosWebhook.at(-1)!;
    expect(await tel.entregarWebhook(ultimo.url, ultimo.cuerpo)).toBe(200);
    expect(await guardadas(TELS[1]!)).toHaveLength(1);
    // The same text received later is another reply.
    await tel.recibirSms({ de: TELS[1]!, texto: 'Necesito ayuda', recibido: Date.now() + 1000 });
    expect(await guardadas(TELS[1]!)).toHaveLength(2);
  });

  it('sin firma, con otra clave, vencida o para un equipo sin webhook: 401 y nada guardado', async () => {
    const antes = await total();
    const w = [...tel.webhooks.values()][0]!;
    const cuerpo = tel.cuerpoSms(w, { de: TELS[2]!, texto: 'falsificado' });
    const url = `${api.url}/webhooks/android/${id_equipo}/`;
    const enviar = async (cabeceras: Record<string, string>, destino = url) => {
      const r = await fetch(destino, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...cabeceras },
        body: cuerpo,
      });
      return { status: r.status, body: (await r.json()) as { message: string } };
    };
    const ahora = Math.floor(Date.now() / 1000);
    const otra = new SimuladorAndroid();
    const invalida = msg('webhookAndroidFirmaInvalida');
    const casos: [string, Record<string, string>, string][] = [
      ['sin cabeceras', {}, invalida],
      ['solo la marca', { 'x-timestamp': String(ahora) }, invalida],
      ['otra clave', otra.firmar(cuerpo), invalida],
      ['firma de otro cuerpo', tel.firmar(`${cuerpo} `), invalida],
      ['firma sin hex', { ...tel.firmar(cuerpo), 'x-signature': 'z'.repeat(64) }, invalida],
      [
        'vencida (hace 6 minutos)',
        tel.firmar(cuerpo, ahora - 360),
        msg('webhookAndroidFirmaVencida', { minutos: 5 }),
      ],
      [
        'del futuro (en 6 minutos)',
        tel.firmar(cuerpo, ahora + 360),
        msg('webhookAndroidFirmaVencida', { minutos: 5 }),
      ],
    ];
    for (const [que, cabeceras, mensaje] of casos) {
      const r = await enviar(cabeceras);
      expect([que, r.status, r.body.message]).toEqual([que, 401, mensaje]);
    }
    // Signed by the phone, but for a device with no webhook of its own.
    const ajeno = await enviar(tel.firmar(cuerpo), `${api.url}/webhooks/android/999999/`);
    expect(ajeno.status).toBe(401);
    expect(ajeno.body.message).toBe(msg('webhookAndroidSinClave', { id: 999999 }));
    expect(await total()).toBe(antes);
    // Within the 5 minutes it is taken.
    expect((await enviar(tel.firmar(cuerpo, ahora - 200))).status).toBe(200);
    expect(await total()).toBe(antes + 1);
  });

  it('una respuesta que llega con la api caída se toma cuando vuelve, una sola vez', async () => {
    const puerto = Number(new URL(api.url).port);
    await api.app.close();
    const entrega = tel.recibirSms({ de: TELS[2]!, texto: '2 estoy atrapado' });
    await esperarQue(
      async () => tel.intentosWebhook.some((i) => i.status === 0),
      'un intento sin api',
    );
    otraApp = await buildApp(api.ctx);
    await otraApp.listen({ port: puerto, host: '127.0.0.1' });
    expect(await entrega).toEqual([200]);
    const filas = await guardadas(TELS[2]!);
    expect(filas.map((f) => f.texto)).toEqual(['falsificado', '2 estoy atrapado']);
    const intentos = tel.intentosWebhook.filter((i) => i.cuerpo.includes('estoy atrapado'));
    expect(intentos.length).toBeGreaterThanOrEqual(2);
    expect(intentos.at(-1)!.status).toBe(200);
  });

  it('textos hostiles: 1 600 caracteres, controles, HTML y fórmulas se guardan como texto', async () => {
    const hostil =
      '<script>alert(1)</script>=HYPERLINK("http://x")\u0000\u0007\u001b[31m\r\n' +
      'ñ😀'.repeat(300) +
      'x'.repeat(1600);
    const texto = hostil.slice(0, 1600);
    expect(await tel.recibirSms({ de: 'Telcel', texto })).toEqual([200]);
    const [fila] = await guardadas('Telcel');
    expect(fila!.texto).toBe(texto.replace('\u0000', '\uFFFD'));
    expect(fila!.texto).toHaveLength(1600);
    expect(fila!.telefono).toBeNull();
    expect(Buffer.from(fila!.texto_crudo, 'hex').toString('utf8')).toBe(texto);
    // A forged body as large as the api takes is refused before it is read.
    const grande = await fetch(`${api.url}/webhooks/android/${id_equipo}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(900_000),
    });
    expect(grande.status).toBe(401);
    // A signed event that is not a received SMS is answered 200 and stores nothing.
    const antes = await total();
    const ping = JSON.stringify({ event: 'system:ping', payload: { health: {} } });
    expect(await tel.entregarWebhook(`${api.url}/webhooks/android/${id_equipo}/`, ping)).toBe(200);
    expect(await total()).toBe(antes);
  });
});
