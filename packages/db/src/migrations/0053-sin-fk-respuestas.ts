import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 46.5 (replies at volume): on PostgreSQL, the foreign keys that point at
// respuestas_recibidas from the rows the matching writes in the same transaction (casos, the
// acknowledgements and opt-out confirmations in mensajes_sueltos, bajas) go. Measured with
// auto_explain during bench/respuestas.ts (100,000 recipients, SMPP, two matching passes at once):
// each 'insert into casos' of a batch took 0.5-1.0 s, 99 % of it in the trigger of
// casos_id_respuesta_fkey (761 ms for 122 rows: ~6-8 ms per row, against ~0.01 ms per row on an
// idle copy of the same tables), and the matching fell behind the intake (0.53-0.62× the bare
// insert loop); without that key the same round matched 0.88× with no statement over 400 ms.
// Nothing is lost by dropping them: the product never deletes a reply (an exercise's deletion
// sets respuestas_recibidas.id_ejercicio null and keeps the reply, and its cases go with the
// exercise by casos.id_ejercicio), so their ON DELETE SET NULL never fired, and every row that
// names a reply is written by the matching from the reply it has just read and locked. SQLite
// keeps them: its check is an in-process probe of the primary key, never measured slow, and
// dropping a column's constraint there means rebuilding the table.

/** Drops the three foreign keys to respuestas_recibidas on PostgreSQL. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  for (const [tabla, restriccion] of [
    ['casos', 'casos_id_respuesta_fkey'],
    ['mensajes_sueltos', 'mensajes_sueltos_id_respuesta_fkey'],
    ['bajas', 'bajas_id_respuesta_fkey'],
  ] as const)
    await sql`alter table ${sql.table(tabla)} drop constraint if exists ${sql.ref(restriccion)}`.execute(
      db,
    );
}
