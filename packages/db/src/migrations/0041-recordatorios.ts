import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Reminders of a poll (issue 46.2): an SMS or WhatsApp poll exercise re-asks whoever it reached
// and has no current answer, `recordatorio_minutos` after it (or its previous reminder) finished
// sending, at most `recordatorios_max` times (0 = none: what the SPEC's client gets, it sends
// neither). Each reminder is a follow-up link of the chain (origen_id = the link it follows),
// created and started by the scheduler (programador.ts, services/recordatorios.ts):
//  - on the poll exercise: the two settings, and `recordatorios_hechos`, how many reminders the
//    scheduler made; a process takes reminder n with one UPDATE … WHERE recordatorios_hechos =
//    n - 1, so exactly one of several schedulers makes it;
//  - on a reminder: `recordatorio_de` (the poll exercise it re-asks) and `recordatorio_n` (1..M);
//    unique together, a second guard against a reminder made twice.

/** Adds the reminder columns to ejercicios and the unique index of a poll's reminders. */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('ejercicios').addColumn('recordatorio_minutos', 'integer').execute();
  await db.schema
    .alterTable('ejercicios')
    .addColumn('recordatorios_max', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('ejercicios')
    .addColumn('recordatorios_hechos', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('ejercicios').addColumn('recordatorio_de', 'integer').execute();
  await db.schema.alterTable('ejercicios').addColumn('recordatorio_n', 'integer').execute();
  await db.schema
    .createIndex('ejercicios_recordatorio_unico')
    .on('ejercicios')
    .columns(['recordatorio_de', 'recordatorio_n'])
    .unique()
    .where(sql.ref('recordatorio_de'), 'is not', null)
    .execute();
}
