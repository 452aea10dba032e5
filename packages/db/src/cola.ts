import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Engine } from './database.ts';
import type { DB } from './schema.ts';

// The dispatcher's queue in ejercicio_detalle (migrations 0030, 0031): `cola` is generated from
// estatus, 0 while a row is pendiente or en_curso, null once it has an outcome. PostgreSQL's
// partial index detalle_cola names `cola`, so neither the claim (pendiente → en_curso) nor a
// change between two outcomes (the receipt: enviado → entregado) changes an indexed column:
// both are HOT updates. SQLite's indexes name estatus. A query for the queue's rows names both,
// as literals (a partial index serves a query only when the planner can prove its predicate from
// the query's own text), and each engine's planner takes its index.

/** `cola` of the rows in the queue (pendiente or en_curso). */
export const EN_COLA = 0;

/** The rows in `estado` (of table alias `alias`, if any), written so either engine's partial
 * index serves the query. */
export function enCola(estado: 'pendiente' | 'en_curso', alias?: string): RawBuilder<boolean> {
  const p = alias ? `${alias}.` : '';
  return sql<boolean>`(${sql.ref(`${p}estatus`)} = ${sql.lit(estado)} and ${sql.ref(`${p}cola`)} = ${sql.lit(EN_COLA)})`;
}

/** Conditions that together select every queued row (pendiente or en_curso), each served by one
 * of `engine`'s partial indexes on its own: PostgreSQL's detalle_cola holds both states; SQLite
 * has one index per state. */
export function partesDeLaCola(engine: Engine): RawBuilder<boolean>[] {
  return engine === 'postgres'
    ? [sql<boolean>`${sql.ref('cola')} = ${sql.lit(EN_COLA)}`]
    : [enCola('pendiente'), enCola('en_curso')];
}

/** First half of the advisory-lock key of an exercise's queue on PostgreSQL ("dispatcher
 * claims"; the exercise's id is the second): held by each claim through its commit, and by
 * whatever lowers the exercise's floor (abrirCola). */
export const LLAVE_COLA = 7_404_101;

/** The lowest position of each exercise among rows that entered the queue, as [exercise,
 * position] in the exercises' order: the order a writer lowers (and locks) several floors in, so
 * two writers never wait for each other's locks. */
export function pisosPorEjercicio(
  filas: Iterable<{ id_ejercicio: number; posicion: number }>,
): [number, number][] {
  const pisos = new Map<number, number>();
  for (const { id_ejercicio, posicion } of filas)
    pisos.set(id_ejercicio, Math.min(posicion, pisos.get(id_ejercicio) ?? posicion));
  return [...pisos].sort(([a], [b]) => a - b);
}

/** abrirCola's statement ($1 the exercise, $2 the position), for a caller on a pg client. */
export const ABRIR_COLA = `insert into despacho_frontera (id_ejercicio, posicion, piso)
  select $1::int, 0, 0 from (select pg_advisory_xact_lock(${LLAVE_COLA}, $1::int)) l
  on conflict (id_ejercicio) do update set piso = $2::int
  where despacho_frontera.piso > $2::int`;

/**
 * Rows entered the exercise's queue at `posicion` or after (PostgreSQL; nothing on SQLite): its
 * floor (despacho_frontera.piso, migration 0032), below which the claim does not look, comes
 * down to `posicion`. Every path that puts a row in the queue other than back from en_curso
 * (generated or copied recipients, fallback rows, a renumbering, a cancelled message sent again)
 * calls it in the same transaction, after its rows are written (or before, when a claim could
 * wait for those rows: a renumbering of pending rows), as one statement under the exercise's
 * advisory lock, held to the commit. A claim either ends before it (and the floor it raised,
 * from a snapshot without these rows, comes down here) or begins after the commit (and sees the
 * rows). The upsert takes the frontier row's latest version, whatever its snapshot, and waits
 * for a claim inserting the exercise's first. (A missing row is a floor of 0.)
 */
export async function abrirCola(
  k: Kysely<DB>,
  engine: Engine,
  id_ejercicio: number,
  posicion: number,
): Promise<void> {
  if (engine !== 'postgres') return;
  await k.executeQuery(CompiledQuery.raw(ABRIR_COLA, [id_ejercicio, posicion]));
}
