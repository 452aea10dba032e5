import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 45.1: a device's ports held by each dispatcher (dispatcher/capacidad-equipo.ts). One row
// per device and dispatcher: the ports it holds and until when (epoch ms); a dispatcher renews its
// rows while it runs and deletes them when it stops, so the rows of one that died stop counting
// at `hasta`. The device's rate shares despacho_cupos (key −id_equipo): no table of its own.

/** Creates equipo_puertos. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('equipo_puertos')
    .addColumn('id_equipo', 'integer', (c) => c.notNull())
    .addColumn('despachador', 'varchar(100)', (c) => c.notNull())
    .addColumn('puertos', 'integer', (c) => c.notNull())
    .addColumn('hasta', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('equipo_puertos_pk', ['id_equipo', 'despachador'])
    .execute();
}
