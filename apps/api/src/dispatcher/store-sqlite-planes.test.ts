import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@pregon/db/database';
import { abrirBaseSembrada } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { storeSqlite } from '@pregon/despacho/store-sqlite';
import { anfitrionApi } from '../services/despacho.ts';
import { ponerAMitad, unaVueltaDelStore } from '@pregon/despacho/testing/comun';

// The plans of the dispatcher's hot statements on SQLite (issue 28.3), as the PostgreSQL ones in
// store-postgres-planes.test.ts. Each statement the store runs is first explained (EXPLAIN QUERY
// PLAN, same text and values) on a table half-way through a drill. Three times: with no
// statistics (what the product leaves: it never runs ANALYZE on SQLite), with statistics taken
// while every row was pending (an ANALYZE or `PRAGMA optimize` run by hand before the drill, or a
// file restored from a copy that had them), and with fresh ones. With the first kind, the
// planner believed no row is in flight, and the announcement and the outcome scanned the
// in-flight index and ran the batch's json_each again for each row in flight: 62-73 µs per message
// instead of 7 (announcement), 168-193 instead of 11-12 (outcome). A plan that changes shape
// fails here.

const N = 20_000;
const PUERTOS = 600;
const LOTE = 500;

/** A handle whose statements are each explained (same text and values) before they run. */
function conPlanes(s: Database.Database, planes: { sql: string; plan: string[] }[]) {
  const explicar = (sql: string, args: unknown[]) => {
    if (!/^\s*(select|update|insert|delete|with)\b/i.test(sql)) return;
    const filas = s.prepare(`explain query plan ${sql}`).all(...args) as { detail: string }[];
    planes.push({ sql, plan: filas.map((f) => f.detail) });
  };
  const sentencia = (st: Database.Statement) =>
    new Proxy(st, {
      get: (t, k) => {
        const v = Reflect.get(t, k) as unknown;
        if (k === 'run' || k === 'all' || k === 'get')
          return (...args: unknown[]) => {
            explicar(t.source, args);
            return (v as (...a: unknown[]) => unknown).apply(t, args);
          };
        return typeof v === 'function' ? (v as () => unknown).bind(t) : v;
      },
    });
  return new Proxy(s, {
    get: (t, k) => {
      if (k === 'prepare') return (sql: string) => sentencia(t.prepare(sql));
      const v = Reflect.get(t, k) as unknown;
      return typeof v === 'function' ? (v as () => unknown).bind(t) : v;
    },
  });
}

/** The plan's lines that read ejercicio_detalle (named or as `d`). */
const accesos = (plan: string[]) =>
  plan.filter((l) => /^(SCAN|SEARCH) (ejercicio_detalle|d)\b/.test(l));

describe('planes de las sentencias calientes del despachador (sqlite)', () => {
  let db: Db;
  let s: Database.Database;
  let limpiar: () => Promise<void>;
  let id_equipo: number;
  let id: number;
  /** sqlite_stat1 as an ANALYZE of the table with every row pending left it. */
  let estadisticasIniciales: unknown[];

  beforeAll(async () => {
    ({ db, limpiar } = await abrirBaseSembrada('sqlite'));
    s = db.sqlite as Database.Database;
    id_equipo = await crearEquipo(db, { protocolo: 'smpp', puertos: PUERTOS });
    id = await crearEjercicio(db, { id_equipo, n: N, puertos: PUERTOS });
    s.exec('analyze');
    estadisticasIniciales = s.prepare('select * from sqlite_stat1').all();
    await ponerAMitad(db, id, N, PUERTOS);
    // No statistics to begin with (the planner reads sqlite_stat1 again after `analyze
    // sqlite_schema`).
    s.exec('delete from sqlite_stat1; analyze sqlite_schema');
  }, 120_000);
  afterAll(async () => {
    await limpiar?.();
  });

  /** Runs each hot operation of the store once and returns the plans of what it ran. */
  async function planesDeUnaVuelta() {
    const planes: { sql: string; plan: string[] }[] = [];
    const store = storeSqlite({ ...db, sqlite: conPlanes(s, planes) }, anfitrionApi);
    const r = await unaVueltaDelStore(
      db,
      store,
      { id, id_equipo, n: N, puertos: PUERTOS, lote: LOTE },
      planes,
    );
    expect([r.reclamadas, r.anunciadas, r.recibos, r.aplicados]).toEqual([
      50,
      LOTE,
      LOTE + 60,
      LOTE + 60,
    ]);
    return r.porOp;
  }

  /** How each operation may read ejercicio_detalle: every line of its plans that reads the table
   * matches one of these. Never a SCAN of the table, nor of an index but the in-flight one (the
   * lease sweep reads every row in flight, as many as the ports). */
  const ESPERADOS: Record<string, RegExp[]> = {
    liberar: [/^SEARCH ejercicio_detalle USING INTEGER PRIMARY KEY \(rowid=\?\)$/],
    reclamar: [
      /^SEARCH ejercicio_detalle USING (COVERING )?INDEX detalle_en_curso \(id_ejercicio=\?\)$/,
      /^SEARCH ejercicio_detalle USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
      /^SEARCH ejercicio_detalle USING INDEX detalle_pendiente \(id_ejercicio=\?\)$/,
    ],
    anunciar: [/^SEARCH ejercicio_detalle USING INTEGER PRIMARY KEY \(rowid=\?\)$/],
    escribir: [
      /^SEARCH ejercicio_detalle USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
      // (the fallback rows' insert, only with a fallback)
      /^SEARCH d USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
    ],
    aplicarRecibos: [/^SEARCH ejercicio_detalle USING INDEX detalle_gateway \(id_gateway=\?\)$/],
    recuperarVencidos: [
      /^(SCAN d USING INDEX detalle_en_curso|SEARCH d USING INDEX detalle_en_curso \(id_ejercicio=\?\))$/,
      /^SEARCH ejercicio_detalle USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
    ],
  };

  const comprobar = (porOp: Record<string, string[][]>) => {
    for (const [op, esperados] of Object.entries(ESPERADOS)) {
      const planes = (porOp[op] ?? []).filter((p) => accesos(p).length > 0);
      expect(planes.length, op).toBeGreaterThan(0);
      for (const plan of planes) {
        if (process.env.PLANES) console.log(op, plan.join(' | '));
        for (const a of accesos(plan))
          expect(
            esperados.some((e) => e.test(a)),
            `${op}: ${plan.join(' | ')}`,
          ).toBe(true);
        // Nor a scan of every exercise ever created, but in the lease sweep (once per tick): the
        // receipts read it once per receipt, 13 µs each with 1 exercise in the database, 122 µs
        // with 1,001, 1,705 µs with 10,001.
        if (op !== 'recuperarVencidos')
          expect(
            plan.filter((l) => /^SCAN (ejercicios|j)\b/.test(l)),
            `${op}: ${plan.join(' | ')}`,
          ).toEqual([]);
      }
    }
  };

  it('sin estadísticas (las que deja el producto), cada sentencia va por sus índices', async () => {
    comprobar(await planesDeUnaVuelta());
  });

  it('con las estadísticas de la tabla toda pendiente, los mismos índices', async () => {
    const insertar = s.prepare('insert into sqlite_stat1 (tbl, idx, stat) values (?, ?, ?)');
    for (const f of estadisticasIniciales as { tbl: string; idx: string | null; stat: string }[])
      insertar.run(f.tbl, f.idx, f.stat);
    s.exec('analyze sqlite_schema');
    comprobar(await planesDeUnaVuelta());
  });

  it('con estadísticas frescas, los mismos índices', async () => {
    s.exec('analyze');
    comprobar(await planesDeUnaVuelta());
  });
});
