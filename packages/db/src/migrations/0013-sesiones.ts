import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Sessions on the server (issue 22): each token names its row (the JWT id). Every request looks
// the row up joined to its user, so signing out, deactivation, deletion and a change of password
// (which remove rows) and a change of roles (read from the user) take effect at the next request
// on every api process. Rows past their expiry are purged at sign-in.

/** Creates sesiones (id_sesion = the token's jti; expira in epoch ms). */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const entero = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('sesiones')
    .addColumn('id_sesion', 'text', (c) => c.primaryKey())
    .addColumn('id_usuario', 'integer', (c) =>
      c.notNull().references('usuarios.id_usuario').onDelete('cascade'),
    )
    .addColumn('creada', entero, (c) => c.notNull())
    .addColumn('expira', entero, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sesiones_usuario').on('sesiones').column('id_usuario').execute();
  await db.schema.createIndex('sesiones_expira').on('sesiones').column('expira').execute();
}
