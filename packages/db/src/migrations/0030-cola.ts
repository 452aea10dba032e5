import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Dispatch at scale (issue 28): a delivery receipt changes no indexed column, so on PostgreSQL
// it is a HOT update (no index entry, a smaller WAL record) when its page has room.
//  - ejercicio_detalle.cola, generated from estatus: 0 while pendiente, 1 while en_curso, null
//    for every outcome. The queue's partial indexes name it instead of estatus, so a change of
//    estatus between two outcomes ('enviado' → 'entregado', the receipt) keeps cola null and
//    touches no index: PostgreSQL counts a column in an index's predicate as indexed, and makes
//    an update HOT only when no indexed column changed.
//  - detalle_enviado (rows awaiting their receipt) is dropped: every receipt left it. The look-ups
//    it served run when a dispatcher starts and after an Android queue drains, one exercise at a
//    time, by detalle_ejercicio_id.
//  - fillfactor 50 (PostgreSQL; 0021 set 70): a HOT update needs room on its row's page, and the
//    rows of a page are claimed, announced and delivered close together. bench/dispatch-pg.ts,
//    100,000 recipients: WAL 1,342 B per message at 70, 1,155 at 50, 1,109 at 35; the table takes
//    1.4 times the room it took at 70.
// PostgreSQL stores the column (adding it rewrites the table once); SQLite computes it when read
// (a virtual column) and keeps its indexes on estatus, since it has no HOT updates to win: the
// shared queries name both (db/cola.ts), and each engine's planner takes its own index.

/** Adds ejercicio_detalle.cola; PostgreSQL's queue indexes on it and fillfactor 50; drops
 * detalle_enviado. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const expresion = sql`case estatus when 'pendiente' then 0 when 'en_curso' then 1 end`;
  await sql`drop index detalle_enviado`.execute(db);
  if (engine === 'sqlite') {
    await sql`alter table ejercicio_detalle add column cola integer
      generated always as (${expresion}) virtual`.execute(db);
    return;
  }
  // (before the column: the table's rewrite writes every page at the new fillfactor)
  await sql`alter table ejercicio_detalle set (fillfactor = 50)`.execute(db);
  await sql`alter table ejercicio_detalle add column cola smallint
    generated always as (${expresion}) stored`.execute(db);
  await sql`drop index detalle_pendiente`.execute(db);
  await sql`drop index detalle_en_curso`.execute(db);
  await sql`create index detalle_pendiente on ejercicio_detalle (id_ejercicio, posicion)
    where cola = 0`.execute(db);
  await sql`create index detalle_en_curso on ejercicio_detalle (id_ejercicio)
    where cola = 1`.execute(db);
}
