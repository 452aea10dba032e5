import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Live-stream tickets are single-use (issue 49.4: one ticket opened 3,000 streams). A ticket is
// signed by one api process and may be presented to another (PostgreSQL runs several), so the
// tickets already used are written here, where every process sees them: the first use inserts
// the ticket's id, any later use finds it there and is refused. A row is needed only until the
// ticket expires (60 s); older rows are purged as tickets are used.

/** Creates tickets_vivo_usados (jti = the ticket's JWT id; expira in epoch ms). */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const entero = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('tickets_vivo_usados')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('expira', entero, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tickets_vivo_usados_expira')
    .on('tickets_vivo_usados')
    .column('expira')
    .execute();
}
