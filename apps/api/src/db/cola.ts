import { sql, type RawBuilder } from 'kysely';

// The dispatcher's queue in ejercicio_detalle (migration 0030): `cola` is generated from
// estatus, 0 while a row is pendiente and 1 while it is en_curso, null once it has an outcome.
// PostgreSQL's partial indexes detalle_pendiente and detalle_en_curso name `cola`, so a change
// between two outcomes (the receipt: enviado → entregado) changes no indexed column and is a
// HOT update; SQLite's name estatus. A query for the queue's rows names both, as literals (a
// partial index serves a query only when the planner can prove its predicate from the query's
// own text), and each engine's planner takes its index.

/** `cola` of the rows in each queue state. */
export const COLA = { pendiente: 0, en_curso: 1 } as const;

/** The rows in `estado` (of table alias `alias`, if any), written so either engine's partial
 * index on that state serves the query. */
export function enCola(estado: keyof typeof COLA, alias?: string): RawBuilder<boolean> {
  const p = alias ? `${alias}.` : '';
  return sql<boolean>`(${sql.ref(`${p}estatus`)} = ${sql.lit(estado)} and ${sql.ref(`${p}cola`)} = ${sql.lit(COLA[estado])})`;
}
