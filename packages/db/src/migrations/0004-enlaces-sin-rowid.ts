import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Bulk import speed (issue 3): on SQLite telefono_categoria becomes a WITHOUT ROWID table, so a
// link is stored once, in its primary key (id_telefono, id_categoria), instead of in a rowid table
// plus a separate index of the key: one B-tree insert fewer per link. Same columns, keys, foreign
// keys and index. PostgreSQL has no rowid tables: nothing to do.

/** Rebuilds telefono_categoria as WITHOUT ROWID on SQLite (create new, copy, drop, rename). */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'sqlite') return;
  await sql`create table telefono_categoria_nueva (
    id_telefono integer not null references telefonos (id_telefono) on delete cascade,
    id_categoria integer not null references categorias (id_categoria),
    constraint telefono_categoria_pk primary key (id_telefono, id_categoria)
  ) without rowid`.execute(db);
  await sql`insert into telefono_categoria_nueva (id_telefono, id_categoria)
    select id_telefono, id_categoria from telefono_categoria`.execute(db);
  await sql`drop table telefono_categoria`.execute(db);
  await sql`alter table telefono_categoria_nueva rename to telefono_categoria`.execute(db);
  await sql`create index telefono_categoria_cat on telefono_categoria (id_categoria, id_telefono)`.execute(
    db,
  );
}
