import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// sms_partes: the parts of a long SMS sent as several submits (issue 15). Each accepted part's id
// at the SMSC is stored with its recipient row, so a part's delivery receipt finds its row even
// after the dispatcher that sent it restarted (or when it arrives at another dispatcher bound to
// the same account). The row is 'entregado' once every part's receipt says delivered, 'fallido'
// at the first part that was not (ejercicio_detalle.partes_entregadas counts them).

/** Creates sms_partes, keyed by device and part id, indexed by recipient row. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('sms_partes')
    .addColumn('id_equipo', 'integer', (c) => c.notNull())
    .addColumn('id_parte', 'varchar(80)', (c) => c.notNull())
    .addColumn('id_detalle', engine === 'postgres' ? 'bigint' : 'integer', (c) =>
      c.notNull().references('ejercicio_detalle.id_detalle').onDelete('cascade'),
    )
    .addColumn('parte', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    /** null until its receipt; then 'entregado' or 'fallido'. */
    .addColumn('estado', 'varchar(10)')
    .addPrimaryKeyConstraint('sms_partes_pk', ['id_equipo', 'id_parte'])
    .execute();
  await db.schema.createIndex('sms_partes_detalle').on('sms_partes').column('id_detalle').execute();
  // The row counts its delivered parts itself: an increment under the row's lock is atomic, so two
  // dispatchers applying two parts of one message at once never both miss the last one.
  await db.schema
    .alterTable('ejercicio_detalle')
    .addColumn('partes_entregadas', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
