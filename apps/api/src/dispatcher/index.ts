import type { Db } from '@pregon/db/database';
import {
  arrancarDespachador as arrancarMotor,
  type Bitacora,
  type ConfigDespachador,
  type Despachador,
  type DespachadorEnMarcha,
  type Eventos,
} from '@pregon/despacho';
import { anfitrionApi, storePara } from '../services/despacho.ts';
import { avisarEscritas, avisarLeidas } from '../services/leer-respuestas.ts';
import { reintentarWebhooksAndroid } from '../services/webhook-android.ts';

// The api's binding of the dispatcher (issue 44.1): the engine (@pregon/despacho) imports no api
// module; this module gives it the api as its host (services/despacho.ts: the audit rows, the
// reply matching), and around its start the api's own tasks that run beside it (the matching's
// events, the Android webhooks' retry). The api's start-up (arranque.ts), its tests and benches
// start the dispatcher from here; the api's services use the package's entry, never this module
// (it imports them).
export * from '@pregon/despacho';
export { storePara };

/** Starts a dispatcher over `db` with the api as its host; on SQLite it is the only one and
 * recovers rows left en_curso at once. */
export async function arrancarDespachador(
  db: Db,
  config: ConfigDespachador,
  opts: { eventos?: Eventos; bitacora?: Bitacora } = {},
): Promise<DespachadorEnMarcha & { despachador: Despachador }> {
  const d = await arrancarMotor(db, config, { ...opts, anfitrion: anfitrionApi });
  // Issue 46.3: a case its reply matching opens reaches the live dashboards (over NOTIFY from a
  // standalone process on PostgreSQL).
  const dejarCasos = opts.eventos ? avisarLeidas(db, opts.eventos) : () => {};
  // Issue 46.5: what the matching queued (an acknowledgement, a BAJA's confirmation) is sent as
  // soon as its batch commits.
  const dejarSueltos = avisarEscritas(db, () => d.despachador.despertarSueltos());
  // Issue 46.1: Android webhooks whose registration failed (or never ran: the demo's devices)
  // are registered again, in the background.
  void reintentarWebhooksAndroid(db, opts.bitacora).catch((err) =>
    opts.bitacora?.error(`webhooks de Android: ${String(err)}`),
  );
  return {
    ...d,
    detener: () => {
      dejarCasos();
      dejarSueltos();
      return d.detener();
    },
  };
}
