import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Drills aimed at more than one state (issue 24.5): the states as a comma-separated list of ids
// (null: just id_estado, as every exercise before). id_estado keeps the first, for the SPEC's
// single `estado`.

/** Adds ejercicios.estados. */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('ejercicios').addColumn('estados', 'varchar(400)').execute();
}
