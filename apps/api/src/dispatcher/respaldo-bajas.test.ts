import { describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { MOTORES } from '../../testing/entorno.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import { esperarCompletado, filas } from '@pregon/despacho/testing/comun';
import { entornoDeRespaldo, type CanalDeRespaldo } from '../../testing/despacho-respaldo.ts';

// Issue 46.4 with 25.2: the fallback SMS a call drill sends mid-drill to those its calls did not
// reach skips a phone on the SMS opt-out list as a drill's start does ('Dado de baja', never an
// attempt): its fallback row goes in held back, and the SMSC never sees it. A real alert
// (ignora_bajas) sends it anyway. AMI and SMPP simulators, both engines.

const TEXTO = 'Simulacro: no pudimos llamarle';

describe.each(MOTORES)('respaldo y bajas (%s)', { timeout: 90_000 }, (motor) => {
  let smsc: SimuladorSmpp;
  const sms: CanalDeRespaldo = {
    canal: 'sms',
    etiqueta: 'SMS',
    tipo: 1,
    accion: TEXTO,
    texto: TEXTO,
    iniciar: async () => {
      smsc = new SimuladorSmpp({ retrasoReciboMs: 20 });
      await smsc.iniciar();
    },
    detener: async () => smsc?.detener(),
    equipo: (api, tasa) =>
      crearEquipo(api.ctx.db, { protocolo: 'smpp', url: smsc.url, tasa, puertos: 1 }),
    mensajesA: (t) => smsc.submitsLeidos.filter((s) => s.destino.endsWith(t)).length,
    registro: () => smsc.registro,
  };
  const p = entornoDeRespaldo(motor, sms, { prefijo: 'pregon-respaldo-bajas-' });

  const darDeBaja = (telefono: string) =>
    p.api.ctx.db.kysely
      .insertInto('bajas')
      .values({ canal: 'sms', telefono, origen: 'operador', fecha: Date.now() } as never)
      .execute();

  it("an unreached phone on the SMS opt-out list gets no fallback: 'Dado de baja'", async () => {
    // Busy (last digit 2): both unreached; the first opted out of SMS; the third answers.
    const telefonos = ['5910000012', '5910000022', '5910000031'];
    await darDeBaja(telefonos[0]!);
    const { id, companero } = await p.drill(telefonos, 50);
    await p.arrancar();
    await p.iniciar(id);
    await esperarCompletado(p.api.ctx.db, id, 60_000);
    await p.entregadosYa(companero, 1);
    const respaldos = await filas(p.api.ctx.db, companero);
    expect(
      Object.fromEntries(respaldos.map((r) => [r.telefono, [r.estatus, r.motivo, r.intentos]])),
    ).toEqual({
      '5910000012': ['cancelado', msg('motivoDadoDeBaja'), 0],
      '5910000022': ['entregado', null, 1],
    });
    expect(p.mensajesPor(telefonos)).toEqual(
      new Map([
        ['5910000012', 0],
        ['5910000022', 1],
        ['5910000031', 0],
      ]),
    );
  });

  it('a real alert (ignora_bajas) sends the fallback to an opted-out phone too', async () => {
    const telefonos = ['5920000012'];
    await darDeBaja(telefonos[0]!);
    const { id, companero } = await p.drill(telefonos, 50);
    await p.api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ ignora_bajas: 1, ignora_bajas_motivo: 'prueba' })
      .where('id_ejercicio', '=', id)
      .execute();
    await p.arrancar();
    await p.iniciar(id);
    await esperarCompletado(p.api.ctx.db, id, 60_000);
    await p.entregadosYa(companero, 1);
    const [r] = await filas(p.api.ctx.db, companero);
    expect([r?.estatus, r?.motivo]).toEqual(['entregado', null]);
    expect(p.mensajesPor(telefonos).get(telefonos[0]!)).toBe(1);
  });
});
