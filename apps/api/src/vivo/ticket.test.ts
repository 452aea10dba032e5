import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { msg } from '@pregon/contract/messages';
import { buildApp, crearContexto } from '../server.ts';
import type { Contexto } from '../contexto.ts';
import { ingresar, levantarApi, MOTORES, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { abrirFlujoSse, type FlujoAbierto } from '../../testing/flujo-sse.ts';

// Issue 49.4: one live-stream ticket opened 3,000 streams at once. A ticket now opens one stream,
// on whichever api process it is presented (the used ones are in the database), and a session
// holds at most VIVO_FLUJOS_POR_SESION streams at once (20 by default); the next is a 429.

for (const motor of MOTORES) {
  describe(`boletos de un solo uso y flujos por sesión (${motor})`, () => {
    let api: ApiDePrueba;
    let token: string;
    const abiertos: FlujoAbierto<unknown>[] = [];
    beforeAll(async () => {
      api = await levantarApi(motor);
      token = await ingresar(api);
    });
    afterAll(async () => {
      for (const f of abiertos) f.cerrar();
      await api?.cerrar();
    });

    const boleto = async (t = token) => {
      const r = await pedir(api.url, 'POST', '/vivo/ticket/', {
        token: t,
        body: { flujo: 'general' },
      });
      expect(r.status).toBe(200);
      return r.body.ticket as string;
    };
    /** Status and body of a stream's answer when it is refused (the stream itself when 200). */
    const intentar = async (base: string, ticket: string) => {
      try {
        const f = await abrirFlujoSse(`${base}/vivo/general/?ticket=${ticket}`);
        abiertos.push(f);
        return { status: 200, f };
      } catch (err) {
        const e = err as Error & { status: number };
        return { status: e.status, cuerpo: JSON.parse(e.message.replace(/^flujo \d+: /, '')) };
      }
    };

    it('un boleto usado 50 veces a la vez abre un solo flujo; después tampoco abre otro', async () => {
      const t = await boleto();
      const intentos = await Promise.all(Array.from({ length: 50 }, () => intentar(api.url, t)));
      const abiertosAhora = intentos.filter((i) => i.status === 200);
      expect(abiertosAhora).toHaveLength(1);
      const rechazos = intentos.filter((i) => i.status !== 200);
      expect(new Set(rechazos.map((r) => r.status))).toEqual(new Set([401]));
      expect(rechazos[0]!.cuerpo).toMatchObject({ status: 401, message: msg('ticketVivoUsado') });
      await abiertosAhora[0]!.f!.esperar(() => true, 'el primer tablero');
      abiertosAhora[0]!.f!.cerrar();
      await abiertosAhora[0]!.f!.terminado;
      expect((await intentar(api.url, t)).status).toBe(401);
      // A new ticket opens a new stream.
      expect((await intentar(api.url, await boleto())).status).toBe(200);
    });

    it('a partir de 20 flujos abiertos por la sesión, el siguiente es 429 con el motivo', async () => {
      for (const f of abiertos.splice(0)) f.cerrar();
      const sesion = await ingresar(api);
      const flujos: FlujoAbierto<unknown>[] = [];
      for (let i = 0; i < 20; i++) {
        const r = await intentar(api.url, await boleto(sesion));
        expect(r.status, `flujo ${i + 1}`).toBe(200);
        flujos.push(r.f!);
      }
      const t21 = await boleto(sesion);
      const r21 = await intentar(api.url, t21);
      expect(r21.status).toBe(429);
      expect(r21.cuerpo).toEqual({
        status: 429,
        message: msg('demasiadosFlujosVivo', { max: 20 }),
        mensaje: msg('demasiadosFlujosVivo', { max: 20 }),
      });
      expect(r21.cuerpo.message).toMatch(/^Esta sesión ya tiene 20 tableros en vivo abiertos/);
      // Another session of the same user is not counted with this one.
      expect((await intentar(api.url, await boleto(token))).status).toBe(200);
      // One closed gives its place back; the refused ticket was not spent by the 429.
      flujos[0]!.cerrar();
      await flujos[0]!.terminado;
      await expect.poll(async () => (await intentar(api.url, t21)).status).toBe(200);
      for (const f of flujos) f.cerrar();
    });
  });
}

describe('un boleto usado en un proceso no abre otro flujo en otro proceso (postgres)', () => {
  let api: ApiDePrueba;
  let otra: { app: FastifyInstance; ctx: Contexto; url: string };
  beforeAll(async () => {
    api = await levantarApi('postgres');
    // A second api on the same database and keys: what another process behind a balancer is.
    const { ctx } = await crearContexto(api.config);
    const app = await buildApp(ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const a = app.server.address();
    otra = { app, ctx, url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}` };
  });
  afterAll(async () => {
    await otra?.app.close();
    await otra?.ctx.db.close();
    await api?.cerrar();
  });

  it('el segundo uso, en la otra api, es 401', async () => {
    const token = await ingresar(api);
    const r = await pedir(api.url, 'POST', '/vivo/ticket/', { token, body: { flujo: 'general' } });
    const url = (base: string) => `${base}/vivo/general/?ticket=${r.body.ticket}`;
    const f = await abrirFlujoSse(url(otra.url));
    await f.esperar(() => true, 'el primer tablero');
    await expect(abrirFlujoSse(url(api.url))).rejects.toMatchObject({ status: 401 });
    await expect(abrirFlujoSse(url(otra.url))).rejects.toMatchObject({ status: 401 });
    f.cerrar();
  });
});
