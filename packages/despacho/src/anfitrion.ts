import type { Transaction } from 'kysely';
import type { Db } from '@pregon/db/database';
import type { DB } from '@pregon/db/schema';

/** The dispatcher's host: what its store asks of the process that runs it (issue 44.1: the engine imports no api module;
 * the api passes its own: apps/api/src/services/despacho.ts). */
export interface Anfitrion {
  /** Writes the audit row of a completion or an automatic pause the dispatcher made, inside the
   * store's transaction (the api's audit log, which also queues its webhooks' events). */
  auditar(
    trx: Transaction<DB>,
    accion: 'completar' | 'pausar',
    id_ejercicio: number,
    detalle: { por: 'despachador'; motivo?: string },
  ): Promise<void>;
  /** Matches the replies stored and still unread (the api's reply matching): called after the
   * store keeps a new reply, without waiting, and by the sweep that closes long replies, which
   * waits and reports its error. Resolves when a pass that read every reply stored before the
   * call has ended. */
  leerRespuestas(db: Db): Promise<unknown>;
}
