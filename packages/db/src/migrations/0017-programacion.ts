import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Scheduled starts (issue 24.3): an exercise may start by itself at its 'Fecha de inicio' and
// 'Hora de inicio' (the product's time zone), on the server, exactly once whatever process is
// alive. inicio_programado is that instant in epoch ms; inicio_nota what happened or what the
// pre-flight found ('Listo para iniciar', 'Iniciado con N min de retraso', 'No se inició: …').

/** Adds ejercicios.inicio_automatico, inicio_programado, programado_por, inicio_nota,
 * comprobado_en and the index the scheduler polls. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .alterTable('ejercicios')
    .addColumn('inicio_automatico', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('ejercicios').addColumn('inicio_programado', big).execute();
  await db.schema
    .alterTable('ejercicios')
    .addColumn('programado_por', 'integer', (c) => c.references('usuarios.id_usuario'))
    .execute();
  await db.schema.alterTable('ejercicios').addColumn('inicio_nota', 'varchar(400)').execute();
  await db.schema.alterTable('ejercicios').addColumn('comprobado_en', big).execute();
  // Only scheduled exercises are in it: the scheduler's poll reads a handful of entries.
  await sql`create index ejercicios_programados on ejercicios (inicio_programado)
    where inicio_automatico = 1`.execute(db);
}
