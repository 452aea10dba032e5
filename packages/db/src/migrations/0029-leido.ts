import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// A WhatsApp 'read' kept apart (issue 25.1): the row stays 'entregado' and its alcance says
// 'leido'. 0015 allowed only an answered call's refinements in alcance; this step widens the
// check to them and 'leido' (the contract's ALCANCES today, written out: a migration's schema
// must not follow later code). Every existing value stays valid.

const ALCANCES = [
  'escucho',
  'colgo',
  'respondio_todo',
  'respondio_parcial',
  'sin_respuesta',
  'leido',
];

const lista = (xs: readonly string[]) =>
  sql.join(
    xs.map((x) => sql.lit(x)),
    sql`, `,
  );

/** Replaces the check of ejercicio_detalle.alcance by one that admits 'leido'. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const valores = lista(ALCANCES);
  if (engine === 'postgres') {
    const checks = await sql<{ conname: string }>`select conname from pg_constraint
      where conrelid = 'ejercicio_detalle'::regclass and contype = 'c'
        and pg_get_constraintdef(oid) like '%alcance%'`.execute(db);
    for (const c of checks.rows)
      await sql`alter table ejercicio_detalle drop constraint ${sql.id(c.conname)}`.execute(db);
    await sql`alter table ejercicio_detalle add constraint ejercicio_detalle_alcance_check
      check (alcance in (${valores}))`.execute(db);
    return;
  }
  // SQLite cannot change a check: a new column with the wide one takes the values, the old
  // column (its check is its own, and no index names it) is dropped and the new one renamed.
  await sql`alter table ejercicio_detalle add column alcance_nuevo varchar(20)
    check (alcance_nuevo in (${valores}))`.execute(db);
  await sql`update ejercicio_detalle set alcance_nuevo = alcance where alcance is not null`.execute(
    db,
  );
  await sql`alter table ejercicio_detalle drop column alcance`.execute(db);
  await sql`alter table ejercicio_detalle rename column alcance_nuevo to alcance`.execute(db);
}
