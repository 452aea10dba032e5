import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { PELIGROS_INICIALES } from '@pregon/contract/rules/plantillas-mensaje';

// Issue 47.3: prepared messages by hazard.
//  - peligros: the hazards (six preloaded; an administrator adds more).
//  - plantillas_mensaje: a template's name and hazard.
//  - plantillas_mensaje_versiones: every save is a new row (version 1, 2, …), never changed
//    afterwards except for its approval (aprobada: epoch ms, aprobada_por: who). Contents per
//    channel: the SMS text (without the drill marker), the WhatsApp template (name, language,
//    parameters as JSON text), a call audio's stored name and a questionnaire's id.
// Times are epoch ms; the same SQL on both engines (identity columns aside).

/** Creates peligros, plantillas_mensaje and plantillas_mensaje_versiones. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? 'bigserial' : 'integer';
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  const pk = (c: any) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('peligros')
    .addColumn('id_peligro', id, pk)
    .addColumn('nombre', 'varchar(100)', (c) => c.notNull().unique())
    .execute();
  await (db as Kysely<{ peligros: { nombre: string } }>)
    .insertInto('peligros')
    .values(PELIGROS_INICIALES.map((nombre) => ({ nombre })))
    .execute();
  await db.schema
    .createTable('plantillas_mensaje')
    .addColumn('id_plantilla', id, pk)
    .addColumn('nombre', 'varchar(200)', (c) => c.notNull())
    .addColumn('id_peligro', 'integer', (c) => c.notNull().references('peligros.id_peligro'))
    .addColumn('creada', big, (c) => c.notNull())
    .addColumn('creada_por', 'varchar(100)')
    .execute();
  await db.schema
    .createTable('plantillas_mensaje_versiones')
    .addColumn('id_version', id, pk)
    .addColumn('id_plantilla', 'integer', (c) =>
      c.notNull().references('plantillas_mensaje.id_plantilla'),
    )
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('texto_sms', 'text', (c) => c.notNull())
    .addColumn('whatsapp_plantilla', 'varchar(512)', (c) => c.notNull())
    .addColumn('whatsapp_idioma', 'varchar(15)', (c) => c.notNull())
    .addColumn('whatsapp_parametros', 'text', (c) => c.notNull())
    .addColumn('audio', 'varchar(255)', (c) => c.notNull())
    .addColumn('id_cuestionario', 'integer')
    .addColumn('creada', big, (c) => c.notNull())
    .addColumn('creada_por', 'varchar(100)')
    .addColumn('aprobada', big)
    .addColumn('aprobada_por', 'varchar(100)')
    .addUniqueConstraint('plantillas_mensaje_version_unica', ['id_plantilla', 'version'])
    .execute();
}
