import type { Config } from './config.ts';
import type { Db } from '@pregon/db/database';
import type { ClavesToken } from '@pregon/servidor/auth/keys';
import type { LimitadorIngreso } from './auth/signin-limiter.ts';
import type { SesionesApi } from './auth/sesiones.ts';
import type { ClavesApi } from './services/claves.ts';
import type { ConfigWebhooks } from './services/webhooks-salida.ts';
import type { ConfigFuentesCap } from './services/fuentes-cap.ts';
import type { Eventos } from '@pregon/despacho';
import type { SondasInicio } from './services/ejercicios.ts';

/** Events inside one api process: the dispatcher's event bus (despacho/eventos.ts). */
export type { Eventos };

/** What every route module and service needs, built once in server.ts. */
export interface Contexto {
  config: Config;
  db: Db;
  claves: ClavesToken;
  limitador: LimitadorIngreso;
  /** Server-side sessions: every request confirms its token's session here (issue 22). */
  sesiones: SesionesApi;
  eventos: Eventos;
  /** API keys (issue 47.4): requests with 'Bearer pregon_…' are checked here. */
  clavesApi: ClavesApi;
  /** Outgoing webhooks' settings (issue 47.4; WEBHOOKS_* of the environment). */
  webhooks: ConfigWebhooks;
  /** CAP feeds' settings (issue 47.4; CAP_FUENTES_* of the environment). */
  fuentesCap: ConfigFuentesCap;
  /** The pre-start probes the exercises' service asks the network through (issue 44.5). */
  sondas: SondasInicio;
  /** The dispatcher running in this process (set by main.ts), watched by /health; unset when
   * standalone dispatchers do the work or none was started (tests). */
  despachador?: { enMarcha(): boolean };
}
