import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// 'Reenviar a no alcanzados' (issue 25.1): a follow-up drill names the drill it follows up, so the
// chain can be shown; null for every other drill. No foreign key: deleting a source keeps its
// follow-ups (they hold their own copied recipients).
// The import that can update (issue 25.5): how a job handled phones that already existed, and its
// duplicate rows (row number, phone, what was done) as JSON, like `errores`.
// Each phone's history (issue 25.4): recipients by (id_telefono, id_ejercicio).

/** Adds ejercicios.origen_id and its index (the follow-ups of one drill), and
 * importaciones.modo_duplicados and filas_duplicadas. */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('ejercicios').addColumn('origen_id', 'integer').execute();
  await db.schema
    .createIndex('ejercicios_origen_idx')
    .on('ejercicios')
    .column('origen_id')
    .execute();
  await db.schema.alterTable('importaciones').addColumn('modo_duplicados', 'varchar(30)').execute();
  await db.schema.alterTable('importaciones').addColumn('filas_duplicadas', 'text').execute();
  // Issue 25.4: a phone's history, newest exercise first, read from this index alone.
  await db.schema
    .createIndex('detalle_historial')
    .on('ejercicio_detalle')
    .columns(['id_telefono', 'id_ejercicio'])
    .execute();
}
