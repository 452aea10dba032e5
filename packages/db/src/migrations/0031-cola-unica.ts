import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Dispatch at scale (issue 28): the claim of a row (pendiente → en_curso) changes no indexed
// column, so on PostgreSQL it is a HOT update, as the announcement and the receipt already are.
//  - ejercicio_detalle.cola is now 0 for both pendiente and en_curso (null for every outcome).
//    One partial index, detalle_cola (id_ejercicio, posicion) where cola = 0, holds the queue:
//    rows waiting and rows in flight. 0030's detalle_pendiente and detalle_en_curso go with the
//    old column. A row enters the index when generated and leaves it at its outcome.
//  - despacho_frontera (PostgreSQL): per exercise, the highest position any claim has taken,
//    written by the claim itself under the exercise's advisory lock. Every row en_curso was
//    claimed, so it lies at or before its exercise's frontier: the claim counts the rows in
//    flight, and the lease sweep finds them, by reading detalle_cola up to the frontier instead
//    of an index of their own (whose entry every claim wrote). Rows left en_curso by a dispatcher
//    that died before this migration get their frontier here.
//  - fillfactor 35 (PostgreSQL; 0030 set 50): with the claim HOT too, three versions of a row
//    are written on its page within a second, for every row a claim takes from it.
//    bench/dispatch-pg.ts, 100,000 recipients, alternating: WAL 926–1,006 B per message at 50,
//    849–858 at 35, 836–866 at 25.
// PostgreSQL stores the column again (the table is rewritten once, at the new fillfactor);
// SQLite computes it when read and keeps its indexes on estatus.

/** Redefines ejercicio_detalle.cola (0 while pendiente or en_curso); PostgreSQL: detalle_cola,
 * despacho_frontera and fillfactor 35. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const expresion = sql`case when estatus in ('pendiente', 'en_curso') then 0 end`;
  await sql`alter table ejercicio_detalle drop column cola`.execute(db);
  if (engine === 'sqlite') {
    await sql`alter table ejercicio_detalle add column cola integer
      generated always as (${expresion}) virtual`.execute(db);
    return;
  }
  // (before the column: the table's rewrite writes every page at the new fillfactor)
  await sql`alter table ejercicio_detalle set (fillfactor = 35)`.execute(db);
  await sql`alter table ejercicio_detalle add column cola smallint
    generated always as (${expresion}) stored`.execute(db);
  await sql`create index detalle_cola on ejercicio_detalle (id_ejercicio, posicion)
    where cola = 0`.execute(db);
  await sql`create table despacho_frontera (
    id_ejercicio integer primary key,
    posicion integer not null)`.execute(db);
  await sql`insert into despacho_frontera (id_ejercicio, posicion)
    select id_ejercicio, max(posicion) from ejercicio_detalle
    where estatus = 'en_curso' group by id_ejercicio`.execute(db);
}
