import type { Contexto } from '../contexto.ts';
import type { Eventos } from './eventos.ts';
import type { Db } from '@pregon/db/database';
import { configDespachoDeEntorno, type ConfigDespachador } from './config.ts';
import { Despachador, type Bitacora } from './despachador.ts';
import type { Store } from './store.ts';
import { storePostgres } from './store-postgres.ts';
import { storeSqlite } from './store-sqlite.ts';
import { reintentarWebhooksAndroid } from './webhook-android.ts';
import { avisarEscritas, avisarLeidas } from './leer-respuestas.ts';

// The dispatcher's public surface (issue 44): what the api's services, config and start-up may
// use; everything else in this folder is internal (eslint.config.js). Stage 3 of the issue makes
// this module the entry of the dispatcher's own package.
export {
  canalDe,
  credencial,
  textoError,
  type EquipoCanal,
  type Recibo,
  type RespuestaEntrante,
} from './canal.ts';
export {
  audioEnPbx,
  comprobarEquipo,
  contextoEnAsterisk,
  promptsEnPbx,
  type HuellaAudio,
} from './comprobacion.ts';
export { configDespachoDeEntorno, type ConfigDespachador } from './config.ts';
export {
  busquedaGuardada,
  comprobarDestino,
  destinoLiteralRefusado,
  destinosDeEntorno,
  fijarDestinosPermitidos,
  leerDestinosPermitidos,
  problemaDestinoEquipo,
  type ListaDestinos,
} from './destinos.ts';
export { motivoUrlRefusada, pedirJson, urlGateway } from './http-cliente.ts';
export { encolarAcuse, type AcusePorRespuesta } from './store-sueltos.ts';
export type { Eventos } from './eventos.ts';
export { guardarYLeer } from './leer-respuestas.ts';
export {
  mismoGateway,
  quitarWebhookAndroid,
  registrarWebhookAndroid,
  telefonoRemitente,
  textoSeguro,
  webhookAndroidPendiente,
  webhookRegistrado,
} from './webhook-android.ts';

/** A running dispatcher; stop() lets in-flight sends finish. */
export interface DespachadorEnMarcha {
  detener(): Promise<void>;
  /** True from its start until it is stopped (GET /health). */
  enMarcha(): boolean;
}

/** The dispatcher's store for the database's engine (the one place the engine is chosen). */
export function storePara(db: Db): Store {
  return db.engine === 'postgres' ? storePostgres(db) : storeSqlite(db);
}

/** A log that writes to stderr unless the level is 'silent'. */
export function bitacoraConsola(nivel: string): Bitacora | undefined {
  if (nivel === 'silent') return undefined;
  return {
    info: (t) => console.log(`[despachador] ${t}`),
    error: (t) => console.error(`[despachador] ${t}`),
  };
}

/** Starts a dispatcher over `db`; on SQLite it is the only one and recovers rows left en_curso at once. */
export async function arrancarDespachador(
  db: Db,
  config: ConfigDespachador,
  opts: { eventos?: Eventos; bitacora?: Bitacora } = {},
): Promise<DespachadorEnMarcha & { despachador: Despachador }> {
  const despachador = new Despachador(storePara(db), config, {
    ...opts,
    unico: db.engine === 'sqlite',
    // Issue 45.1: the devices' ports are leased in the database (capacidad-equipo.ts).
    db,
  });
  await despachador.iniciar();
  // Issue 46.3: a case its reply matching opens reaches the live dashboards (over NOTIFY from a
  // standalone process on PostgreSQL).
  const dejarCasos = opts.eventos ? avisarLeidas(db, opts.eventos) : () => {};
  // Issue 46.5: what the matching queued (an acknowledgement, a BAJA's confirmation) is sent as
  // soon as its batch commits.
  const dejarSueltos = avisarEscritas(db, () => despachador.despertarSueltos());
  // Issue 46.1: Android webhooks whose registration failed (or never ran: the demo's devices)
  // are registered again, in the background.
  void reintentarWebhooksAndroid(db, opts.bitacora).catch((err) =>
    opts.bitacora?.error(`webhooks de Android: ${String(err)}`),
  );
  return {
    despachador,
    detener: () => {
      dejarCasos();
      dejarSueltos();
      return despachador.detener();
    },
    enMarcha: () => despachador.enMarcha,
  };
}

/** Starts the in-process dispatcher (ARCHITECTURE section 5) of the embedded default; DESPACHO_*
 * variables tune it (config.ts). */
export async function iniciarDespachador(ctx: Contexto): Promise<DespachadorEnMarcha> {
  return arrancarDespachador(ctx.db, configDespachoDeEntorno(process.env, { tz: ctx.config.tz }), {
    eventos: ctx.eventos,
    bitacora: bitacoraConsola(ctx.config.logLevel),
  });
}
