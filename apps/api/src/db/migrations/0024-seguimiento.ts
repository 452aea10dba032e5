import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// 'Reenviar a no alcanzados' (issue 25.1): a follow-up drill names the drill it follows up, so the
// chain can be shown; null for every other drill. No foreign key: deleting a source keeps its
// follow-ups (they hold their own copied recipients).

/** Adds ejercicios.origen_id and its index (the follow-ups of one drill). */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('ejercicios').addColumn('origen_id', 'integer').execute();
  await db.schema
    .createIndex('ejercicios_origen_idx')
    .on('ejercicios')
    .column('origen_id')
    .execute();
}
