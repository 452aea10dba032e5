import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 47.4: where an exercise came from, when not from a person's dialog: 'cap' for one a CAP
// alert created (POST /cap/ or a CAP feed). Every alert that arrives by CAP lands 'Pendiente de
// aprobación', a drill under the approval threshold too: the approval rule
// (contract rules/aprobacion.ts requiereAprobacion) reads it. Null: created in Pregón (every
// exercise before this migration).

/** Adds ejercicios.procedencia. */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('ejercicios').addColumn('procedencia', 'varchar(10)').execute();
}
