import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Messages Pregón sends back to one phone outside any exercise's recipient list (issue 46.2 and
// 46.4): the automatic acknowledgement of a poll's option ('acuse') and the confirmation of a
// BAJA or an ALTA. The dispatcher sends them through the device the reply came in on
// (dispatcher/sueltos.ts), with the exercises' discipline: a claim with a lease, the attempt
// counted right before the send leaves (salio), never resent after a crash unless the gateway is
// idempotent ('incierto' otherwise), receipts applied, failures recorded.
//  - mensajes_sueltos: one message. Enqueued in the transaction that matches the reply, so a
//    reply is read and its answer queued together or not at all. One acknowledgement per person
//    (recipient row) and exercise (unique partial index mensajes_sueltos_acuse), one confirmation
//    per reply (mensajes_sueltos_respuesta): a second '2', a resend of a reply or two dispatchers
//    matching at once queue nothing more. partes: the SMS parts of the text (the exercise's cost);
//    vence: WhatsApp's 24-hour window that the reply opened (not sent after it).
//  - mensajes_sueltos_partes: each part id the gateway gave (a single SMS: its one id), so each
//    part's receipt finds its message; the message is 'entregado' when every part is.
// Times are epoch ms; the same SQL on both engines (identity columns aside).

/** Creates mensajes_sueltos, mensajes_sueltos_partes and their indexes. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? 'bigserial' : 'integer';
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('mensajes_sueltos')
    .addColumn('id_suelto', id, (c) =>
      engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id_equipo', 'integer', (c) =>
      c.notNull().references('equipos.id_equipo').onDelete('cascade'),
    )
    .addColumn('canal', 'varchar(20)', (c) => c.notNull())
    .addColumn('telefono', 'varchar(32)', (c) => c.notNull())
    .addColumn('texto', 'text', (c) => c.notNull())
    .addColumn('partes', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('motivo', 'varchar(10)', (c) =>
      c.notNull().check(sql`motivo in ('acuse', 'baja', 'alta')`),
    )
    .addColumn('id_respuesta', big, (c) =>
      c.references('respuestas_recibidas.id_respuesta').onDelete('set null'),
    )
    .addColumn('id_ejercicio', 'integer', (c) =>
      c.references('ejercicios.id_ejercicio').onDelete('set null'),
    )
    .addColumn('id_detalle', big)
    .addColumn('estado', 'varchar(20)', (c) =>
      c
        .notNull()
        .defaultTo('pendiente')
        .check(
          sql`estado in ('pendiente', 'en_curso', 'enviado', 'entregado', 'fallido', 'invalido', 'incierto')`,
        ),
    )
    .addColumn('intentos', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('salio', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_hasta', big)
    .addColumn('siguiente_intento', big)
    .addColumn('vence', big)
    .addColumn('id_gateway', 'varchar(200)')
    .addColumn('creado', big, (c) => c.notNull())
    .addColumn('enviado', big)
    .addColumn('actualizado', big)
    .addColumn('error', 'text')
    .execute();
  await sql`create unique index mensajes_sueltos_acuse on mensajes_sueltos (id_ejercicio, id_detalle)
    where motivo = 'acuse'`.execute(db);
  await sql`create unique index mensajes_sueltos_respuesta on mensajes_sueltos (id_respuesta)
    where motivo <> 'acuse'`.execute(db);
  // The queue: what waits or is in flight, by device (a handful; read every poll).
  await sql`create index mensajes_sueltos_cola on mensajes_sueltos (id_equipo, id_suelto)
    where estado in ('pendiente', 'en_curso')`.execute(db);
  // An exercise's acknowledgements (its cost).
  await sql`create index mensajes_sueltos_ejercicio on mensajes_sueltos (id_ejercicio)
    where id_ejercicio is not null`.execute(db);
  await db.schema
    .createTable('mensajes_sueltos_partes')
    .addColumn('id_equipo', 'integer', (c) => c.notNull())
    .addColumn('id_parte', 'varchar(200)', (c) => c.notNull())
    .addColumn('id_suelto', big, (c) =>
      c.notNull().references('mensajes_sueltos.id_suelto').onDelete('cascade'),
    )
    .addColumn('parte', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('estado', 'varchar(20)')
    .addPrimaryKeyConstraint('mensajes_sueltos_partes_pk', ['id_equipo', 'id_parte'])
    .execute();
  await db.schema
    .createIndex('mensajes_sueltos_partes_suelto')
    .on('mensajes_sueltos_partes')
    .column('id_suelto')
    .execute();
}
