import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Archived exercises (issue 26.1): hidden from 'Activos' and 'Todos', listed under 'Archivados',
// restorable; an archived exercise neither starts nor starts by itself.

/** Adds ejercicios.archivado (0/1, default 0). */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .alterTable('ejercicios')
    .addColumn('archivado', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
