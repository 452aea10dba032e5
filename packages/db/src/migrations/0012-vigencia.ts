import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// The validity of an SMS exercise's messages (issue 16): minutes the network may keep trying to
// deliver each one (SMPP validity_period, the Android gateway's ttl). Null keeps the gateway's
// default. A drill message that could not arrive in time is dropped instead of arriving hours
// after the drill.

/** Adds ejercicios.vigencia (minutes). */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('ejercicios').addColumn('vigencia', 'integer').execute();
}
