import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 48.3: two editors never overwrite each other. Every record an operator edits in a form
// carries a version, checked and incremented by the form's save (repositories/versiones.ts:
// `... WHERE id = ? AND version = ?`, zero rows = someone saved first, 409), and who saved it
// last and when, for the conflict's message. Existing rows start at 1, saved by nobody known.
// Only an operator's edit bumps it: the scheduler, the dispatcher, start/pause/stop and the
// like write other columns and leave an open form valid.

/** The tables with an edit form. */
export const TABLAS_VERSIONADAS = ['ejercicios', 'telefonos', 'equipos', 'usuarios', 'paises'];

/** Adds version, modificado_por and modificado_en to each edited table. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  for (const tabla of TABLAS_VERSIONADAS) {
    await db.schema
      .alterTable(tabla)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable(tabla).addColumn('modificado_por', 'varchar(100)').execute();
    await db.schema.alterTable(tabla).addColumn('modificado_en', big).execute();
  }
}
