import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Dispatcher support (ARCHITECTURE 5): the per-second send budget every dispatcher shares, and a
// partial index so the lease-recovery sweep reads only rows in flight.

/** Creates despacho_cupos and the in-flight index of ejercicio_detalle. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('despacho_cupos')
    .addColumn('id_ejercicio', 'integer', (c) => c.primaryKey())
    .addColumn('segundo', big, (c) => c.notNull())
    .addColumn('usados', 'integer', (c) => c.notNull())
    .execute();
  await sql`create index detalle_en_curso on ejercicio_detalle (lease_hasta) where estatus = 'en_curso'`.execute(
    db,
  );
}
