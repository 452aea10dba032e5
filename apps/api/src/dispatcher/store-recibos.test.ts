import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@pregon/db/database';
import { MOTORES, abrirBaseSembrada } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { storePara } from './index.ts';
import { mismoTelefono } from '@pregon/despacho/store-recibos';
import { filas } from '@pregon/despacho/testing/comun';

// Issue 48.6: receipts kept until their row shows up (recibos_en_espera, migration 0070), and the
// rows whose gateway id died with a dispatcher found by the receipt's recipient: only when one
// row fits; two rows of that phone on the device take neither.

describe('mismoTelefono', () => {
  it('el mismo número en forma nacional e internacional; nunca por menos de 8 dígitos', () => {
    expect(mismoTelefono('5500000002', '525500000002')).toBe(true);
    expect(mismoTelefono('+52 55 0000 0002', '5500000002')).toBe(true);
    expect(mismoTelefono('+50277770001', '50277770001')).toBe(true);
    expect(mismoTelefono('5500000002', '525500000003')).toBe(false);
    expect(mismoTelefono('1234567', '91234567')).toBe(false);
    expect(mismoTelefono('', '5500000002')).toBe(false);
  });
});

describe.each(MOTORES)('acuses en espera (%s)', (motor) => {
  let db: Db;
  let limpiar: () => Promise<void>;
  beforeAll(async () => ({ db, limpiar } = await abrirBaseSembrada(motor)));
  afterAll(async () => limpiar?.());

  const marcar = (id_detalle: number, cambios: Record<string, unknown>) =>
    db.kysely
      .updateTable('ejercicio_detalle')
      .set(cambios)
      .where('id_detalle', '=', id_detalle)
      .execute();

  it('se guardan, se aplican por id una vez escrito y, sin id, solo a la única fila de su destinatario', async () => {
    const store = storePara(db);
    const id_equipo = await crearEquipo(db, { protocolo: 'smpp', url: 'smpp://127.0.0.1:9' });
    const a = await crearEjercicio(db, { id_equipo, n: 4 });
    const b = await crearEjercicio(db, { id_equipo, n: 1 });
    const [a1, a2, a3, a4] = await filas(db, a);
    const [b1] = await filas(db, b);
    const incierto = { estatus: 'incierto', salio: 1, intentos: 1, motivo: 'incierto' };
    // 5500000001 is uncertain in both exercises of the device; 5500000002 and …04 in one only.
    for (const f of [a1!, b1!, a2!, a4!]) await marcar(f.id_detalle, incierto);
    await marcar(a3!.id_detalle, { estatus: 'en_curso', salio: 1, intentos: 1 });
    const ahora = Date.now();
    await store.guardarRecibos(
      [
        { id_equipo, id_gateway: 'g1', entregado: true, telefono: '525500000001' },
        { id_equipo, id_gateway: 'g2', entregado: true, telefono: '525500000002' },
        { id_equipo, id_gateway: 'g3', entregado: true, telefono: '525500000003' },
        {
          id_equipo,
          id_gateway: 'g4',
          entregado: false,
          motivo: 'SMPP UNDELIV',
          telefono: '525500000004',
        },
        { id_equipo: id_equipo + 1, id_gateway: 'g5', entregado: true, telefono: '525500000004' },
      ],
      ahora,
    );
    const gs = await store.recibosEnEspera(100);
    expect(gs.map((g) => g.r.id_gateway)).toEqual(['g5', 'g4', 'g3', 'g2', 'g1']);
    expect(gs.find((g) => g.r.id_gateway === 'g4')!.r).toEqual({
      id_equipo,
      id_gateway: 'g4',
      entregado: false,
      motivo: 'SMPP UNDELIV',
      telefono: '525500000004',
    });
    // By recipient: g2 and g4 (one row each); g1 has two rows, g3's row is still in flight
    // (not yet uncertain), g5 is another device's.
    const hechos = await store.aplicarPorTelefono(gs, ahora, ahora - 3_600_000);
    const porId = new Map(gs.map((g) => [g.id_recibo, g.r.id_gateway]));
    expect([...hechos].map((i) => porId.get(i)).sort()).toEqual(['g2', 'g4']);
    const despues = new Map((await filas(db, a)).map((f) => [f.telefono, f]));
    expect(despues.get('5500000002')).toMatchObject({
      estatus: 'entregado',
      id_gateway: 'g2',
      recibida: 1,
      motivo: null,
    });
    expect(despues.get('5500000004')).toMatchObject({
      estatus: 'fallido',
      id_gateway: 'g4',
      motivo: 'SMPP UNDELIV',
    });
    expect(despues.get('5500000001')).toMatchObject({ estatus: 'incierto', id_gateway: null });
    expect(despues.get('5500000003')).toMatchObject({ estatus: 'en_curso', id_gateway: null });
    expect((await filas(db, b))[0]).toMatchObject({ estatus: 'incierto', id_gateway: null });
    // Applied again, nothing changes (the rows have their id now).
    expect((await store.aplicarPorTelefono(gs, ahora, ahora - 3_600_000)).size).toBe(0);
    // Once a dispatcher writes g3's outcome, the receipt applies by its id as any other.
    await marcar(a3!.id_detalle, { estatus: 'enviado', id_gateway: 'g3' });
    const g3 = gs.find((g) => g.r.id_gateway === 'g3')!;
    expect([...(await store.aplicarRecibos([g3.r], Date.now()))]).toEqual(['g3']);
    expect((await filas(db, a))[2]).toMatchObject({ estatus: 'entregado', recibida: 1 });
    await store.borrarRecibosEnEspera([...hechos, g3.id_recibo]);
    expect((await store.recibosEnEspera(100)).map((g) => g.r.id_gateway)).toEqual(['g5', 'g1']);
    // Only those that came before a moment (the ones past their time).
    expect(await store.recibosEnEspera(100, ahora)).toEqual([]);
    expect((await store.recibosEnEspera(100, ahora + 1)).length).toBe(2);
  });
});
