import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// The call retry policy per exercise (issue 11): how many more times a busy or unanswered
// recipient is called, and the wait before each new attempt. Null keeps the dispatcher's
// configuration (DESPACHO_LLAMADA_REINTENTOS, DESPACHO_LLAMADA_ESPERA_MS).

/** Adds ejercicios.reintentos (0–5) and ejercicios.espera_reintento (minutes). */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('ejercicios').addColumn('reintentos', 'integer').execute();
  await db.schema.alterTable('ejercicios').addColumn('espera_reintento', 'integer').execute();
}
