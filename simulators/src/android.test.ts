import { afterEach, describe, expect, it } from 'vitest';
import { SimuladorAndroid } from './android.ts';

// The Android gateway simulator behaves like the phone (capcom6/android-sms-gateway's local
// server): one message at a time, states over time, late failures, cancel, 400 and 409.

const dormir = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('simulador de la pasarela Android como un teléfono', () => {
  let sim: SimuladorAndroid | undefined;
  afterEach(async () => {
    await sim?.detener();
    sim = undefined;
  });
  const pedir = (metodo: string, ruta: string, body?: object) =>
    fetch(`${sim!.url}${ruta}`, {
      method: metodo,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  const estado = async (id: string) => (await (await pedir('GET', `/message/${id}`)).json()) as any;
  /** Reads the message every 10 ms until its state is `e` (within 3 s). */
  const llega = async (id: string, e: string) => {
    const fin = Date.now() + 3000;
    for (;;) {
      const m = await estado(id);
      if (m.state === e || Date.now() > fin) return m;
      await dormir(10);
    }
  };

  it('una cola a un ritmo: Pending → Processed → Sent → Delivered, Failed tarde, TTL', async () => {
    // Wide enough that the checks of 'a' Processed and 'b' Pending land before each moves on,
    // under CI's load too (at 150 ms the three requests after 'a' once took longer: 'a' was Sent).
    sim = new SimuladorAndroid({
      ritmoMs: 1200,
      envioMs: 800,
      retrasoReciboMs: 200,
      fallanEntrega: (n) => n.endsWith('99'),
    });
    await sim.iniciar();
    const r = await pedir('POST', '/message', {
      id: 'a',
      textMessage: { text: 'hola' },
      phoneNumbers: ['+525500000001'],
      ttl: 60,
      simNumber: 1,
    });
    expect(r.status).toBe(202);
    expect(await r.json()).toMatchObject({ id: 'a', state: 'Pending' });
    for (const id of ['b', 'c'])
      await pedir('POST', '/message', {
        id,
        textMessage: { text: 'hola' },
        phoneNumbers: [id === 'b' ? '+525500000099' : 'no-es-numero'],
      });
    // 'a' is taken at once; 'b' and 'c' wait their turn.
    expect((await estado('a')).state).toBe('Processed');
    expect((await estado('b')).state).toBe('Pending');
    const lista = await pedir('GET', '/message?state=Pending&limit=1');
    expect(lista.headers.get('x-total-count')).toBe('2');
    expect((await llega('a', 'Sent')).state).toBe('Sent');
    expect((await llega('a', 'Delivered')).state).toBe('Delivered');
    expect((await llega('c', 'Failed')).recipients[0]).toMatchObject({
      state: 'Failed',
      error: 'sendSMS: Invalid phone number',
    });
    // 'b' went out (Sent) and its delivery failed later at the SMSC.
    const b = await llega('b', 'Failed');
    expect(b.state).toBe('Failed');
    expect(b.recipients[0].error).toMatch(/^Delivery result from SC/);
    expect(sim.registro.map((m) => m.id)).toEqual(['a', 'b']);
    expect(sim.mensaje('a')).toMatchObject({ simNumber: 1 });
    expect(sim.mensaje('a')!.validUntil).toBeGreaterThan(Date.now());
  });

  it('cancela lo que sigue en cola (DELETE), 400 cuando ya salió, 404 si no existe', async () => {
    sim = new SimuladorAndroid({ ritmoMs: 1000 });
    await sim.iniciar();
    for (const id of ['x1', 'x2', 'x3'])
      await pedir('POST', '/message', {
        id,
        textMessage: { text: 't' },
        phoneNumbers: ['+525500000001'],
      });
    expect(sim.pendientes).toBe(2);
    const d = await pedir('DELETE', '/message/x2');
    expect(d.status).toBe(200);
    expect(await d.json()).toMatchObject({ id: 'x2', state: 'Cancelled' });
    const ya = await pedir('DELETE', '/message/x1');
    expect(ya.status).toBe(400);
    expect(((await ya.json()) as any).message).toBe('Message x1 is not in Pending state');
    expect((await pedir('DELETE', '/message/nada')).status).toBe(404);
    await expect
      .poll(() => sim!.registro.map((m) => m.id), { timeout: 3000 })
      .toEqual(['x1', 'x3']);
    expect(sim.cancelados).toBe(1);
    expect(sim.pendientes).toBe(0);
  });

  it('400 con el mensaje de la pasarela para solicitudes mal formadas; 409 para un id repetido', async () => {
    sim = new SimuladorAndroid();
    await sim.iniciar();
    const casos: [object, string][] = [
      [{ phoneNumbers: ['+525500000001'] }, 'Must specify exactly one of'],
      [{ textMessage: { text: '' }, phoneNumbers: ['+525500000001'] }, 'Text message is empty'],
      [{ textMessage: { text: 'a' }, phoneNumbers: [] }, 'Empty phone numbers list'],
      [
        { textMessage: { text: 'a' }, message: 'b', phoneNumbers: ['+52'] },
        'multiple message types',
      ],
      [{ textMessage: { text: 'a' }, phoneNumbers: ['+525500000001'], simNumber: 0 }, 'SIM number'],
      [
        {
          textMessage: { text: 'a' },
          phoneNumbers: ['+525500000001'],
          ttl: 5,
          validUntil: '2030-01-01T00:00:00Z',
        },
        'fields conflict',
      ],
    ];
    for (const [cuerpo, texto] of casos) {
      const r = await pedir('POST', '/message', cuerpo);
      expect(r.status).toBe(400);
      expect(((await r.json()) as any).message).toContain(texto);
    }
    const ok = { id: 'dup', textMessage: { text: 'a' }, phoneNumbers: ['+525500000001'] };
    expect((await pedir('POST', '/message', ok)).status).toBe(202);
    const dup = await pedir('POST', '/message', ok);
    expect(dup.status).toBe(409);
    expect(((await dup.json()) as any).message).toBe('Message with the same ID already exists');
    expect(sim.registro).toHaveLength(1);
  });
});
