import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 47.4: CAP 1.2 alerts received (POST /cap/). One row per alert (sender and identifier
// unique, as CAP defines an alert's identity), with the exercise it created, updated or stopped:
// a repeated alert is recognised, and an Update or Cancel finds its exercise through the
// identity its <references> give. Times are epoch ms.

/** Creates alertas_cap. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? 'bigserial' : 'integer';
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  const pk = (c: any) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('alertas_cap')
    .addColumn('id_alerta_cap', id, pk)
    .addColumn('remitente', 'varchar(255)', (c) => c.notNull())
    .addColumn('identificador', 'varchar(255)', (c) => c.notNull())
    .addColumn('enviado', 'varchar(40)', (c) => c.notNull())
    .addColumn('estado_cap', 'varchar(10)', (c) => c.notNull())
    .addColumn('tipo_mensaje', 'varchar(10)', (c) => c.notNull())
    .addColumn('id_ejercicio', 'integer', (c) =>
      c.references('ejercicios.id_ejercicio').onDelete('set null'),
    )
    .addColumn('recibido', big, (c) => c.notNull())
    .addColumn('recibido_por', 'varchar(100)')
    .addUniqueConstraint('alertas_cap_identidad', ['remitente', 'identificador'])
    .execute();
}
