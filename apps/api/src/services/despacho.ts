import type { Db } from '@pregon/db/database';
import { storePara as storeDe, type Anfitrion, type Store } from '@pregon/despacho';
import { auditar } from '../repositories/auditoria.ts';
import { leerPendientes } from './leer-respuestas.ts';

// The api as the dispatcher's host (issue 44.1): the engine imports no api module, and asks its
// host for the two things of the api it needs while it works.

/** The api's side of the dispatcher's store: a completion or automatic pause is written in the
 * audit log (by 'despachador', no user; the audit also queues the webhooks' events), and a reply
 * the store keeps is matched to its poll by the api's reply matching (leer-respuestas.ts). */
export const anfitrionApi: Anfitrion = {
  auditar: (trx, accion, id_ejercicio, detalle) =>
    auditar(trx, null, accion, 'ejercicio', id_ejercicio, detalle),
  leerRespuestas: leerPendientes,
};

/** The dispatcher's store over `db` with the api as its host: what the api's services, tests and
 * benches use. */
export const storePara = (db: Db): Store => storeDe(db, anfitrionApi);
