import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 48.3 for questionnaires: the questionnaire dialog's save carries the version it loaded,
// like the other edit forms (0054-versiones.ts). Existing questionnaires start at 1, saved by
// nobody known; the dialog reads an exercise without one as version 0.

/** Adds version, modificado_por and modificado_en to cuestionarios. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .alterTable('cuestionarios')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('cuestionarios').addColumn('modificado_por', 'varchar(100)').execute();
  await db.schema.alterTable('cuestionarios').addColumn('modificado_en', big).execute();
}
