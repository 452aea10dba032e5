import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Calling windows (issue 24.4): an exercise may carry 'Horario permitido' (ventana_inicio /
// ventana_fin, 'HH:mm', both or none) applied in each recipient's local time, from their state's
// IANA zone: the contract's table (rules/ventanas.ts) unless estados.zona_horaria overrides it.

/** Adds ejercicios.ventana_inicio, ventana_fin and estados.zona_horaria (all nullable). */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('ejercicios').addColumn('ventana_inicio', 'varchar(5)').execute();
  await db.schema.alterTable('ejercicios').addColumn('ventana_fin', 'varchar(5)').execute();
  await db.schema.alterTable('estados').addColumn('zona_horaria', 'varchar(64)').execute();
}
