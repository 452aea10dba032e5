// The plans of the dispatcher's hot statements on PostgreSQL through a large drill (issue 28):
// EXPLAIN (ANALYZE, BUFFERS) of each statement the store sends (claim, announcement, outcomes,
// receipts) at the start, the middle and the end of a drill of N recipients (1 000 000 by
// default), first with the statistics `generar` leaves (taken while every row was pending), then
// with fresh ones. Each statement runs inside a transaction that is rolled back, on a table put
// in the state of that point of the drill. Prints, per point and statistics, each statement's
// plan shape (its nodes and indexes), its time and the buffers it touched: a flat cost keeps the
// three points alike.
//
//   npx tsx bench/dispatch-pg-planes.ts [--rows 1000000]
import os from 'node:os';
import type pg from 'pg';
import { sql } from 'kysely';
import { enCola } from '@pregon/db/cola';
import { openDb } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { seed } from '@pregon/api/db/seed';
import { analizarDestinatarios } from '@pregon/api/repositories/ejercicios';
import { crearBasePostgres } from '@pregon/api/testing/entorno';
import { storePostgres } from '@pregon/despacho/store-postgres';
import { anfitrionApi } from '@pregon/api/services/despacho';
import { desenlaceEnviado } from '@pregon/despacho/testing/comun';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { arg } from './_comun.ts';

const N = Number(arg('rows', '1000000'));
const PUERTOS = 1000;
const LOTE = 500;

interface Nodo {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Total Time'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: Nodo[];
}
const nodos = (n: Nodo): Nodo[] => [n, ...(n.Plans ?? []).flatMap(nodos)];
const forma = (n: Nodo) =>
  nodos(n)
    .map(
      (x) =>
        `${x['Node Type']}${x['Index Name'] ? `(${x['Index Name']})` : x['Relation Name'] && x['Node Type'] !== 'ModifyTable' ? `(${x['Relation Name']})` : ''}`,
    )
    .join(' > ');

/** A pool whose queries run as EXPLAIN (ANALYZE, BUFFERS) inside a rolled-back transaction;
 * `medidas` gets each statement's plan, time and buffers. */
function explicando(pool: pg.Pool, medidas: { plan: Nodo; ms: number; buffers: number }[]) {
  const query = async (texto: string, valores?: unknown[]) => {
    const c = await pool.connect();
    try {
      const partes = texto.split(';');
      const ultima = partes.length - 1;
      const previas = partes.slice(0, ultima).join(';');
      await c.query('begin');
      if (previas.trim()) await c.query(previas);
      const r = await c.query(`explain (analyze, buffers, format json) ${partes[ultima]}`, valores);
      const e = (r.rows[0] as { 'QUERY PLAN': { Plan: Nodo; 'Execution Time': number }[] })[
        'QUERY PLAN'
      ][0]!;
      const buffers = nodos(e.Plan).reduce(
        (s, x) => Math.max(s, (x['Shared Hit Blocks'] ?? 0) + (x['Shared Read Blocks'] ?? 0)),
        0,
      );
      medidas.push({ plan: e.Plan, ms: e['Execution Time'], buffers });
      await c.query('rollback');
      // The store reads what the statement returns: give it nothing (the work was measured).
      return partes.length > 1 ? partes.map(() => ({ rows: [] })) : { rows: [], rowCount: 0 };
    } finally {
      c.release();
    }
  };
  return new Proxy(pool, { get: (t, k) => (k === 'query' ? query : Reflect.get(t, k)) }) as pg.Pool;
}

console.log(
  `Planes de las sentencias calientes, ${N} destinatarios; carga ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
const base = await crearBasePostgres();
const db = openDb({ databaseUrl: base.url });
try {
  await migrate(db);
  await seed(db, { adminUser: 'admin', adminPassword: 'Bench-admin-1' });
  const id_equipo = await crearEquipo(db, { protocolo: 'smpp', puertos: PUERTOS });
  const id = await crearEjercicio(db, { id_equipo, n: N, puertos: PUERTOS });
  await analizarDestinatarios(db.kysely, 'postgres');

  /** The table at `f` (0..1) of the drill: rows before it delivered, the last 5 % of them still
   * awaiting their receipt, the next PUERTOS in flight, the rest pending. */
  const estado = async (f: number) => {
    const hecho = Math.floor(N * f);
    const entregados = Math.max(0, hecho - Math.floor(N * 0.05));
    await sql`update ejercicio_detalle set
        estatus = case when posicion <= ${entregados}::int then 'entregado'
          when posicion <= ${hecho}::int then 'enviado'
          when posicion <= ${hecho + PUERTOS}::int then 'en_curso' else 'pendiente' end,
        recibida = case when posicion <= ${entregados}::int then 1 else 0 end,
        id_gateway = case when posicion <= ${hecho}::int then 'g' || posicion end,
        lease_hasta = case when posicion > ${hecho}::int and posicion <= ${hecho + PUERTOS}::int
          then ${Date.now() + 3_600_000}::bigint end
      where id_ejercicio = ${id} and (estatus <> 'pendiente' or posicion <= ${hecho + PUERTOS}::int)`.execute(
      db.kysely,
    );
    await sql`vacuum ejercicio_detalle`.execute(db.kysely);
    return hecho;
  };

  const puntos: [string, number][] = [
    ['inicio', 0.02],
    ['mitad', 0.5],
    ['final', 0.95],
  ];
  for (const estadisticas of ['de generar', 'frescas']) {
    if (estadisticas === 'frescas') console.log('');
    for (const [nombre, f] of puntos) {
      const hecho = await estado(f);
      if (estadisticas === 'frescas') await sql`analyze ejercicio_detalle`.execute(db.kysely);
      const medidas: { plan: Nodo; ms: number; buffers: number }[] = [];
      const store = storePostgres({ ...db, pool: explicando(db.pool!, medidas) }, anfitrionApi);
      const ahora = Date.now();
      const ej = { id_ejercicio: id, puertos: 2 * PUERTOS } as Parameters<typeof store.reclamar>[0];
      const { rows: vuelo } = await sql<{ id_detalle: number; posicion: number }>`
        select id_detalle, posicion from ejercicio_detalle where id_ejercicio = ${id} and ${enCola('en_curso')}
        order by posicion limit ${LOTE}`.execute(db.kysely);
      const ops: [string, () => Promise<unknown>][] = [
        ['reclamar', () => store.reclamar(ej, LOTE, ahora, ahora + 60_000)],
        [
          'anunciar',
          () =>
            store.anunciar(
              vuelo.map((v) => ({
                id_detalle: v.id_detalle,
                id_gateway: null,
                hasta: ahora + 60_000,
              })),
              ahora,
            ),
        ],
        [
          'escribir',
          () =>
            store.escribir(
              vuelo.map((v) => desenlaceEnviado(v.id_detalle, `n${v.posicion}`)),
              ahora,
            ),
        ],
        [
          'aplicarRecibos',
          () =>
            store.aplicarRecibos(
              Array.from({ length: LOTE }, (_, k) => ({
                id_gateway: `g${Math.max(1, hecho - LOTE) + k}`,
                id_equipo,
                entregado: true,
              })),
              ahora,
            ),
        ],
      ];
      for (const [op, f] of ops) {
        const antes = medidas.length;
        await f();
        for (const m of medidas.slice(antes))
          if (nodos(m.plan).some((x) => x['Relation Name'] === 'ejercicio_detalle'))
            console.log(
              `${estadisticas.padEnd(10)} ${nombre.padEnd(6)} ${op.padEnd(14)} ${m.ms.toFixed(2).padStart(8)} ms ${String(m.buffers).padStart(6)} búferes  ${forma(m.plan)}`,
            );
      }
    }
  }
} finally {
  await db.close();
  await base.borrar();
}
