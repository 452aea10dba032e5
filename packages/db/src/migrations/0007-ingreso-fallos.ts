import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// ejercicios.detenido tells an exercise stopped by an operator (POST /quiz/stop/) from one that
// finished: both keep the SPEC's completado 1 ('Completado').
//
// Failed sign-in counts live in the database so every api process on PostgreSQL sees the same
// counts (issue 17); one row per throttling key ('ip:…', 'ua:usuario|ip', 'u:usuario').

/** Creates ingreso_fallos and adds ejercicios.detenido (0/1). */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const entero = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('ingreso_fallos')
    .addColumn('clave', 'text', (c) => c.primaryKey())
    .addColumn('usuario', 'text')
    .addColumn('fallos', 'integer', (c) => c.notNull())
    .addColumn('ultimo', entero, (c) => c.notNull())
    .addColumn('bloqueado_hasta', entero, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('ejercicios')
    .addColumn('detenido', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('ingreso_fallos_usuario')
    .on('ingreso_fallos')
    .column('usuario')
    .execute();
}
