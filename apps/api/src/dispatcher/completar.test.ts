import { sql, type KyselyPlugin, type QueryId } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@pregon/db/database';
import { abrirBaseSembrada } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { completarSiTermino } from '@pregon/despacho/store-comun';
import { anfitrionApi } from '../services/despacho.ts';
import { banderas, porEstatus } from '@pregon/despacho/testing/comun';

// A drill completes only when none of its rows is queued, and on PostgreSQL (READ COMMITTED)
// each statement sees its own snapshot. Here a row of the queue moves to the other queue state,
// committed by another connection, right after the check's first read of ejercicio_detalle: as
// a new dispatcher's lease sweep does to the rows of one SIGKILLed (en_curso → pendiente), or a
// claim (pendiente → en_curso). CI saw the first: a drill completed with 10 of 8,000 rows left
// pending, never sent. The check must see the row in one state or the other, never in neither.
describe('fin del ejercicio con filas que cambian de estado a la vez (postgres)', () => {
  let db: Db;
  let limpiar: () => Promise<void>;

  beforeAll(async () => {
    ({ db, limpiar } = await abrirBaseSembrada('postgres'));
  }, 60_000);
  afterAll(async () => {
    await limpiar?.();
  });

  /** db whose first read of ejercicio_detalle runs `entre` (on another connection) before its
   * result returns to the caller. */
  function conCambioTrasLaPrimeraLectura(entre: () => Promise<void>): Db {
    const lecturas = new WeakSet<QueryId>();
    let hecho = false;
    const plugin: KyselyPlugin = {
      transformQuery(args) {
        if (JSON.stringify(args.node).includes('"ejercicio_detalle"')) lecturas.add(args.queryId);
        return args.node;
      },
      async transformResult(args) {
        if (!hecho && lecturas.has(args.queryId)) {
          hecho = true;
          await entre();
        }
        return args.result;
      },
    };
    return { ...db, kysely: db.kysely.withPlugin(plugin) };
  }

  for (const [de, a] of [
    ['en_curso', 'pendiente'],
    ['pendiente', 'en_curso'],
  ] as const)
    it(`una fila que pasa de ${de} a ${a} durante la comprobación lo deja sin completar`, async () => {
      const id_equipo = await crearEquipo(db, { protocolo: 'android' });
      const id = await crearEjercicio(db, { id_equipo, n: 3 });
      await sql`update ejercicio_detalle set estatus = 'enviado'
        where id_ejercicio = ${id} and posicion < 3`.execute(db.kysely);
      await sql`update ejercicio_detalle set estatus = ${de}
        where id_ejercicio = ${id} and posicion = 3`.execute(db.kysely);

      const espia = conCambioTrasLaPrimeraLectura(async () => {
        await sql`update ejercicio_detalle set estatus = ${a}
          where id_ejercicio = ${id} and posicion = 3`.execute(db.kysely);
      });
      expect(await completarSiTermino(espia, id, Date.now(), anfitrionApi)).toBe(false);
      expect(await porEstatus(db, id)).toEqual({ enviado: 2, [a]: 1 });
      expect((await banderas(db, id)).completado).toBe(0);

      // Once the row has its outcome, the drill completes.
      await sql`update ejercicio_detalle set estatus = 'enviado'
        where id_ejercicio = ${id} and posicion = 3`.execute(db.kysely);
      expect(await completarSiTermino(db, id, Date.now(), anfitrionApi)).toBe(true);
      expect((await banderas(db, id)).completado).toBe(1);
    });
});
