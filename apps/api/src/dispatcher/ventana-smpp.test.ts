import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { MOTORES, levantarApi, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { arrancarDespachador } from './index.ts';
import {
  CONFIG_PRUEBA,
  esperarCompletado,
  esperarQue,
  porEstatus,
} from '@pregon/despacho/testing/comun';

// Issue 28.3: a device with far more ports than its SMPP window. The worker keeps its sends in
// flight within two windows (the rest of a claim waits as claimed rows, not as sends suspended
// inside the channel), and the window itself stays full: the SMSC always has a window's worth
// outstanding while rows remain.

const VENTANA = 10;

describe.each(MOTORES)('SMPP con más puertos que la ventana (%s)', (motor) => {
  let api: ApiDePrueba;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  // Each submit_sm answered 40 ms later: the window, not the SMSC's speed, sets the pace.
  const smsc = new SimuladorSmpp({ latenciaMs: 40, retrasoReciboMs: 10 });

  beforeAll(async () => {
    api = await levantarApi(motor);
    await smsc.iniciar();
    despachador = await arrancarDespachador(
      api.ctx.db,
      { ...CONFIG_PRUEBA, ventanaSmpp: VENTANA },
      { eventos: api.ctx.eventos, bitacora: { info: () => {}, error: (t) => console.error(t) } },
    );
  });
  afterAll(async () => {
    await despachador?.detener();
    await smsc.detener();
    await api?.cerrar();
  });

  it('en vuelo a lo más dos ventanas con 500 puertos, la ventana llena y todos entregados', async () => {
    const id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      puertos: 500,
      tasa: 1000,
    });
    const n = 300;
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n, puertos: 500 });
    let maxVuelo = 0;
    let maxSmsc = 0;
    const muestreo = setInterval(() => {
      for (const e of despachador.despachador.estado())
        if (e.id_ejercicio === id) maxVuelo = Math.max(maxVuelo, e.enVuelo);
      // Outstanding at the SMSC: read, not yet answered or dropped.
      maxSmsc = Math.max(maxSmsc, smsc.submitsLeidos.length - smsc.partesAceptadas);
    }, 5);
    try {
      api.ctx.eventos.emit('ejercicio', id);
      await esperarCompletado(api.ctx.db, id);
      await esperarQue(
        async () => (await porEstatus(api.ctx.db, id)).entregado === n,
        `todos entregados ${JSON.stringify(await porEstatus(api.ctx.db, id))}`,
      );
    } finally {
      clearInterval(muestreo);
    }
    expect(smsc.registro).toHaveLength(n);
    // Before: every claimed row (up to the 500 ports) was a send waiting for the window.
    expect(maxVuelo).toBeLessThanOrEqual(2 * VENTANA);
    expect(maxVuelo).toBeGreaterThan(VENTANA);
    expect(maxSmsc).toBe(VENTANA);
  });
});
