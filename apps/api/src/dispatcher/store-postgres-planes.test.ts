import type pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@pregon/db/database';
import { analizarDestinatarios } from '../repositories/ejercicios.ts';
import { abrirBaseSembrada } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { storePostgres } from '@pregon/despacho/store-postgres';
import { anfitrionApi } from '../services/despacho.ts';
import { desenlaceEnviado, ponerAMitad, unaVueltaDelStore } from '@pregon/despacho/testing/comun';

// The plans of the dispatcher's hot statements on PostgreSQL (issue 28). Each statement the
// store sends is explained (EXPLAIN (FORMAT JSON), with the same text and values) on a table in
// the state of a drill half-way through: half its rows delivered, some awaiting a receipt, a
// port's worth in flight, the rest pending. Twice: with the statistics `generar` leaves (taken
// while every row was pending: the planner believes sent and delivered rows are rare) and with
// fresh ones. Whatever the statistics, every statement must reach ejercicio_detalle only by the
// indexes named here, never by a Seq Scan, and never by a Nested Loop driven from the queue
// (the plan that made a drill quadratic). A plan that changes shape fails here.

const N = 20_000;
const PUERTOS = 600;
/** Rows of each batch (the dispatcher's writes reach 500). */
const LOTE = 500;

interface Nodo {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: Nodo[];
}

/** Every node of a plan, parents before children. */
const nodos = (n: Nodo): Nodo[] => [n, ...(n.Plans ?? []).flatMap(nodos)];
/** Index names and access kinds of ejercicio_detalle in a plan. */
const accesos = (n: Nodo) =>
  nodos(n)
    .filter(
      (x) =>
        (x['Relation Name'] === 'ejercicio_detalle' && x['Node Type'] !== 'ModifyTable') ||
        x['Node Type'] === 'Bitmap Index Scan',
    )
    .map((x) => `${x['Node Type']}${x['Index Name'] ? ` ${x['Index Name']}` : ''}`);

/** A statement as sent, its plan, and whether PostgreSQL would compile it (JIT). */
interface Explicada {
  sql: string;
  plan: Nodo;
  jit: boolean;
}

/** A pool whose every query (and its clients' queries) is first explained (same text and
 * values), then run. */
function conPlanes(pool: pg.Pool, planes: Explicada[]): pg.Pool {
  const explicando = (c: pg.Pool | pg.PoolClient) => async (texto: string, valores?: unknown[]) => {
    const partes = texto.split(';');
    const ultima = partes.length - 1;
    if (/^\s*(select|update|with|insert|delete)\b/i.test(partes[ultima]!)) {
      const explicado = [...partes.slice(0, ultima), ` explain (format json) ${partes[ultima]}`];
      const r = (await c.query(explicado.join(';'), valores)) as pg.QueryResult | pg.QueryResult[];
      const res = Array.isArray(r) ? r[r.length - 1]! : r;
      const explicacion = (res.rows[0] as { 'QUERY PLAN': { Plan: Nodo; JIT?: unknown }[] })[
        'QUERY PLAN'
      ][0]!;
      planes.push({
        sql: partes[ultima]!.trim(),
        plan: explicacion.Plan,
        jit: 'JIT' in explicacion,
      });
    }
    return c.query(texto, valores);
  };
  const connect = async () => {
    const c = await pool.connect();
    return new Proxy(c, {
      get: (t, k) => (k === 'query' ? explicando(c) : Reflect.get(t, k)),
    });
  };
  return new Proxy(pool, {
    get: (t, k) =>
      k === 'query' ? explicando(pool) : k === 'connect' ? connect : Reflect.get(t, k),
  }) as pg.Pool;
}

describe('planes de las sentencias calientes del despachador (postgres)', () => {
  let db: Db;
  let limpiar: () => Promise<void>;
  let id_equipo: number;
  let id: number;

  beforeAll(async () => {
    ({ db, limpiar } = await abrirBaseSembrada('postgres'));
    id_equipo = await crearEquipo(db, { protocolo: 'smpp', puertos: PUERTOS });
    id = await crearEjercicio(db, { id_equipo, n: N, puertos: PUERTOS });
    // What `generar` leaves: statistics taken while every row is pending.
    await analizarDestinatarios(db.kysely, 'postgres');
    const frontera = await ponerAMitad(db, id, N, PUERTOS);
    // (the claims that took them moved the exercise's frontier past them: migration 0031)
    await sql`insert into despacho_frontera (id_ejercicio, posicion)
      values (${id}, ${frontera})`.execute(db.kysely);
  }, 120_000);
  afterAll(async () => {
    await limpiar?.();
  });

  /** Runs each hot operation of the store once and returns the plans of what it sent. */
  async function planesDeUnaVuelta() {
    const planes: Explicada[] = [];
    const store = storePostgres({ ...db, pool: conPlanes(db.pool!, planes) }, anfitrionApi);
    const r = await unaVueltaDelStore(
      db,
      store,
      { id, id_equipo, n: N, puertos: PUERTOS, lote: LOTE },
      planes,
      (marcar, ahora) => marcar('llamadasVencidas', () => store.llamadasVencidas(ahora, ['smpp'])),
    );
    expect(r.reclamadas).toBe(50);
    expect(r.aplicados).toBe(r.recibos);
    // None is compiled: JIT costs a statement hundreds of milliseconds of LLVM, on every run
    // (the lease sweep, estimated above jit_above_cost on a large drill, took 300-700 ms).
    expect(planes.filter((p) => p.jit).map((p) => p.sql.slice(0, 60))).toEqual([]);
    return r.porOp;
  }

  /** Index names each operation may reach ejercicio_detalle by. */
  const ESPERADOS: Record<string, string[]> = {
    // (the queue, rows pending and in flight, read up to the frontier; or the primary key)
    liberar: ['ejercicio_detalle_pkey'],
    reclamar: ['detalle_cola', 'ejercicio_detalle_pkey'],
    anunciar: ['ejercicio_detalle_pkey'],
    escribir: ['ejercicio_detalle_pkey'],
    aplicarRecibos: ['detalle_gateway', 'ejercicio_detalle_pkey'],
    recuperarVencidos: ['detalle_cola', 'ejercicio_detalle_pkey'],
    llamadasVencidas: ['detalle_cola'],
  };

  const comprobar = (porOp: Record<string, Nodo[]>) => {
    for (const [op, esperados] of Object.entries(ESPERADOS)) {
      // (the statements that touch ejercicio_detalle: not the advisory lock's select)
      const planes = (porOp[op] ?? []).filter((p) =>
        nodos(p).some((x) => x['Relation Name'] === 'ejercicio_detalle'),
      );
      expect(planes.length, op).toBeGreaterThan(0);
      for (const plan of planes) {
        const vistos = accesos(plan);
        if (process.env.PLANES)
          console.log(
            op,
            vistos.join(', '),
            nodos(plan)
              .map((x) => x['Node Type'])
              .join(' > '),
          );
        // Reached ejercicio_detalle by an expected index, never by a sequential scan.
        expect(vistos.length, `${op}: ${vistos.join(', ')}`).toBeGreaterThan(0);
        for (const a of vistos) {
          expect(a, `${op}: ${vistos.join(', ')}`).not.toMatch(/^Seq Scan/);
          const indice = a.replace(
            /^(Index Only Scan|Index Scan|Bitmap Index Scan|Bitmap Heap Scan) ?/,
            '',
          );
          if (indice) expect(esperados, `${op}: ${vistos.join(', ')}`).toContain(indice);
        }
        // No nested loop re-running a function (unnest of the batch) for each row: quadratic in
        // the batch.
        for (const n of nodos(plan).filter((x) => x['Node Type'] === 'Nested Loop'))
          expect(
            nodos(n.Plans![1]!).some((x) => x['Node Type'] === 'Function Scan'),
            `${op}: Nested Loop sobre unnest`,
          ).toBe(false);
        // No nested loop driven from the queue index: its outer side never reads the queue,
        // unless under a Limit (the claim's batch).
        for (const n of nodos(plan).filter((x) => x['Node Type'] === 'Nested Loop')) {
          const exterior = nodos(n.Plans![0]!);
          expect(
            exterior.some((x) => x['Node Type'] === 'Limit') ||
              !exterior.some((x) => x['Index Name'] === 'detalle_cola'),
            `${op}: Nested Loop sobre la cola`,
          ).toBe(true);
        }
      }
    }
  };

  it('con las estadísticas que deja generar, cada sentencia va por sus índices', async () => {
    comprobar(await planesDeUnaVuelta());
  });

  it('con estadísticas frescas, los mismos índices', async () => {
    await sql`analyze ejercicio_detalle`.execute(db.kysely);
    comprobar(await planesDeUnaVuelta());
  });
});

// A row's claim, its send's announcement and its delivery receipt change no indexed column
// (migrations 0030 and 0031: the queue's partial index names `cola`, which all three leave as it
// was), so PostgreSQL makes them HOT updates: no index entry, a smaller WAL record. Counted by pg_stat_xact_user_tables, which
// holds the current transaction's updates: each operation runs on one connection inside a
// transaction that is then rolled back, on a table VACUUM FULL rewrote at its fillfactor (a page
// keeps room for the next versions of a few of its rows; a HOT update needs its page to have it).
describe('actualizaciones HOT del despachador (postgres)', () => {
  let db: Db;
  let limpiar: () => Promise<void>;

  beforeAll(async () => {
    ({ db, limpiar } = await abrirBaseSembrada('postgres'));
  }, 60_000);
  afterAll(async () => {
    await limpiar?.();
  });

  /** Runs `f` with a store bound to one connection, in a transaction rolled back after; returns
   * the rows of ejercicio_detalle it updated and how many of them were HOT. */
  async function contarActualizaciones(f: (s: ReturnType<typeof storePostgres>) => Promise<void>) {
    const c = await db.pool!.connect();
    // (the view also holds this connection's earlier transactions not yet reported: a difference)
    const contadores = async () => {
      const { rows } = await c.query<{ upd: string; hot: string }>(
        `select n_tup_upd as upd, n_tup_hot_upd as hot from pg_stat_xact_user_tables
         where relname = 'ejercicio_detalle'`,
      );
      return { actualizadas: Number(rows[0]?.upd ?? 0), hot: Number(rows[0]?.hot ?? 0) };
    };
    try {
      await c.query('begin');
      const antes = await contadores();
      const pool = { query: (...a: unknown[]) => (c.query as (...x: unknown[]) => unknown)(...a) };
      await f(storePostgres({ ...db, pool: pool as unknown as pg.Pool }, anfitrionApi));
      const despues = await contadores();
      return {
        actualizadas: despues.actualizadas - antes.actualizadas,
        hot: despues.hot - antes.hot,
      };
    } finally {
      await c.query('rollback');
      c.release();
    }
  }

  it('el reclamo de una fila, el anuncio de su envío y su acuse de recibo son actualizaciones HOT', async () => {
    const id_equipo = await crearEquipo(db, { protocolo: 'smpp', puertos: 50 });
    const id_ejercicio = await crearEjercicio(db, { id_equipo, n: 200, puertos: 50 });
    const store = storePostgres(db, anfitrionApi);
    const ahora = Date.now();
    const ej = { id_ejercicio, puertos: 50 } as Parameters<typeof store.reclamar>[0];
    await sql`vacuum full ejercicio_detalle`.execute(db.kysely);
    expect(
      await contarActualizaciones(async (s) => {
        expect(await s.reclamar(ej, 5, ahora, ahora + 60_000)).toHaveLength(5);
      }),
    ).toEqual({ actualizadas: 5, hot: 5 });
    const filas = await store.reclamar(ej, 5, ahora, ahora + 60_000);
    expect(filas).toHaveLength(5);
    const anuncios = filas.map((f) => ({
      id_detalle: f.id_detalle,
      id_gateway: null,
      hasta: ahora + 60_000,
    }));
    await sql`vacuum full ejercicio_detalle`.execute(db.kysely);
    expect(await contarActualizaciones((s) => s.anunciar(anuncios, ahora).then(() => {}))).toEqual({
      actualizadas: 5,
      hot: 5,
    });

    await store.anunciar(anuncios, ahora);
    await store.escribir(
      filas.map((f) => desenlaceEnviado(f.id_detalle, `h${f.id_detalle}`)),
      ahora,
    );
    await sql`vacuum full ejercicio_detalle`.execute(db.kysely);
    const recibos = filas.map((f) => ({
      id_gateway: `h${f.id_detalle}`,
      id_equipo,
      entregado: true,
    }));
    expect(
      await contarActualizaciones(async (s) => {
        expect((await s.aplicarRecibos(recibos, ahora)).size).toBe(5);
      }),
    ).toEqual({ actualizadas: 5, hot: 5 });
  });
});

// A message's outcome is the update that is not HOT: it puts a second entry for its row, with the
// same key, in the primary key and detalle_ejercicio_id. Their leaves keep room for it
// (migration 0033, fillfactor 50): the outcomes of a whole drill split no leaf of either index
// but the last. At the default fillfactor (90) every leaf split once, writing both halves to the
// WAL (full-page images after a checkpoint).
describe('índices sin páginas partidas por los desenlaces (postgres)', () => {
  let db: Db;
  let limpiar: () => Promise<void>;

  beforeAll(async () => {
    ({ db, limpiar } = await abrirBaseSembrada('postgres'));
  }, 60_000);
  afterAll(async () => {
    await limpiar?.();
  });

  it('escribir el desenlace de cada fila de un ejercicio no agranda el primary key ni detalle_ejercicio_id', async () => {
    const n = 6_000;
    const id_equipo = await crearEquipo(db, { protocolo: 'smpp', puertos: n });
    const id_ejercicio = await crearEjercicio(db, { id_equipo, n, puertos: n });
    const store = storePostgres(db, anfitrionApi);
    const ahora = Date.now();
    const ej = { id_ejercicio, puertos: n } as Parameters<typeof store.reclamar>[0];
    const filas = [];
    for (let lote; (lote = await store.reclamar(ej, 500, ahora, ahora + 60_000)).length;)
      filas.push(...lote);
    expect(filas).toHaveLength(n);
    const paginas = async () => {
      const { rows } = await db.pool!.query<{ pk: string; ej: string }>(
        `select pg_relation_size('ejercicio_detalle_pkey') / 8192 as pk,
           pg_relation_size('detalle_ejercicio_id') / 8192 as ej`,
      );
      return { pk: Number(rows[0]!.pk), ej: Number(rows[0]!.ej) };
    };
    const antes = await paginas();
    for (let i = 0; i < n; i += 500) {
      const lote = filas.slice(i, i + 500);
      await store.anunciar(
        lote.map((f) => ({ id_detalle: f.id_detalle, id_gateway: null, hasta: ahora + 60_000 })),
        ahora,
      );
      await store.escribir(
        lote.map((f) => desenlaceEnviado(f.id_detalle, `p${f.id_detalle}`)),
        ahora,
      );
    }
    const { rows } = await db.pool!.query<{ n: number }>(
      `select count(*)::int as n from ejercicio_detalle where id_ejercicio = $1 and estatus = 'enviado'`,
      [id_ejercicio],
    );
    expect(rows[0]!.n).toBe(n);
    // (the last leaf of each may split: `generar` fills the rightmost leaf until it is full, the
    // fillfactor only decides where a split divides it; at 90 the indexes grew by 16 and 24 pages)
    const despues = await paginas();
    expect(despues.pk - antes.pk).toBeLessThanOrEqual(1);
    expect(despues.ej - antes.ej).toBeLessThanOrEqual(1);
  });
});
