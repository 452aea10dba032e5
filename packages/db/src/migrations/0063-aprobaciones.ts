import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 47.2: two people for a real alert. An exercise that needs approval (an 'Alerta real', or
// a drill over APROBACION_DESDE_DESTINATARIOS recipients) carries its request's state here: who
// asked and when, until when it stands, who approved or rejected it, when, and the rejection's
// reason. Null state: nothing asked. Every step is also in the audit log.

const COLUMNAS_TEXTO = ['aprobacion', 'aprobacion_solicitante', 'aprobacion_resuelve'];
const COLUMNAS_MS = ['aprobacion_solicitada', 'aprobacion_expira', 'aprobacion_resuelta'];

/** Adds the approval columns to ejercicios. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  for (const c of COLUMNAS_TEXTO)
    await db.schema.alterTable('ejercicios').addColumn(c, 'varchar(100)').execute();
  for (const c of COLUMNAS_MS) await db.schema.alterTable('ejercicios').addColumn(c, big).execute();
  await db.schema
    .alterTable('ejercicios')
    .addColumn('aprobacion_solicitante_id', 'integer')
    .execute();
  await db.schema.alterTable('ejercicios').addColumn('aprobacion_motivo', 'text').execute();
}
