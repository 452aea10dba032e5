import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Reports and the CSV export read an exercise's recipients in id_detalle order, in batches
// (keyset pagination): this index makes each batch a range scan instead of a sort.

/** Adds the (id_ejercicio, id_detalle) index of ejercicio_detalle. */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createIndex('detalle_ejercicio_id')
    .on('ejercicio_detalle')
    .columns(['id_ejercicio', 'id_detalle'])
    .execute();
}
