import { sql, type RawBuilder } from 'kysely';
import type { Engine } from './database.ts';

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
