import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 45.5: how long an exercise waits for a device that does not answer before it pauses
// itself, per exercise (a drill scheduled at night has nobody to press 'Reanudar'). Seconds;
// 0 = wait without limit; null keeps the dispatcher's DESPACHO_PAUSA_SIN_CONEXION_MS (5 min).

/** Adds ejercicios.espera_equipo_s. */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('ejercicios').addColumn('espera_equipo_s', 'integer').execute();
}
