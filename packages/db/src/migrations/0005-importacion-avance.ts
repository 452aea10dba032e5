import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Import jobs record when they last made progress, so that on PostgreSQL, where any api process
// may be running a job, one whose process stopped can be told from one that is still working.

/** Adds importaciones.actualizado (epoch ms of the job's last batch). */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .alterTable('importaciones')
    .addColumn('actualizado', engine === 'postgres' ? 'bigint' : 'integer')
    .execute();
}
