import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Calls record how long they rang and the hangup cause beside the talk time (duracion), so
// reporte2 can show ring and talk seconds and the reason a call ended (ARCHITECTURE 6).

/** Adds ejercicio_detalle.timbrado (seconds) and .causa (Q.850 hangup cause). */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('ejercicio_detalle').addColumn('timbrado', 'integer').execute();
  await db.schema.alterTable('ejercicio_detalle').addColumn('causa', 'integer').execute();
}
