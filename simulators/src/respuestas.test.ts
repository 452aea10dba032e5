import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorAndroid } from './android.ts';
import { SimuladorWhatsapp } from './whatsapp.ts';

// Issue 46.1: the Android and WhatsApp simulators post people's replies as their gateways do,
// checked here by a receiver that verifies them from the gateways' documentation, not from the
// simulators' code: the Android app's X-Timestamp/X-Signature (HMAC-SHA256 hex of the raw body
// followed by the timestamp, with the signing key set by PATCH /settings) and its retries; Meta's
// X-Hub-Signature-256 over a 'messages' change.

/** A receiver that records each POST's raw body and headers and answers the next status queued
 * (200 when none). */
async function receptor() {
  const recibidos: { cuerpo: string; cabeceras: Record<string, string | string[] | undefined> }[] =
    [];
  const respuestas: number[] = [];
  const app: FastifyInstance = Fastify({ logger: false });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_r, b, hecho) => hecho(null, b));
  app.post('/*', async (req, reply) => {
    recibidos.push({ cuerpo: String(req.body), cabeceras: req.headers });
    return reply.code(respuestas.shift() ?? 200).send({ ok: true });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const a = app.server.address();
  const puerto = typeof a === 'object' && a ? a.port : 0;
  return { url: `http://127.0.0.1:${puerto}`, recibidos, respuestas, cerrar: () => app.close() };
}

describe('simulador Android: respuestas por webhook', () => {
  const tel = new SimuladorAndroid({ usuario: 'u', password: 'p', reintentoMs: 20 });
  let r: Awaited<ReturnType<typeof receptor>>;
  const auth = { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` };
  beforeAll(async () => {
    await tel.iniciar();
    r = await receptor();
  });
  afterAll(async () => {
    await tel.detener();
    await r.cerrar();
  });

  it('registra el webhook con basic auth, fija la clave de firma y entrega sms:received firmado, reintentando', async () => {
    const sinAuth = await fetch(`${tel.url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${r.url}/hook`, event: 'sms:received' }),
    });
    expect(sinAuth.status).toBe(401);
    const malo = await fetch(`${tel.url}/webhooks`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${r.url}/hook`, event: 'sms:inventado' }),
    });
    expect(malo.status).toBe(400);
    const alta = await fetch(`${tel.url}/webhooks`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'w1', url: `${r.url}/hook`, event: 'sms:received' }),
    });
    expect(alta.status).toBe(201);
    const ajustes = await fetch(`${tel.url}/settings`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ webhooks: { signing_key: 'clave-de-prueba' } }),
    });
    expect(ajustes.status).toBe(200);
    // Write-only: the settings read back never carry the key.
    expect(JSON.stringify(await ajustes.json())).not.toContain('clave-de-prueba');

    r.respuestas.push(500); // the first attempt is refused: the phone retries
    const estados = await tel.recibirSms({ de: '+525512345678', texto: 'Estoy bien ñ 👍' });
    expect(estados).toEqual([200]);
    expect(r.recibidos).toHaveLength(2);
    for (const { cuerpo, cabeceras } of r.recibidos) {
      const marca = String(cabeceras['x-timestamp']);
      expect(Math.abs(Number(marca) - Date.now() / 1000)).toBeLessThan(60);
      const firma = crypto
        .createHmac('sha256', 'clave-de-prueba')
        .update(cuerpo + marca)
        .digest('hex');
      expect(cabeceras['x-signature']).toBe(firma);
    }
    const c = JSON.parse(r.recibidos[1]!.cuerpo);
    expect(c).toMatchObject({
      event: 'sms:received',
      webhookId: 'w1',
      payload: { message: 'Estoy bien ñ 👍', phoneNumber: '+525512345678', simNumber: 1 },
    });
    // The phone's local time with its offset (Mexico City by default).
    expect(c.payload.receivedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-06:00$/);
    expect(Math.abs(Date.parse(c.payload.receivedAt) - Date.now())).toBeLessThan(60_000);
    // messageId is a hash of the content: the same text from the same number shares it.
    r.recibidos.length = 0;
    await tel.recibirSms({ de: '+525512345678', texto: 'Estoy bien ñ 👍' });
    expect(JSON.parse(r.recibidos[0]!.cuerpo).payload.messageId).toBe(c.payload.messageId);
  });
});

describe('simulador WhatsApp: mensajes de los usuarios', () => {
  const meta = new SimuladorWhatsapp({
    appSecret: 'secreto',
    phoneNumberId: '123',
    token: 't',
    ventanaAbierta: false,
    reintentoMs: 20,
  });
  let r: Awaited<ReturnType<typeof receptor>>;
  beforeAll(async () => {
    await meta.iniciar();
    r = await receptor();
    meta.webhookUrl = `${r.url}/wa`;
  });
  afterAll(async () => {
    await meta.detener();
    await r.cerrar();
  });

  it('entrega el mensaje firmado, lo repite hasta un 200 y abre la ventana de 24 horas', async () => {
    const enviarTexto = () =>
      fetch(`${meta.url}/v21.0/123/messages`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          to: '525512345678',
          type: 'text',
          text: { body: 'hola' },
        }),
      });
    // Outside the window, free text is refused (131047).
    const antes = await enviarTexto();
    expect(antes.status).toBe(400);
    r.respuestas.push(503);
    const { status, id } = await meta.recibirMensaje({
      de: '525512345678',
      texto: 'Necesito ayuda',
      tipo: 'button',
      payload: 'AYUDA',
    });
    expect(status).toBe(200);
    expect(r.recibidos).toHaveLength(2);
    const { cuerpo, cabeceras } = r.recibidos[1]!;
    expect(cabeceras['x-hub-signature-256']).toBe(
      `sha256=${crypto.createHmac('sha256', 'secreto').update(cuerpo).digest('hex')}`,
    );
    const v = JSON.parse(cuerpo).entry[0].changes[0];
    expect(v.field).toBe('messages');
    expect(v.value.metadata.phone_number_id).toBe('123');
    expect(v.value.messages[0]).toMatchObject({
      from: '525512345678',
      id,
      type: 'button',
      button: { text: 'Necesito ayuda', payload: 'AYUDA' },
    });
    // Inside the window now.
    expect((await enviarTexto()).status).toBe(200);
  });
});
