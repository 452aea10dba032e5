import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { estadosWebhookWhatsapp, verificarWebhookWhatsapp } from '@pregon/contract/api/prueba';
import { SimuladorAndroid } from '@pregon/simulators/android';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { SimuladorWhatsapp } from '@pregon/simulators/whatsapp';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { esperarQue, filas } from '@pregon/despacho/testing/comun';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';

// POST /equipos/{id}/prueba/ through each adapter and its simulator, and the WhatsApp webhook
// (verify-token handshake, HMAC signature, statuses applied to the recipient rows).

describe.each(MOTORES)('prueba de equipo y webhook de WhatsApp (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  const smsc = new SimuladorSmpp({ system_id: 'pregon', password: 'clave' });
  const android = new SimuladorAndroid({ usuario: 'pregon', password: 'clave' });
  const wa = new SimuladorWhatsapp({
    token: 'tok',
    phoneNumberId: '555000',
    appSecret: 'secreto',
    ventanaAbierta: true,
  });
  const equipos: Record<string, number> = {};

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    await Promise.all([smsc.iniciar(), android.iniciar(), wa.iniciar()]);
    equipos.smpp = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      credenciales: { system_id: 'pregon', password: 'clave' },
    });
    equipos.android = await crearEquipo(api.ctx.db, {
      protocolo: 'android',
      url: android.url,
      credenciales: { usuario: 'pregon', password: 'clave' },
    });
    equipos.whatsapp = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: wa.url,
      credenciales: {
        token: 'tok',
        phone_number_id: '555000',
        app_secret: 'secreto',
        verify_token: 'verifica',
      },
    });
    equipos.asterisk = await crearEquipo(api.ctx.db, {
      protocolo: 'asterisk',
      url: 'ami://127.0.0.1:1',
      credenciales: { usuario: 'pregon', secreto: 'clave', troncal: 'salida' },
    });
    equipos.malo = await crearEquipo(api.ctx.db, {
      protocolo: 'android',
      url: android.url,
      credenciales: { usuario: 'pregon', password: 'otra' },
    });
  });
  afterAll(async () => {
    await Promise.all([smsc.detener(), android.detener(), wa.detener()]);
    await api?.cerrar();
  });

  it.each(['smpp', 'android', 'whatsapp'])('envía un mensaje de prueba por %s', async (p) => {
    const r = await pedir(api.url, 'POST', `/equipos/${equipos[p]}/prueba/`, {
      token,
      body: { telefono: '55 1234 5678' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 200,
      mensaje: 'Prueba enviada a 55 1234 5678',
      estatus: 'enviado',
    });
    const sim = { smpp: smsc, android, whatsapp: wa }[p]!;
    expect(sim.registro.at(-1)).toMatchObject({
      texto: 'Mensaje de prueba de Pregón',
      id: r.body.id_gateway,
    });
    expect(sim.registro.at(-1)!.telefono.replace(/^\+/, '')).toBe('525512345678');
    const e = await api.ctx.db.kysely
      .selectFrom('equipos')
      .select('ultimo_contacto')
      .where('id_equipo', '=', equipos[p]!)
      .executeTakeFirstOrThrow();
    expect(e.ultimo_contacto).toBeGreaterThan(0);
  });

  it('errores: número inválido (400 que nombra el campo), protocolo sin mensajes (400), credenciales (502), equipo inexistente (404)', async () => {
    const r1 = await pedir(api.url, 'POST', `/equipos/${equipos.android}/prueba/`, {
      token,
      body: { telefono: 'abc' },
    });
    expect(r1.status).toBe(400);
    expect(r1.body.message).toMatch(/Número/);
    const r0 = await pedir(api.url, 'POST', `/equipos/${equipos.android}/prueba/`, {
      token,
      body: {},
    });
    expect(r0.status).toBe(400);
    expect(r0.body.message).toMatch(/Número/);
    const r2 = await pedir(api.url, 'POST', `/equipos/${equipos.asterisk}/prueba/`, {
      token,
      body: { telefono: '5512345678' },
    });
    // A call device places a real call; with no Asterisk behind its AMI address: 502 saying so
    // (the gateway is checked before the channel is built).
    expect(r2.status).toBe(502);
    expect(r2.body.message).toBe(
      'La prueba no se pudo enviar: No se pudo conectar con 127.0.0.1:1: conexión rechazada',
    );
    const r3 = await pedir(api.url, 'POST', `/equipos/${equipos.malo}/prueba/`, {
      token,
      body: { telefono: '5512345678' },
    });
    expect(r3.status).toBe(502);
    expect(r3.body.message).toMatch(/^La prueba no se pudo enviar: .*credenciales/);
    const r4 = await pedir(api.url, 'POST', `/equipos/999999/prueba/`, {
      token,
      body: { telefono: '5512345678' },
    });
    expect(r4.status).toBe(404);
  });

  it('sin token 401; rol consulta 403', async () => {
    const r = await pedir(api.url, 'POST', `/equipos/${equipos.android}/prueba/`, {
      body: { telefono: '5512345678' },
    });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('FALLO: SESION EXPIRADA');
    const { token: consulta } = await tokenConRol(api, 'consulta');
    const r2 = await pedir(api.url, 'POST', `/equipos/${equipos.android}/prueba/`, {
      token: consulta,
      body: { telefono: '5512345678' },
    });
    expect(r2.status).toBe(403);
  });

  it('webhook: saludo con el token de verificación; firma HMAC obligatoria; los estados marcan recibida', async () => {
    const ok = await pedir(
      api.url,
      'GET',
      '/webhooks/whatsapp/?hub.mode=subscribe&hub.verify_token=verifica&hub.challenge=12345',
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toBe(12345);
    const no = await pedir(
      api.url,
      'GET',
      '/webhooks/whatsapp/?hub.mode=subscribe&hub.verify_token=otro&hub.challenge=1',
    );
    expect(no.status).toBe(403);

    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: equipos.whatsapp!,
      n: 2,
      tipo: 3,
      iniciar: false,
    });
    const [a, b] = await filas(api.ctx.db, id);
    await api.ctx.db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'enviado', id_gateway: 'wamid.A' })
      .where('id_detalle', '=', a!.id_detalle)
      .execute();
    await api.ctx.db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'enviado', id_gateway: 'wamid.B' })
      .where('id_detalle', '=', b!.id_detalle)
      .execute();
    const cuerpo = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'x',
          changes: [
            {
              field: 'messages',
              value: {
                metadata: { phone_number_id: '555000' },
                statuses: [
                  { id: 'wamid.A', status: 'delivered', timestamp: '1', recipient_id: '1' },
                  {
                    id: 'wamid.B',
                    status: 'failed',
                    timestamp: '1',
                    recipient_id: '1',
                    errors: [{ code: 131026, title: 'Message undeliverable' }],
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const firma = (s: string) =>
      `sha256=${crypto.createHmac('sha256', s).update(cuerpo).digest('hex')}`;
    const mala = await pedir(api.url, 'POST', '/webhooks/whatsapp/', {
      rawBody: cuerpo,
      headers: { 'x-hub-signature-256': firma('otro') },
    });
    expect(mala.status).toBe(401);
    expect(mala.body.message).toBe('Firma X-Hub-Signature-256 no válida');
    const sin = await pedir(api.url, 'POST', '/webhooks/whatsapp/', { rawBody: cuerpo });
    expect(sin.status).toBe(401);
    expect((await filas(api.ctx.db, id)).every((r) => r.recibida === 0)).toBe(true);

    const buena = await pedir(api.url, 'POST', '/webhooks/whatsapp/', {
      rawBody: cuerpo,
      headers: { 'x-hub-signature-256': firma('secreto') },
    });
    expect(buena.status).toBe(200);
    const rs = await esperarQue(async () => {
      const x = await filas(api.ctx.db, id);
      return x.every((r) => r.recibida === 1) ? x : undefined;
    }, 'estados aplicados');
    expect(rs[0]).toMatchObject({ estatus: 'entregado', recibida: 1 });
    expect(rs[1]).toMatchObject({
      estatus: 'fallido',
      recibida: 1,
      motivo: `${msg('whatsappNoEntregable')} (131026: Message undeliverable)`,
    });
  });

  it('el documento OpenAPI publica el webhook de WhatsApp (GET de verificación y POST de estados), sin token', async () => {
    const doc = (await pedir(api.url, 'GET', '/docs/json')).body;
    const w = doc.paths['/webhooks/whatsapp/'];
    expect(Object.keys(w ?? {}).sort()).toEqual(['get', 'post']);
    expect(w.get.summary).toBe(verificarWebhookWhatsapp.resumen);
    expect(w.post.summary).toBe(estadosWebhookWhatsapp.resumen);
    expect(w.get.security).toBeUndefined();
    expect(w.post.security).toBeUndefined();
    expect(w.get.parameters.map((p: { in: string; name: string }) => `${p.in} ${p.name}`)).toEqual([
      'query hub.mode',
      'query hub.verify_token',
      'query hub.challenge',
    ]);
  });
});

// Issue 22.5: a test send to a gateway that cannot be reached fails within the configured check
// time with a Spanish reason naming it, never Node's text (ECONNREFUSED, getaddrinfo ENOTFOUND).
// Only loopback and '.invalid' names (which never resolve) are used.
describe.each(MOTORES)('prueba de equipo inalcanzable (%s)', (motor) => {
  const PLAZO_MS = 1500;
  let api: ApiDePrueba;
  let token: string;
  let cerrado: number;
  let mudo: net.Server;
  let puertoMudo: number;
  const conexiones: net.Socket[] = [];

  beforeAll(async () => {
    api = await levantarApi(motor, { COMPROBACION_EQUIPO_MS: String(PLAZO_MS) });
    token = await ingresar(api);
    cerrado = await puertoCerrado();
    // Takes the connection and never answers (an HTTP gateway that hangs).
    mudo = net.createServer((s) => conexiones.push(s));
    await new Promise<void>((r) => mudo.listen(0, '127.0.0.1', r));
    puertoMudo = (mudo.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of conexiones) s.destroy();
    await new Promise((r) => mudo?.close(r));
    await api?.cerrar();
  });

  const CREDENCIALES: Record<string, Record<string, string>> = {
    smpp: { system_id: 'pregon', password: 'clave' },
    android: { usuario: 'pregon', password: 'clave' },
    whatsapp: { phone_number_id: '555000', token: 'tok' },
    asterisk: { usuario: 'pregon', secreto: 'clave', troncal: 'salida' },
  };

  it.each([
    [
      'smpp',
      () => `smpp://127.0.0.1:${cerrado}`,
      () => `No se pudo conectar con 127.0.0.1:${cerrado}: conexión rechazada`,
    ],
    ['smpp', () => 'smpp://noexiste.invalid:2775', () => 'No se encontró el host noexiste.invalid'],
    [
      'android',
      () => `http://127.0.0.1:${cerrado}/`,
      () => `No se pudo conectar con 127.0.0.1:${cerrado}: conexión rechazada`,
    ],
    [
      'android',
      () => 'http://noexiste.invalid:8080',
      () => 'No se encontró el host noexiste.invalid',
    ],
    [
      'android',
      () => `http://127.0.0.1:${puertoMudo}`,
      () => `No se pudo conectar con 127.0.0.1:${puertoMudo}: sin respuesta en ${PLAZO_MS} ms`,
    ],
    [
      'whatsapp',
      () => `http://127.0.0.1:${cerrado}`,
      () => `No se pudo conectar con 127.0.0.1:${cerrado}: conexión rechazada`,
    ],
    ['whatsapp', () => 'https://noexiste.invalid', () => 'No se encontró el host noexiste.invalid'],
    [
      'asterisk',
      () => `ami://127.0.0.1:${cerrado}`,
      () => `No se pudo conectar con 127.0.0.1:${cerrado}: conexión rechazada`,
    ],
    [
      'asterisk',
      () => 'ami://noexiste.invalid:5038',
      () => 'No se encontró el host noexiste.invalid',
    ],
  ])('%s: 502 en español dentro del plazo de comprobación', async (protocolo, url, motivo) => {
    const alta = await pedir(api.url, 'POST', '/equipos/', {
      token,
      body: {
        alias: `Prueba ${protocolo}`,
        protocolo,
        url: url(),
        credenciales: CREDENCIALES[protocolo],
      },
    });
    expect(alta.status).toBe(200);
    const inicio = Date.now();
    const r = await pedir(api.url, 'POST', `/equipos/${alta.body.id_equipo}/prueba/`, {
      token,
      body: { telefono: '5512345678' },
    });
    const ms = Date.now() - inicio;
    expect(r.status).toBe(502);
    expect(r.body.message).toBe(msg('pruebaFallida', { motivo: motivo() }));
    expect(r.body.message).not.toMatch(/ECONN|ENOTFOUND|getaddrinfo|EAI_/);
    expect(ms).toBeLessThan(PLAZO_MS + 1000);
  });
});

/** A loopback port nobody listens on (bound, then released). */
async function puertoCerrado(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}
