import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// The claim's floor (issue 28, PostgreSQL): despacho_frontera.piso, per exercise, at or below the
// position of every row in the queue (db/cola.ts). The claim's scans of detalle_cola start there
// instead of at the exercise's first entry: the entries of rows that left the queue stay in the
// index, dead, until a VACUUM, and at 1,000,000 recipients walking them from the start made each
// claim 11.6 ms against 4.5 at 100,000. 0 (the start) is always a valid floor: existing rows get
// it, and the next claim raises it. SQLite removes an index entry when its row leaves the queue,
// so it has no floor.

/** Adds despacho_frontera.piso (PostgreSQL; default 0). */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`alter table despacho_frontera add column piso integer not null default 0`.execute(db);
}
