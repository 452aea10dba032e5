import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 47.1: every exercise has a mode, 'simulacro' (the default), 'prueba' (only to the test
// list's category) or 'real'. A real alert is what issue 46.4's mark was (sent to opted-out phones
// too, with a reason): the exercises so marked read 'real', every other one 'simulacro'. The
// columns ignora_bajas* stay as what the dispatcher reads and the reason's record, always written
// with the mode (services/ejercicios.ts), one concept.

/** Adds ejercicios.modo. */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .alterTable('ejercicios')
    .addColumn('modo', 'varchar(20)', (c) => c.notNull().defaultTo('simulacro'))
    .execute();
  await sql`update ejercicios set modo = 'real' where ignora_bajas = 1`.execute(db);
}
