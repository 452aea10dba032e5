import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { MOTORES, levantarApi, type ApiDePrueba } from '../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../testing/fabrica.ts';
import { arrancarDespachador } from './index.ts';
import { CONFIG_PRUEBA, esperarCompletado, esperarQue, filas, porEstatus } from './testing.ts';

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
        expect(r.motivo).toBe('SMPP: UNDELIV (parte 3 de 5)');
    } finally {
      smsc.fallarParte = undefined;
    }
  });
});
