import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// How an answered call went (issue 23.4): whether a call's audio reached its end or the callee
// hung up before, and how many of a quiz's questions were answered. The seconds listened are the
// row's talk seconds (duracion). Null for every other outcome and for calls answered before.

const lista = (xs: readonly string[]) =>
  sql.join(
    xs.map((x) => sql.lit(x)),
    sql`, `,
  );

/** The refinements of this step, as they were: a migration's schema must not follow later code
 * (0029 widens the list for a WhatsApp 'read'). */
const ALCANCES = ['escucho', 'colgo', 'respondio_todo', 'respondio_parcial', 'sin_respuesta'];

/** Adds ejercicio_detalle.alcance (one of ALCANCES) and .respondidas (quiz answers). */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .alterTable('ejercicio_detalle')
    .addColumn('alcance', 'varchar(20)', (c) => c.check(sql`alcance in (${lista(ALCANCES)})`))
    .execute();
  await db.schema.alterTable('ejercicio_detalle').addColumn('respondidas', 'integer').execute();
}
