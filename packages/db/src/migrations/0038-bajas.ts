import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Opt-out and its limits (issue 46.4).
//  - bajas: the phones that asked not to receive drills, one list per reply channel ('sms' for
//    SMPP and the Android gateway alike, 'whatsapp'; contract rules/bajas.ts). The number is the
//    directory's form (rules/phone canonizarTelefono), so a drill's rows (which copy it) match it;
//    id_telefono is the directory's row when there was one. origen says how it got there (its own
//    reply, an imported list, an operator), id_respuesta and texto the reply that caused it.
//    An ALTA deletes the row: the history (both, with their messages) is in auditoria.
//    confirmada_en stays null until the confirmation SMS ('Ya no recibirá avisos…') leaves.
//    Unique (canal, telefono): the list by channel is read in that index's order, and a drill's
//    start reads the list of its channel, then each phone by telefonos' unique index and its row
//    by detalle_historial (id_telefono, id_ejercicio): no index is added to ejercicio_detalle.
//  - ejercicios.ignora_bajas: an administrator's 'alerta real' (sent to opted-out phones too),
//    with the reason, who and when.

/** Creates bajas and ejercicios.ignora_bajas (+ motivo, usuario, fecha). */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? 'bigserial' : 'integer';
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('bajas')
    .addColumn('id_baja', id, (c) =>
      engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('canal', 'varchar(20)', (c) => c.notNull().check(sql`canal in ('sms', 'whatsapp')`))
    .addColumn('telefono', 'varchar(32)', (c) => c.notNull())
    .addColumn('id_telefono', 'integer', (c) =>
      c.references('telefonos.id_telefono').onDelete('set null'),
    )
    .addColumn('origen', 'varchar(20)', (c) =>
      c.notNull().check(sql`origen in ('respuesta', 'importacion', 'operador')`),
    )
    .addColumn('id_respuesta', big, (c) =>
      c.references('respuestas_recibidas.id_respuesta').onDelete('set null'),
    )
    .addColumn('texto', 'text')
    .addColumn('id_usuario', 'integer')
    .addColumn('usuario', 'varchar(100)')
    .addColumn('fecha', big, (c) => c.notNull())
    .addColumn('confirmada_en', big)
    .addUniqueConstraint('bajas_canal_telefono', ['canal', 'telefono'])
    .execute();
  await db.schema
    .alterTable('ejercicios')
    .addColumn('ignora_bajas', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('ejercicios').addColumn('ignora_bajas_motivo', 'text').execute();
  await db.schema
    .alterTable('ejercicios')
    .addColumn('ignora_bajas_usuario', 'varchar(100)')
    .execute();
  await db.schema.alterTable('ejercicios').addColumn('ignora_bajas_fecha', big).execute();
}
