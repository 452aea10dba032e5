import crypto from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorWhatsapp } from './whatsapp.ts';

// The WhatsApp simulator fails like Meta's Cloud API: Graph's error object with Meta's codes and
// HTTP statuses (rate limits are HTTP 400), code 100 subcode 33 for an unknown phone number id,
// a real throughput and pair rate limit, 131026 as a failed status webhook, and deliveries that
// mix several entries and changes.

interface Entrega {
  firma: string;
  cuerpo: string;
}

describe('simulador de WhatsApp: errores y webhooks como los de Meta', () => {
  const entregas: Entrega[] = [];
  const receptor = Fastify();
  receptor.addContentTypeParser('application/json', { parseAs: 'string' }, (_r, b, hecho) =>
    hecho(null, b),
  );
  receptor.post('/w', async (req) => {
    entregas.push({
      firma: String(req.headers['x-hub-signature-256']),
      cuerpo: req.body as string,
    });
    return { ok: true };
  });
  const sim = new SimuladorWhatsapp({
    token: 't',
    phoneNumberId: '99',
    appSecret: 's',
    ventanaAbierta: true,
    retrasoReciboMs: 5,
  });
  const enviar = (to: string, telefonoId = '99') =>
    fetch(`${sim.url}/v26.0/${telefonoId}/messages`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        to,
        type: 'text',
        text: { body: 'x' },
      }),
    });
  const esperarEntregas = async (n: number) => {
    for (let i = 0; entregas.length < n && i < 200; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(entregas.length).toBeGreaterThanOrEqual(n);
  };

  beforeAll(async () => {
    await receptor.listen({ port: 0, host: '127.0.0.1' });
    await sim.iniciar();
    sim.webhookUrl = `http://127.0.0.1:${(receptor.server.address() as { port: number }).port}/w`;
  });
  afterAll(async () => {
    await sim.detener();
    await receptor.close();
  });

  it.each([
    [130429, 400, 'Rate limit hit'],
    [131056, 400, '(Business Account, Consumer Account) pair rate limit hit'],
    [80007, 400, 'Rate limit issues'],
    [4, 429, 'API Too Many Calls'],
    [100, 400, 'Invalid parameter'],
    [131009, 400, 'Parameter value is not valid'],
    [190, 401, 'Access token has expired'],
  ])('error %i: HTTP %i con el objeto de error de Graph', async (codigo, http, titulo) => {
    sim.erroresForzados.push(codigo);
    const r = await enviar('525512345678');
    expect(r.status).toBe(http);
    const { error } = (await r.json()) as {
      error: {
        message: string;
        type: string;
        code: number;
        error_data: { messaging_product: string; details: string };
        fbtrace_id: string;
      };
    };
    expect(error).toMatchObject({
      message: `(#${codigo}) ${titulo}`,
      type: 'OAuthException',
      code: codigo,
      error_data: { messaging_product: 'whatsapp' },
    });
    expect(error.error_data.details.length).toBeGreaterThan(0);
    expect(error.fbtrace_id).toBeTruthy();
  });

  it('errorFijo responde ese código a cada envío hasta que se quita', async () => {
    sim.errorFijo = 131009;
    expect((await enviar('525512345670')).status).toBe(400);
    expect((await enviar('525512345671')).status).toBe(400);
    sim.errorFijo = undefined;
    expect((await enviar('525512345672')).status).toBe(200);
  });

  it('un phone number id desconocido: código 100, subcódigo 33 (GraphMethodException)', async () => {
    const r = await enviar('525512345678', '12345');
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: object }).error).toMatchObject({
      type: 'GraphMethodException',
      code: 100,
      error_subcode: 33,
    });
  });

  it('límite de ritmo (130429 por encima de maxPorSegundo) y de par (131056 al mismo número)', async () => {
    const limitados = sim.limitados;
    sim.o.maxPorSegundo = 5;
    sim.o.pausaParMs = 60_000;
    try {
      // Start at the beginning of a second so the burst falls in one.
      await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
      const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => enviar(`52551000000${i}`)));
      const codigos = await Promise.all(
        rs.map(async (r) =>
          r.ok ? 0 : ((await r.json()) as { error: { code: number } }).error.code,
        ),
      );
      expect(codigos.filter((c) => c === 0)).toHaveLength(5);
      expect(codigos.filter((c) => c === 130429)).toHaveLength(3);
      expect(rs.filter((r) => r.status === 400)).toHaveLength(3);
      await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
      const aceptado = codigos.indexOf(0);
      const par = await enviar(`52551000000${aceptado}`);
      expect(par.status).toBe(400);
      expect(((await par.json()) as { error: { code: number } }).error.code).toBe(131056);
      expect(sim.limitados - limitados).toBe(4);
    } finally {
      sim.o.maxPorSegundo = undefined;
      sim.o.pausaParMs = undefined;
    }
  });

  it('un número sin WhatsApp se acepta y luego llega un estado failed con 131026', async () => {
    sim.sinWhatsapp.add('525599999999');
    entregas.splice(0);
    const r = await enviar('525599999999');
    expect(r.status).toBe(200);
    const id = ((await r.json()) as { messages: { id: string }[] }).messages[0]!.id;
    await esperarEntregas(1);
    const { firma, cuerpo } = entregas[0]!;
    expect(firma).toBe(`sha256=${crypto.createHmac('sha256', 's').update(cuerpo).digest('hex')}`);
    const estados = JSON.parse(cuerpo).entry[0].changes[0].value.statuses;
    expect(estados).toEqual([
      expect.objectContaining({
        id,
        status: 'failed',
        errors: [
          expect.objectContaining({
            code: 131026,
            title: 'Message undeliverable',
            error_data: { details: expect.any(String) },
          }),
        ],
      }),
    ]);
  });

  it('entregas mixtas: varias entradas y cambios, con mensajes de usuarios, plantillas, cuenta y otro número', async () => {
    sim.o.webhooksMixtos = true;
    sim.o.otroTelefonoId = '77';
    entregas.splice(0);
    try {
      const ids: string[] = [];
      for (const to of ['525511111111', '525522222222']) {
        const r = await enviar(to);
        ids.push(((await r.json()) as { messages: { id: string }[] }).messages[0]!.id);
      }
      type Cuerpo = {
        entry: {
          changes: {
            field: string;
            value: {
              metadata?: { phone_number_id: string };
              statuses?: { id: string; status: string }[];
              messages?: unknown[];
              errors?: unknown[];
            };
          }[];
        }[];
      };
      const entregados = () =>
        entregas
          .flatMap((e) => (JSON.parse(e.cuerpo) as Cuerpo).entry)
          .flatMap((e) => e.changes)
          .filter((c) => c.value.metadata?.phone_number_id === '99')
          .flatMap((c) => c.value.statuses ?? [])
          .filter((x) => x.status === 'delivered')
          .map((x) => x.id);
      for (let i = 0; entregados().length < 2 && i < 200; i++)
        await new Promise((r) => setTimeout(r, 10));
      expect(entregados().sort()).toEqual([...ids].sort());
      const cuerpo = JSON.parse(entregas[0]!.cuerpo) as Cuerpo;
      expect(cuerpo.entry.length).toBe(2);
      const cambios = cuerpo.entry.flatMap((e) => e.changes);
      expect(new Set(cambios.map((c) => c.field))).toEqual(
        new Set(['messages', 'message_template_status_update', 'account_update']),
      );
      expect(cambios.some((c) => c.value.messages?.length)).toBe(true);
      expect(cambios.some((c) => c.value.errors?.length)).toBe(true);
      const ajenos = cambios.filter((c) => c.value.metadata?.phone_number_id === '77');
      expect(ajenos).toHaveLength(1);
      expect(ajenos[0]!.value.statuses![0]!.status).toBe('failed');
    } finally {
      sim.o.webhooksMixtos = false;
    }
  });
});
