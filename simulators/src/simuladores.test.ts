import crypto from 'node:crypto';
import Fastify from 'fastify';
import smpp from 'smpp';
import { describe, expect, it } from 'vitest';
import { SimuladorAndroid } from './android.ts';
import { SimuladorSmpp } from './smpp.ts';
import { SimuladorWhatsapp } from './whatsapp.ts';

// The simulators speak their protocols over real sockets: SMPP binds and receipts, the Android
// gateway's idempotent ids, the WhatsApp API's auth and signed status webhooks, outage switches.

interface Pdu {
  command_status: number;
  message_id?: string;
  receipted_message_id?: string;
  esm_class?: number;
  short_message?: { message?: string } | string;
  response(): object;
}
interface Sesion {
  on(ev: string, f: (p: Pdu) => void): void;
  send(p: object): boolean;
  bind_transceiver(o: object, cb: (p: Pdu) => void): void;
  submit_sm(o: object, cb: (p: Pdu) => void): void;
  destroy(): void;
}

const conectar = (puerto: number) =>
  new Promise<Sesion>((r) => {
    const s = smpp.connect({ host: '127.0.0.1', port: puerto }) as unknown as Sesion;
    s.on('error', () => {});
    s.on('connect', () => r(s));
  });
const ligar = (s: Sesion, o: object) => new Promise<Pdu>((r) => s.bind_transceiver(o, r));
const enviar = (s: Sesion, o: object) => new Promise<Pdu>((r) => s.submit_sm(o, r));

describe('simulador SMPP', () => {
  it('rechaza credenciales malas, acepta submit_sm, manda el recibo y se cae a voluntad', async () => {
    const sim = new SimuladorSmpp({ system_id: 'u', password: 'p', retrasoReciboMs: 10 });
    const puerto = await sim.iniciar();
    const mala = await conectar(puerto);
    // RINVPASWD, as a real SMSC tells a wrong password.
    expect((await ligar(mala, { system_id: 'u', password: 'x' })).command_status).toBe(0x0e);
    mala.destroy();
    const s = await conectar(puerto);
    expect((await ligar(s, { system_id: 'u', password: 'p' })).command_status).toBe(0);
    const recibo = new Promise<Pdu>((r) =>
      s.on('deliver_sm', (p) => {
        s.send(p.response());
        r(p);
      }),
    );
    const resp = await enviar(s, {
      destination_addr: '525512345678',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      short_message: 'hola',
      registered_delivery: 1,
    });
    expect(resp.command_status).toBe(0);
    const rec = await recibo;
    expect(rec.receipted_message_id).toBe(resp.message_id);
    expect(String((rec.short_message as { message: string }).message ?? rec.short_message)).toMatch(
      /stat:DELIVRD/,
    );
    const dst = { dest_addr_ton: 1, dest_addr_npi: 1, short_message: 'x' };
    expect((await enviar(s, { ...dst, destination_addr: '12ab' })).command_status).toBe(0x0b);
    expect(sim.registro).toHaveLength(1);
    const cerrada = new Promise<void>((r) => s.on('close', () => r()));
    await sim.ajustar({ caido: true });
    await cerrada;
    await expect(
      new Promise((res, rej) => {
        const c = smpp.connect({ host: '127.0.0.1', port: puerto }) as unknown as Sesion;
        c.on('error', rej);
        c.on('connect', res);
      }),
    ).rejects.toThrow(/ECONNREFUSED/);
    await sim.ajustar({ caido: false });
    const otra = await conectar(puerto);
    expect((await ligar(otra, { system_id: 'u', password: 'p' })).command_status).toBe(0);
    otra.destroy();
    await sim.detener();
  });
});

describe('simulador de la pasarela Android', () => {
  it('autenticación básica, id idempotente (409 sin reenviar), estado Delivered, caída 503', async () => {
    const sim = new SimuladorAndroid({ usuario: 'u', password: 'p', retrasoReciboMs: 10 });
    await sim.iniciar();
    const auth = `Basic ${Buffer.from('u:p').toString('base64')}`;
    const post = (a: string, body: object) =>
      fetch(`${sim.url}/message`, {
        method: 'POST',
        headers: { authorization: a, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const m = { id: 'm1', message: 'hola', phoneNumbers: ['+525512345678'] };
    expect((await post('Basic eA==', m)).status).toBe(401);
    const r = await post(auth, m);
    expect(r.status).toBe(202);
    expect(await r.json()).toMatchObject({ id: 'm1', state: 'Pending' });
    expect((await post(auth, m)).status).toBe(409);
    expect(sim.registro).toHaveLength(1);
    expect(sim.duplicadosRechazados).toBe(1);
    await new Promise((x) => setTimeout(x, 50));
    const e = await fetch(`${sim.url}/message/m1`, { headers: { authorization: auth } });
    expect(await e.json()).toMatchObject({ state: 'Delivered' });
    // A malformed request is a 400; a bad number is taken and fails on the phone (android.test.ts).
    expect((await post(auth, { ...m, id: 'm2', message: '' })).status).toBe(400);
    await sim.ajustar({ caido: true });
    expect((await post(auth, { ...m, id: 'm3' })).status).toBe(503);
    await sim.detener();
  });
});

describe('simulador de WhatsApp Cloud API', () => {
  it('token Bearer, wamid, webhooks de estado firmados con el secreto de la app', async () => {
    const recibidos: { firma: string; cuerpo: string }[] = [];
    const receptor = Fastify();
    receptor.addContentTypeParser('application/json', { parseAs: 'string' }, (_r, b, hecho) =>
      hecho(null, b),
    );
    receptor.post('/w', async (req) => {
      recibidos.push({
        firma: String(req.headers['x-hub-signature-256']),
        cuerpo: req.body as string,
      });
      return { ok: true };
    });
    await receptor.listen({ port: 0, host: '127.0.0.1' });
    const a = receptor.server.address() as { port: number };
    const sim = new SimuladorWhatsapp({
      token: 't',
      phoneNumberId: '99',
      appSecret: 's',
      ventanaAbierta: true,
      retrasoReciboMs: 10,
      webhookUrl: `http://127.0.0.1:${a.port}/w`,
    });
    await sim.iniciar();
    const post = (token: string, to: string) =>
      fetch(`${sim.url}/v21.0/99/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          to,
          type: 'text',
          text: { body: 'hola' },
        }),
      });
    expect((await post('x', '525512345678')).status).toBe(401);
    const r = await post('t', '525512345678');
    expect(r.status).toBe(200);
    const id = ((await r.json()) as { messages: { id: string }[] }).messages[0]!.id;
    expect(id).toMatch(/^wamid\./);
    expect((await post('t', '12')).status).toBe(400);
    while (!recibidos.length) await new Promise((x) => setTimeout(x, 20));
    const { firma, cuerpo } = recibidos[0]!;
    expect(firma).toBe(`sha256=${crypto.createHmac('sha256', 's').update(cuerpo).digest('hex')}`);
    const estados = JSON.parse(cuerpo).entry[0].changes[0].value.statuses as {
      id: string;
      status: string;
    }[];
    expect(estados.map((e) => [e.id, e.status])).toEqual([
      [id, 'sent'],
      [id, 'delivered'],
    ]);
    await sim.ajustar({ caido: true });
    expect((await post('t', '525512345678')).status).toBe(503);
    await sim.detener();
    await receptor.close();
  });
});
