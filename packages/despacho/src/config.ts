/** Every knob of the dispatcher in one place, with its default (README: DESPACHO_* variables). */
export interface ConfigDespachador {
  /** Rows claimed per query at most. */
  lote: number;
  /** Milliseconds a claimed row stays leased to its dispatcher before another may recover it. */
  leaseMs: number;
  /** Attempts per recipient before it is 'fallido'. */
  maxIntentos: number;
  /** First retry delay; doubles on each attempt up to backoffMaxMs. */
  backoffMs: number;
  /** Longest retry delay. */
  backoffMaxMs: number;
  /** Consecutive gateway errors on one exercise that pause it automatically (0 = never). */
  maxErroresConsecutivos: number;
  /** Consecutive 'try again' errors that open the circuit breaker: from then on the gateway is
   * probed with one row per backoff step until a send is accepted. */
  erroresParaSondear: number;
  /** Idle poll period when no event arrives (ms). */
  sondeoMs: number;
  /** Period of outcome writes (ms); outcomes are written in batches. */
  escrituraMs: number;
  /** Period of the lease-recovery sweep (ms). */
  recuperacionMs: number;
  /** Timeout of one send (ms); must stay below leaseMs. */
  timeoutEnvioMs: number;
  /** Outstanding SMPP submit_sm per connection. */
  ventanaSmpp: number;
  /** Seconds between SMPP enquire_link. */
  enquireLinkS: number;
  /** Ring time of a call before it counts as not answered (Originate's Timeout), ms. */
  timbreMs: number;
  /** Calls: how long past its ring time (no answer to its Originate) or past its absolute length
   * (no hangup) a call Asterisk says nothing of is waited for, ms, before it is 'incierto'. */
  margenLlamadaMs: number;
  /** More attempts for a busy or unanswered call (ARCHITECTURE 6: 2). */
  reintentosLlamada: number;
  /** Wait before calling a busy or unanswered recipient again, ms (10 minutes). */
  esperaLlamadaMs: number;
  /** Android gateway: messages waiting on the phone (state Pending) before sends wait for it to
   * work its queue, so a stop or pause has little left to cancel there. */
  androidCola: number;
  /** Android gateway: first read of a message's state after it is accepted (ms); also the period
   * of the phone's queue reads while sends wait. */
  androidSondeoMs: number;
  /** Android gateway: longest period between two reads of one message's state (the period
   * doubles while nothing changes). */
  androidSondeoMaxMs: number;
  /** Android gateway: a message Sent without a delivery report this long (ms) is final: its row
   * stays 'enviado' and nobody reads it again. */
  androidEsperaEntregaMs: number;
  /** Android gateway: seconds a message may wait on the phone before it expires instead of going
   * out late (`ttl`; 0 = never; the device's credential `ttl` overrides it). */
  androidTtlS: number;
  /** While a device's gateway cannot be reached, its exercises wait ('En espera') this long (ms)
   * before they pause themselves; the operator resumes them with Start (0 = never). */
  pausaSinConexionMs: number;
  /** While an exercise waits for its gateway, the gateway is probed this often (ms): sending
   * resumes within this period of the gateway answering again. */
  sondeoConexionMs: number;
  /** Time zone of fecha_envio / hora_envio. */
  tz: string;
}

/** The defaults: safe for a real gateway and fast enough for the simulators. */
export const CONFIG_DESPACHO_DEFECTO: ConfigDespachador = {
  lote: 500,
  leaseMs: 60_000,
  maxIntentos: 8,
  backoffMs: 1_000,
  backoffMaxMs: 60_000,
  // Consecutive gateway errors before the automatic pause. An outage costs one probe per backoff
  // step (circuit breaker), so 20 is about 15 minutes of a dead gateway with the default backoff.
  maxErroresConsecutivos: 20,
  erroresParaSondear: 3,
  sondeoMs: 1_000,
  escrituraMs: 50,
  recuperacionMs: 5_000,
  timeoutEnvioMs: 15_000,
  ventanaSmpp: 100,
  enquireLinkS: 30,
  timbreMs: 30_000,
  margenLlamadaMs: 30_000,
  reintentosLlamada: 2,
  esperaLlamadaMs: 10 * 60_000,
  androidCola: 20,
  androidSondeoMs: 1_000,
  androidSondeoMaxMs: 60_000,
  androidEsperaEntregaMs: 10 * 60_000,
  androidTtlS: 3_600,
  pausaSinConexionMs: 5 * 60_000,
  sondeoConexionMs: 1_000,
  tz: 'America/Mexico_City',
};

const VARIABLES: Record<Exclude<keyof ConfigDespachador, 'tz'>, string> = {
  lote: 'DESPACHO_LOTE',
  leaseMs: 'DESPACHO_LEASE_MS',
  maxIntentos: 'DESPACHO_MAX_INTENTOS',
  backoffMs: 'DESPACHO_BACKOFF_MS',
  backoffMaxMs: 'DESPACHO_BACKOFF_MAX_MS',
  maxErroresConsecutivos: 'DESPACHO_MAX_ERRORES',
  erroresParaSondear: 'DESPACHO_ERRORES_SONDEO',
  sondeoMs: 'DESPACHO_SONDEO_MS',
  escrituraMs: 'DESPACHO_ESCRITURA_MS',
  recuperacionMs: 'DESPACHO_RECUPERACION_MS',
  timeoutEnvioMs: 'DESPACHO_TIMEOUT_MS',
  ventanaSmpp: 'DESPACHO_VENTANA_SMPP',
  enquireLinkS: 'DESPACHO_ENQUIRE_LINK_S',
  timbreMs: 'DESPACHO_TIMBRE_MS',
  margenLlamadaMs: 'DESPACHO_LLAMADA_MARGEN_MS',
  reintentosLlamada: 'DESPACHO_LLAMADA_REINTENTOS',
  esperaLlamadaMs: 'DESPACHO_LLAMADA_ESPERA_MS',
  androidCola: 'DESPACHO_ANDROID_COLA',
  androidSondeoMs: 'DESPACHO_ANDROID_SONDEO_MS',
  androidSondeoMaxMs: 'DESPACHO_ANDROID_SONDEO_MAX_MS',
  androidEsperaEntregaMs: 'DESPACHO_ANDROID_ESPERA_ENTREGA_MS',
  androidTtlS: 'DESPACHO_ANDROID_TTL_S',
  pausaSinConexionMs: 'DESPACHO_PAUSA_SIN_CONEXION_MS',
  sondeoConexionMs: 'DESPACHO_SONDEO_CONEXION_MS',
};

/** Builds the configuration from the environment (DESPACHO_* and TZ) over the defaults. */
export function configDespachoDeEntorno(
  env: NodeJS.ProcessEnv = process.env,
  base: Partial<ConfigDespachador> = {},
): ConfigDespachador {
  const c: ConfigDespachador = {
    ...CONFIG_DESPACHO_DEFECTO,
    tz: env.TZ || CONFIG_DESPACHO_DEFECTO.tz,
    ...base,
  };
  for (const [clave, variable] of Object.entries(VARIABLES) as [keyof typeof VARIABLES, string][]) {
    const v = env[variable];
    if (v === undefined || v === '') continue;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0)
      throw new Error(`${variable} inválido: '${v}' (use un número ≥ 0)`);
    c[clave] = n;
  }
  return c;
}

/** Delay before attempt `intentos + 1`: backoffMs·2^(intentos−1), capped, with ±20 % jitter. */
export function retraso(c: ConfigDespachador, intentos: number): number {
  const base = Math.min(c.backoffMaxMs, c.backoffMs * 2 ** Math.max(0, intentos - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}
