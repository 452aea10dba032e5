import type { Eventos } from './eventos.ts';
import type { Db } from '@pregon/db/database';
import type { Anfitrion } from './anfitrion.ts';
import type { ConfigDespachador } from './config.ts';
import { Despachador, type Bitacora } from './despachador.ts';
import type { Store } from './store.ts';
import { storePostgres } from './store-postgres.ts';
import { storeSqlite } from './store-sqlite.ts';

// The entry of the dispatcher's package (@pregon/despacho, issue 44.1): what the api's services,
// config and start-up may use; the package's other modules are for its tests and the api's
// (eslint.config.js). It imports no api module: what the engine needs from its host comes in as
// an Anfitrion (anfitrion.ts). The api's binding (apps/api/src/dispatcher/index.ts) passes the
// api's own and re-exports this.
export type { Anfitrion } from './anfitrion.ts';
export {
  canalDe,
  credencial,
  leerCredenciales,
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
export type { Bitacora, Despachador } from './despachador.ts';
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
export { encolarAcuse, encolarSuelto, type AcusePorRespuesta } from './store-sueltos.ts';
export { cerrarPartesVencidas, guardarRespuesta } from './store-respuestas.ts';
export type { Store } from './store.ts';
export type { Eventos } from './eventos.ts';

/** A running dispatcher; stop() lets in-flight sends finish. */
export interface DespachadorEnMarcha {
  detener(): Promise<void>;
  /** True from its start until it is stopped (GET /health). */
  enMarcha(): boolean;
}

/** The dispatcher's store for the database's engine (the one place the engine is chosen), with
 * its host's audit rows and reply matching. */
export function storePara(db: Db, anfitrion: Anfitrion): Store {
  return db.engine === 'postgres' ? storePostgres(db, anfitrion) : storeSqlite(db, anfitrion);
}

/** A log that writes to stderr unless the level is 'silent'. */
export function bitacoraConsola(nivel: string): Bitacora | undefined {
  if (nivel === 'silent') return undefined;
  return {
    info: (t) => console.log(`[despachador] ${t}`),
    error: (t) => console.error(`[despachador] ${t}`),
  };
}

/** Starts a dispatcher over `db` for the host `anfitrion`; on SQLite it is the only one and
 * recovers rows left en_curso at once. */
export async function arrancarDespachador(
  db: Db,
  config: ConfigDespachador,
  opts: { anfitrion: Anfitrion; eventos?: Eventos; bitacora?: Bitacora },
): Promise<DespachadorEnMarcha & { despachador: Despachador }> {
  const { anfitrion, ...resto } = opts;
  const despachador = new Despachador(storePara(db, anfitrion), config, {
    ...resto,
    unico: db.engine === 'sqlite',
    // Issue 45.1: the devices' ports are leased in the database (capacidad-equipo.ts).
    db,
  });
  await despachador.iniciar();
  return {
    despachador,
    detener: () => despachador.detener(),
    enMarcha: () => despachador.enMarcha,
  };
}
