import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Polls and cases (issue 46.2 and 46.3).
//  - encuestas_ejercicio: the poll of an SMS or WhatsApp exercise, one row per exercise: its
//    options as JSON (rules/respuestas.ts OpcionesEncuestaSchema), whether the instruction
//    ('Responda 1 si …') is appended to the text sent, and the operator's question as written
//    (the exercise's accion holds the whole text sent, so its SMS parts count the instruction).
//  - casos: a person who chose an option marked 'requiere atención', for an operator to take
//    (estado 'atendiendo', tomado_por), note and close ('atendido'). One case not yet attended
//    per person (recipient row) per exercise: a partial unique index, so two dispatchers matching
//    two replies at once open one case, and a taken case is taken by one operator only (the
//    take is an UPDATE … WHERE estado = 'abierto').
// Times are epoch ms; the same SQL on both engines (identity columns aside).

/** Creates encuestas_ejercicio and casos, the index replies are counted per exercise with, and
 * the one the unread replies are found with. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? 'bigserial' : 'integer';
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('encuestas_ejercicio')
    .addColumn('id_ejercicio', 'integer', (c) =>
      c.primaryKey().references('ejercicios.id_ejercicio').onDelete('cascade'),
    )
    .addColumn('opciones', 'text', (c) => c.notNull())
    .addColumn('anexar_opciones', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pregunta', 'text', (c) => c.notNull())
    .addColumn('creado', big, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('casos')
    .addColumn('id_caso', id, (c) =>
      engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id_ejercicio', 'integer', (c) =>
      c.notNull().references('ejercicios.id_ejercicio').onDelete('cascade'),
    )
    .addColumn('id_detalle', big, (c) => c.notNull())
    .addColumn('id_respuesta', big, (c) =>
      c.references('respuestas_recibidas.id_respuesta').onDelete('set null'),
    )
    .addColumn('digito', 'integer', (c) => c.notNull())
    .addColumn('estado', 'varchar(20)', (c) => c.notNull().defaultTo('abierto'))
    .addColumn('abierto', big, (c) => c.notNull())
    .addColumn('tomado_por', 'integer')
    .addColumn('tomado_usuario', 'varchar(100)')
    .addColumn('tomado', big)
    .addColumn('nota', 'text')
    .addColumn('cerrado_por', 'integer')
    .addColumn('cerrado_usuario', 'varchar(100)')
    .addColumn('cerrado', big)
    .execute();
  await db.schema
    .createIndex('casos_pendiente_unico')
    .on('casos')
    .columns(['id_ejercicio', 'id_detalle'])
    .unique()
    .where(sql.ref('estado'), '<>', 'atendido')
    .execute();
  await db.schema
    .createIndex('casos_ejercicio')
    .on('casos')
    .columns(['id_ejercicio', 'abierto'])
    .execute();
  await db.schema.createIndex('casos_estado').on('casos').column('estado').execute();
  await db.schema
    .createIndex('respuestas_recibidas_ejercicio')
    .on('respuestas_recibidas')
    .columns(['id_ejercicio', 'id_detalle'])
    .execute();
  // The replies not matched yet (services/respuestas.ts procesarPendientes runs after every new
  // reply): a handful, found without reading the whole table.
  await db.schema
    .createIndex('respuestas_recibidas_sin_leer')
    .on('respuestas_recibidas')
    .column('id_respuesta')
    .where(sql.ref('clasificacion'), 'is', null)
    .execute();
}
