import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingresar, levantarApi, MOTORES, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { abrirFlujoSse } from '../../testing/flujo-sse.ts';

// Downloads (.xlsx, CSV) and live streams closed by the client, by sign-out and by the server
// write their answer outside Fastify's own send: none may log 'Reply was already sent' (or any
// other warning or error). The api's pino log is captured line by line.

/** Waits until `f` holds, checking every 20 ms (up to `ms`). */
async function hasta(f: () => boolean, que: string, ms = 10_000) {
  const fin = Date.now() + ms;
  while (!f()) {
    if (Date.now() > fin) throw new Error(`No ocurrió a tiempo: ${que}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

for (const motor of MOTORES) {
  describe(`descargas y flujos sin 'Reply was already sent' (${motor})`, () => {
    let api: ApiDePrueba;
    let token: string;
    const lineas: { level: number; msg?: string; [k: string]: unknown }[] = [];
    beforeAll(async () => {
      const log = new PassThrough();
      let resto = '';
      log.on('data', (p: Buffer) => {
        resto += p.toString();
        let corte: number;
        while ((corte = resto.indexOf('\n')) >= 0) {
          lineas.push(JSON.parse(resto.slice(0, corte)));
          resto = resto.slice(corte + 1);
        }
      });
      api = await levantarApi(motor, { LOG_LEVEL: 'info' }, { logStream: log });
      token = await ingresar(api);
    });
    afterAll(async () => api?.cerrar());

    /** Log lines at warn (40) or above. */
    const avisos = () => lineas.filter((l) => l.level >= 40);

    it('descargas .xlsx y CSV, flujos cerrados por el cliente, por la salida y por el servidor', async () => {
      const id_equipo = await crearEquipo(api.ctx.db, { protocolo: 'smpp' });
      const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 20, iniciar: false });

      const xlsx = await fetch(`${api.url}/reportes/xlsx/${id}/`, {
        headers: { authorization: token },
      });
      expect(xlsx.status).toBe(200);
      expect(
        Buffer.from(await xlsx.arrayBuffer())
          .subarray(0, 2)
          .toString(),
      ).toBe('PK');
      const telefonos = await pedir(api.url, 'GET', '/telefonos/csv/', { token });
      expect(telefonos.status).toBe(200);
      for (const tipo of ['reporte2', 'resumen', 'ejercicios']) {
        const csv = await pedir(api.url, 'POST', '/csv/', {
          token,
          body: { tipo, id_ejercicio: id },
        });
        expect(csv.status, tipo).toBe(200);
      }

      const ticket = async (t: string, body: object) =>
        (await pedir(api.url, 'POST', '/vivo/ticket/', { token: t, body })).body.ticket as string;
      // Closed by the client.
      const f1 = await abrirFlujoSse(
        `${api.url}/vivo/ejercicio/${id}/?ticket=${await ticket(token, { flujo: 'ejercicio', id_ejercicio: id })}`,
      );
      const f2 = await abrirFlujoSse(
        `${api.url}/vivo/general/?ticket=${await ticket(token, { flujo: 'general' })}`,
      );
      await f1.esperar(() => true, 'un tablero del ejercicio');
      await f2.esperar(() => true, 'el tablero general');
      f1.cerrar();
      f2.cerrar();
      // Closed by the server when the session ends.
      const otra = await ingresar(api);
      const f3 = await abrirFlujoSse(
        `${api.url}/vivo/general/?ticket=${await ticket(otra, { flujo: 'general' })}`,
      );
      await f3.esperar(() => true, 'el tablero general');
      expect((await pedir(api.url, 'POST', '/auth/signout/', { token: otra })).status).toBe(200);
      await f3.terminado;
      // Let the request logs of the closed streams be written.
      await hasta(
        () =>
          lineas.filter((l) => l.msg === 'request completed' || l.msg === 'request aborted')
            .length >= 3,
        'el registro de los flujos cerrados',
      ).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
      expect(lineas.length).toBeGreaterThan(0);
      expect(avisos()).toEqual([]);
    });
  });
}
