import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Attempts counted when a send leaves for the gateway, not when its row is claimed (issue 23.2,
// 23.6). `salio` is set, with intentos + 1, right before the submit_sm, the Originate or the
// HTTP request is written; a row left en_curso with salio 0 was never sent and goes back to
// 'pendiente' after a crash instead of 'incierto'. `contestada_en` keeps the moment a call was
// answered, so a call followed again after a restart counts its talk time from the answer.
// `en_espera` is the dispatcher's note while the device's gateway cannot be reached ('En espera:
// sin conexión con … desde …'), shown by the list and the dashboard.

/** Adds ejercicio_detalle.salio and contestada_en, ejercicios.en_espera. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .alterTable('ejercicio_detalle')
    .addColumn('salio', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('ejercicio_detalle')
    .addColumn('contestada_en', engine === 'postgres' ? 'bigint' : 'integer')
    .execute();
  await db.schema.alterTable('ejercicios').addColumn('en_espera', 'varchar(300)').execute();
  // Rows in flight when this migration runs were claimed under the old rule (intentos counted at
  // claim): treat them as sent, so nothing changes for them.
  await db
    .updateTable('ejercicio_detalle' as never)
    .set({ salio: 1 } as never)
    .where('estatus' as never, '=', 'en_curso' as never)
    .execute();
}
