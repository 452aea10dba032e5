import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Dispatch at scale (issue 28): indexes that hold only what the dispatcher's hot statements look
// up, so each send writes fewer index entries, and (PostgreSQL) room on every page for a row's
// next versions.
//  - detalle_pendiente (id_ejercicio, posicion) where pendiente: the claim's queue. A row enters
//    it when generated and leaves it when claimed; replaces detalle_cola (id_ejercicio, estatus,
//    posicion), which took a new entry at every change of estatus.
//  - detalle_en_curso (id_ejercicio) where en_curso: the claim's count of rows in flight and the
//    lease sweep (at most the ports in flight). Without lease_hasta in it, the announcement of a
//    send (lease, attempt) changes no indexed column and can be a HOT update.
//  - detalle_enviado (id_ejercicio) where enviado: rows awaiting their receipt (a dispatcher's
//    start, a paused exercise's queue).
//  - detalle_gateway (id_gateway) where id_gateway is not null: the receipts' look-up; pending
//    rows (most of a fresh drill) are not in it.
//  - fillfactor 70: a page keeps room for its rows' next versions, so updates stay on the page
//    (HOT where no indexed column changes, smaller WAL records otherwise, no lock record for a
//    move to another page). Applies to the pages written from now on (new drills).

/** Replaces ejercicio_detalle's queue and gateway indexes with partial ones; fillfactor 70. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await sql`create index detalle_pendiente on ejercicio_detalle (id_ejercicio, posicion)
    where estatus = 'pendiente'`.execute(db);
  await sql`create index detalle_enviado on ejercicio_detalle (id_ejercicio)
    where estatus = 'enviado'`.execute(db);
  await sql`drop index detalle_en_curso`.execute(db);
  await sql`create index detalle_en_curso on ejercicio_detalle (id_ejercicio)
    where estatus = 'en_curso'`.execute(db);
  await sql`drop index detalle_gateway`.execute(db);
  await sql`create index detalle_gateway on ejercicio_detalle (id_gateway)
    where id_gateway is not null`.execute(db);
  await sql`drop index detalle_cola`.execute(db);
  if (engine === 'postgres')
    await sql`alter table ejercicio_detalle set (fillfactor = 70)`.execute(db);
}
