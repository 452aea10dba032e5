import type { CompiledQuery } from 'kysely';
import type { Db } from './database.ts';

/** Rows of each compiled query, in order. */
export type Filas<T extends readonly unknown[]> = { [K in keyof T]: T[K][] };

/**
 * Runs read queries against one snapshot of the database, so figures computed from different
 * queries agree (issue 23.6: a dashboard's semáforo and its 'Por estado' from the same moment).
 * PostgreSQL: one REPEATABLE READ, READ ONLY transaction. SQLite: the one connection is
 * synchronous, so the queries run back to back in one tick and no write can come between them.
 */
export async function instantanea<T extends readonly unknown[]>(
  db: Db,
  consultas: { [K in keyof T]: CompiledQuery<T[K]> },
): Promise<Filas<T>> {
  if (db.engine === 'sqlite' && db.sqlite) {
    const lite = db.sqlite;
    return consultas.map((c: CompiledQuery) =>
      lite.prepare(c.sql).all(...(c.parameters as unknown[])),
    ) as unknown as Filas<T>;
  }
  return db.kysely
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const filas: unknown[][] = [];
      for (const c of consultas as readonly CompiledQuery[])
        filas.push((await trx.executeQuery(c)).rows);
      return filas as unknown as Filas<T>;
    });
}
