import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Room in the leaf pages of the two indexes whose key a message's outcome does not change
// (issue 28, PostgreSQL): the primary key and detalle_ejercicio_id. The outcome is the one update
// of a row that is not HOT (the row leaves the queue's index and enters the gateway's), so it
// puts a second entry for the row, with the same key, beside the first in every index. At the
// default fillfactor of 90 a leaf filled by `generar` has no room for them: every leaf split once
// in a drill (some after a deduplication pass, which also writes the page), and a split writes
// both halves (at 1,000,000 recipients, 56 of the 967 bytes of WAL per message,
// 33 of them full-page images after a checkpoint). At 50, the pages `generar` fills from now on
// keep room for one more version of each entry: no split, and 9 µs less of PostgreSQL's CPU per
// message here (a leaf first written after a checkpoint still costs its image). The index takes
// from the start the size the splits gave it anyway. Pages written before stay as they are (no
// rewrite: the change is immediate). SQLite has no fillfactor.

/** Sets fillfactor 50 on ejercicio_detalle_pkey and detalle_ejercicio_id (PostgreSQL). */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`alter index ejercicio_detalle_pkey set (fillfactor = 50)`.execute(db);
  await sql`alter index detalle_ejercicio_id set (fillfactor = 50)`.execute(db);
}
