import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// ajustes holds settings kept once per database. The first is 'instalacion', a random id made
// here: the Android gateway refuses a message id it already knows, so the ids the dispatcher
// gives it carry this id (pregon-<instalacion>-<id_detalle>) and a second database pointed at
// the same phone never collides with the first one's ids (issue 16).

/** Creates ajustes with this database's installation id. */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('ajustes')
    .addColumn('clave', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('valor', 'varchar(500)', (c) => c.notNull())
    .execute();
  await (db as Kysely<{ ajustes: { clave: string; valor: string } }>)
    .insertInto('ajustes')
    .values({ clave: 'instalacion', valor: crypto.randomBytes(4).toString('hex') })
    .execute();
}
