import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Automatic fallback inside one exercise (issue 25.2): a call or quiz drill may name an SMS to
// send to whoever its calls did not reach. The fallback's sends are rows of a hidden companion
// exercise (ejercicios.respaldo_de = the drill), so the dispatcher claims, paces, announces,
// writes and follows their receipts with the machinery every exercise uses (its own device, ports
// and per-second budget), and the drill's own counts and reports keep one row per recipient.
// Each fallback row names the drill's row it stands for (ejercicio_detalle.respaldo_de); the
// unique index makes the insert of a fallback idempotent: never two for one recipient.

/** Adds ejercicios.respaldo_de (cascade: deleting the drill deletes its companion) and
 * ejercicio_detalle.respaldo_de with a partial unique index. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .alterTable('ejercicios')
    .addColumn('respaldo_de', 'integer', (c) =>
      c.references('ejercicios.id_ejercicio').onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('ejercicios_respaldo_idx')
    .on('ejercicios')
    .column('respaldo_de')
    .where(sql.ref('respaldo_de'), 'is not', null)
    .execute();
  await db.schema.alterTable('ejercicio_detalle').addColumn('respaldo_de', big).execute();
  await db.schema
    .createIndex('detalle_respaldo')
    .on('ejercicio_detalle')
    .column('respaldo_de')
    .unique()
    .where(sql.ref('respaldo_de'), 'is not', null)
    .execute();
}
