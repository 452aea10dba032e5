import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { arrancarDespachador, storePara } from './index.ts';
import {
  CONFIG_PRUEBA,
  desenlaceEnviado,
  esperarQue,
  porEstatus,
} from '@pregon/despacho/testing/comun';

// A stop («Detener», POST /quiz/stop/) cancels the rows pending when it runs; rows in flight then
// get their outcome afterwards. An outcome that schedules a retry is written 'pendiente' by a
// worker that has not seen the stop yet (an SMS channel never looks: only calls are hung up), and
// nothing claims a stopped drill's rows: the row read 'pendiente' for ever in a drill that ended.
// The dispatcher's recovery turns such rows 'cancelado', as the stop did the rest.
describe.each(MOTORES)('filas que vuelven a la cola de un ejercicio detenido (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
  });
  afterAll(async () => api?.cerrar());

  it('un reintento escrito después de «Detener» queda cancelado, no pendiente', async () => {
    const db = api.ctx.db;
    const id_equipo = await crearEquipo(db, { protocolo: 'smpp', puertos: 3 });
    const id = await crearEjercicio(db, { id_equipo, n: 4, puertos: 3 });
    // A worker has three rows in flight (the fourth waits) when the operator stops the drill.
    const store = storePara(db);
    const ej = { id_ejercicio: id, puertos: 3 } as Parameters<typeof store.reclamar>[0];
    const ahora = Date.now();
    const [a, b, c] = await store.reclamar(ej, 3, ahora, ahora + 60_000);
    const r = await pedir(api.url, 'POST', '/quiz/stop/', { token, body: { id_ejercicio: id } });
    expect(r.status).toBe(200);
    expect(await porEstatus(db, id)).toEqual({ en_curso: 3, cancelado: 1 });

    // Their outcomes come in after the stop: one throttled (a retry in a minute), one sent, one
    // released unsent.
    await store.escribir(
      [
        {
          ...desenlaceEnviado(a!.id_detalle, ''),
          estatus: 'pendiente',
          id_gateway: null,
          motivo: 'ESME_RTHROTTLED',
          fecha_envio: null,
          hora_envio: null,
          siguiente_intento: Date.now() + 60_000,
        },
        desenlaceEnviado(b!.id_detalle, 'g-b'),
      ],
      Date.now(),
    );
    await store.liberar([c!.id_detalle], Date.now());

    // A dispatcher's recovery finds the retry in the stopped drill's queue and cancels it.
    const despachador = await arrancarDespachador(db, CONFIG_PRUEBA, {
      bitacora: { info: () => {}, error: (t) => console.error(t) },
    });
    try {
      await esperarQue(
        async () => (await porEstatus(db, id)).pendiente === undefined,
        'sin filas pendientes',
        10_000,
        () => porEstatus(db, id),
      );
    } finally {
      await despachador.detener();
    }
    expect(await porEstatus(db, id)).toEqual({ cancelado: 3, enviado: 1 });
    const fila = await db.kysely
      .selectFrom('ejercicio_detalle')
      .select(['estatus', 'motivo'])
      .where('id_detalle', '=', a!.id_detalle)
      .executeTakeFirstOrThrow();
    expect(fila).toEqual({ estatus: 'cancelado', motivo: 'ESME_RTHROTTLED' });
  });
});
