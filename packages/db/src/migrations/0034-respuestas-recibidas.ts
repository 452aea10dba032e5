import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Replies (issue 46): what people send back to a drill, over any channel, each stored once.
// (The name `respuestas` is taken: a quiz question's allowed answers, 0001.)
//  - respuestas_recibidas: one row per reply, with its device and channel, the sender as the
//    gateway gave it and as the phone directory writes it (id_telefono when it is there), the
//    decoded text and the raw octets (hex), the coding, the gateway's id and time when it gives
//    them, and when it was received. `clave` is unique: 'gw:' + the gateway's id, else a hash of
//    sender, text and time (dispatcher/smpp-mo.ts), so a gateway's resend is a no-op. id_ejercicio
//    and id_detalle stay null until a reply is matched to a drill: null is the inbox.
//  - respuestas_partes: the parts of a long SMS reply until every part is in (kept after, marked
//    `unida`, so a part the SMSC resends is known); a set that stays incomplete is stored as a
//    reply marked `incompleta` after dispatcher/smpp-mo.ts's PLAZO_PARTES_MO_MS.

/** Creates respuestas_recibidas and respuestas_partes. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? 'bigserial' : 'integer';
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('respuestas_recibidas')
    .addColumn('id_respuesta', id, (c) =>
      engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id_equipo', 'integer', (c) => c.notNull())
    .addColumn('canal', 'varchar(20)', (c) => c.notNull())
    .addColumn('remitente', 'varchar(64)', (c) => c.notNull())
    .addColumn('telefono', 'varchar(32)')
    .addColumn('id_telefono', 'integer', (c) =>
      c.references('telefonos.id_telefono').onDelete('set null'),
    )
    .addColumn('texto', 'text', (c) => c.notNull())
    .addColumn('texto_crudo', 'text', (c) => c.notNull())
    .addColumn('codificacion', 'varchar(20)', (c) => c.notNull())
    .addColumn('nota', 'text')
    .addColumn('id_gateway', 'varchar(200)')
    .addColumn('fecha_gateway', big)
    .addColumn('fecha_recibida', big, (c) => c.notNull())
    .addColumn('clave', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('partes', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('incompleta', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('id_ejercicio', 'integer', (c) =>
      c.references('ejercicios.id_ejercicio').onDelete('set null'),
    )
    .addColumn('id_detalle', big)
    .addColumn('clasificacion', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('respuestas_recibidas_fecha')
    .on('respuestas_recibidas')
    .column('fecha_recibida')
    .execute();
  await db.schema
    .createIndex('respuestas_recibidas_telefono')
    .on('respuestas_recibidas')
    .column('id_telefono')
    .execute();
  await db.schema
    .createIndex('respuestas_recibidas_bandeja')
    .on('respuestas_recibidas')
    .column('fecha_recibida')
    .where(sql.ref('id_ejercicio'), 'is', null)
    .execute();
  await db.schema
    .createTable('respuestas_partes')
    .addColumn('id_equipo', 'integer', (c) => c.notNull())
    .addColumn('remitente', 'varchar(64)', (c) => c.notNull())
    .addColumn('referencia', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('parte', 'integer', (c) => c.notNull())
    .addColumn('canal', 'varchar(20)', (c) => c.notNull())
    .addColumn('telefono', 'varchar(32)')
    .addColumn('data_coding', 'integer', (c) => c.notNull())
    .addColumn('contenido', 'text', (c) => c.notNull())
    .addColumn('crudo', 'text', (c) => c.notNull())
    .addColumn('recibida', big, (c) => c.notNull())
    .addColumn('unida', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('respuestas_partes_pk', [
      'id_equipo',
      'remitente',
      'referencia',
      'total',
      'parte',
    ])
    .execute();
  await db.schema
    .createIndex('respuestas_partes_recibida')
    .on('respuestas_partes')
    .column('recibida')
    .execute();
}
