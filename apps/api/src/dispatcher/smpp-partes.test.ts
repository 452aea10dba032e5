import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { MOTORES, levantarApi, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { arrancarDespachador } from './index.ts';
import {
  CONFIG_PRUEBA,
  esperarCompletado,
  esperarQue,
  filas,
  porEstatus,
} from '@pregon/despacho/testing/comun';

// A long Spanish text run as an exercise: every recipient's parts reach the SMSC simulator, which
// shows the text as typed; the row is 'entregado' once all its parts' receipts are in, and a part
// the network could not deliver fails its recipient with the reason.

const TEXTO =
  'Simulacro de evacuación: diríjase a la zona de menor riesgo más cercana, ¡sin correr! ' +
  '¿Dudas? Llame al 911. Recuerde: no use elevadores, €0 de costo. 🚨 '.repeat(3);

describe.each(MOTORES)('SMPP: textos largos en un ejercicio (%s)', (motor) => {
  let api: ApiDePrueba;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 30 });
  let id_equipo = 0;

  beforeAll(async () => {
    api = await levantarApi(motor);
    await smsc.iniciar();
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
      bitacora: { info: () => {}, error: (t) => console.error(t) },
    });
    id_equipo = await crearEquipo(api.ctx.db, { protocolo: 'smpp', url: smsc.url });
  });
  afterAll(async () => {
    await despachador?.detener();
    await smsc.detener();
    await api?.cerrar();
  });

  it('50 destinatarios × 5 partes UCS-2: el texto llega íntegro y cada fila se entrega con sus 5 acuses', async () => {
    const antes = smsc.registro.length;
    const partes0 = smsc.partesAceptadas;
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 50, accion: TEXTO });
    api.ctx.eventos.emit('ejercicio', id);
    await esperarCompletado(api.ctx.db, id);
    await esperarQue(
      async () => (await porEstatus(api.ctx.db, id)).entregado === 50,
      'los 50 entregados',
    );
    const nuevos = smsc.registro.slice(antes);
    expect(nuevos).toHaveLength(50);
    expect(nuevos.every((m) => m.texto === TEXTO && m.partes === 5)).toBe(true);
    expect(smsc.partesAceptadas - partes0).toBe(250);
    const rs = await filas(api.ctx.db, id);
    const porId = new Map(nuevos.map((m) => [m.id, m.telefono]));
    for (const r of rs) {
      expect(r.id_gateway).toMatch(/\+4$/);
      expect(porId.get(r.id_gateway!)?.endsWith(r.telefono)).toBe(true);
      expect(r.recibida).toBe(1);
    }
  });

  it('la vigencia del ejercicio viaja en validity_period de cada parte (relativa, SMPP 3.4)', async () => {
    const desde = smsc.vigencias.length;
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo,
      n: 2,
      base: 800,
      accion: TEXTO,
      vigencia: 90,
    });
    api.ctx.eventos.emit('ejercicio', id);
    await esperarCompletado(api.ctx.db, id);
    // 90 minutes: 0 years, 0 months, 0 days, 1 hour, 30 minutes, 0 seconds, relative.
    expect(smsc.vigencias.slice(desde)).toEqual(Array(10).fill('000000013000000R'));
  });

  it('una parte intermedia no entregada: el destinatario queda fallido con el motivo', async () => {
    smsc.fallarParte = { parte: 3, como: 'recibo' };
    try {
      const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 3, base: 900, accion: TEXTO });
      api.ctx.eventos.emit('ejercicio', id);
      await esperarCompletado(api.ctx.db, id);
      await esperarQue(
        async () => (await porEstatus(api.ctx.db, id)).fallido === 3,
        'los 3 fallidos por el acuse',
      );
      for (const r of await filas(api.ctx.db, id))
        expect(r.motivo).toBe('SMPP: no entregable (UNDELIV, err:000) (parte 3 de 5)');
    } finally {
      smsc.fallarParte = undefined;
    }
  });

  it('los acuses de las partes que llegan después de reiniciar el despachador entregan la fila', async () => {
    // Receipts come 1.5 s after each part: the dispatcher stops before, the SMSC holds them
    // while no session is bound, and hands them to the next dispatcher when it binds at start.
    await smsc.ajustar({ retrasoReciboMs: 1_500 });
    try {
      const partes0 = smsc.partesAceptadas;
      const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 4, base: 950, accion: TEXTO });
      api.ctx.eventos.emit('ejercicio', id);
      await esperarQue(async () => smsc.partesAceptadas - partes0 === 20, 'las 20 partes', 5_000);
      await despachador.detener();
      expect((await porEstatus(api.ctx.db, id)).enviado).toBe(4);
      await new Promise((ok) => setTimeout(ok, 1_700));
      despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
        eventos: api.ctx.eventos,
        bitacora: { info: () => {}, error: (t) => console.error(t) },
      });
      await esperarQue(
        async () => (await porEstatus(api.ctx.db, id)).entregado === 4,
        'los 4 entregados tras el reinicio',
      );
      for (const r of await filas(api.ctx.db, id)) expect(r.recibida).toBe(1);
    } finally {
      await smsc.ajustar({ retrasoReciboMs: 30 });
    }
  });
});
