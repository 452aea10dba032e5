import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// ejercicios.destinatarios keeps the number of recipients generated for an exercise, so the list
// can show an SMS exercise's total SMS (recipients × parts) without counting every exercise's
// rows on each page (issue 15). Set by POST /ejercicio/generar/; existing exercises are counted
// once here.

/** Adds ejercicios.destinatarios and fills it from ejercicio_detalle. */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .alterTable('ejercicios')
    .addColumn('destinatarios', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update ejercicios set destinatarios = (
      select count(*) from ejercicio_detalle d where d.id_ejercicio = ejercicios.id_ejercicio)`.execute(
    db,
  );
}
