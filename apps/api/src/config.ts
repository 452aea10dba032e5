import net from 'node:net';
import type { PoliticaReintentos } from '@pregon/contract/rules/reintentos';
import path from 'node:path';
import { IDIOMA_DEFECTO, idiomaValido } from '@pregon/contract/rules/dialplan';
import {
  APROBACION_EXPIRA_MIN_DEFECTO,
  CATEGORIA_PRUEBA_DEFECTO,
  MARCA_SIMULACRO_DEFECTO,
  VENTANA_ENCUESTA_HORAS,
} from '@pregon/contract/constants';
import { configDespachoDeEntorno } from '@pregon/despacho';
import { destinosDeEntorno, type ListaDestinos } from '@pregon/despacho';

/** Runtime configuration, read once from the environment; every value has a default (see README). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminUser: string;
  adminPassword: string | undefined;
  tz: string;
  tokenTtlSeconds: number;
  webDist: string | undefined;
  logLevel: string;
  /** The telephony agent as the web app reaches it (GET /config/): base URL and software name. */
  pbx: { base: string; software: string };
  /** Pre-start check of a device's gateway: timeout in ms (COMPROBACION_EQUIPO_MS; 0 skips it). */
  comprobacionEquipoMs: number;
  /** Issue 48.4: how long the web waits for the telephony agent's answer to one call
   * (PLAZO_AGENTE_S, default 30 s; GET /config/ gives it): a frozen agent never holds a dialog. */
  plazoAgenteS: number;
  /** Base URL of the PBX agent (PBX_BASE), asked whether a call's audio is there; unset skips it. */
  pbxBase: string | undefined;
  /** The prompts' language the rendered dialplan sets (PBX_IDIOMA, default 'es'); Start asks the
   * agent whether Asterisk's prompts the dialplan plays exist in it. */
  pbxIdioma: string;
  /** The call retry policy an exercise gets when it sets none (the dispatcher's DESPACHO_LLAMADA_*),
   * shown by GET /config/: extra attempts and minutes between them. */
  llamadas: PoliticaReintentos & { espera_reintento: number };
  /** Issue 45.5: the dispatcher's wait for a device that does not answer, in seconds, for the
   * exercises that set none (DESPACHO_PAUSA_SIN_CONEXION_MS; GET /config/ shows it). */
  esperaEquipoS: number;
  /** The proxies allowed to report a client's address in X-Forwarded-For (TRUST_PROXY):
   * addresses, CIDR ranges or proxy-addr's names; empty trusts none. */
  trustProxy: string[];
  /** The simulators' control server (SIM_CONTROL_URL, set by `npm start`), watched by /health;
   * unset when this installation runs no simulators. */
  simControl: string | undefined;
  /** Live streams one session may hold open at once on this api process (VIVO_FLUJOS_POR_SESION,
   * default 20); the next is answered 429 (issue 49.4). */
  vivoFlujosPorSesion: number;
  /** Issue 46.2: ms a reply still counts for the latest poll sent to its number
   * (ENCUESTA_VENTANA_HORAS, default 72 h). */
  ventanaEncuestaMs: number;
  /** Loopback, link-local and private destinations a device's url may reach
   * (EQUIPOS_DESTINOS_PERMITIDOS; default: the built-in simulators' ports). */
  destinosPermitidos: ListaDestinos;
  /** Issue 46.1: the api's base URL as the gateways reach it (URL_WEBHOOKS, default
   * http://127.0.0.1:$PORT): Android devices' phones are given {base}/webhooks/android/{id}/. */
  urlWebhooks: string;
}

/** Parses a duration such as '8h', '30m', '3600' (seconds) or '2d' into seconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+)\s*([smhd]?)$/.exec(text.trim());
  if (!m) throw new Error(`TOKEN_TTL inválido: '${text}' (use por ejemplo 3600, 30m, 8h o 1d)`);
  const n = Number(m[1]);
  const unit = m[2] || 's';
  return n * { s: 1, m: 60, h: 3600, d: 86400 }[unit as 's' | 'm' | 'h' | 'd'];
}

/** A whole number ≥ 0 from an environment variable, or a Spanish error naming it. */
function enteroNoNegativo(texto: string, nombre: string): number {
  const n = Number(texto);
  if (!/^\d+$/.test(texto.trim()) || !Number.isSafeInteger(n))
    throw new Error(`${nombre} inválido: '${texto}'`);
  return n;
}

/** A whole number of `unidad` from 1 to `max` in the variable `nombre` (`defecto` when unset or
 * blank); anything else stops the start, naming the variable, the value and the range. */
function enteroEnRango(
  env: NodeJS.ProcessEnv,
  nombre: string,
  defecto: number,
  max: number,
  unidad: 'horas' | 'minutos',
): number {
  const texto = env[nombre]?.trim() || String(defecto);
  const n = enteroNoNegativo(texto, nombre);
  if (n < 1 || n > max)
    throw new Error(`${nombre} inválido: '${texto}' (${unidad} enteras de 1 a ${max})`);
  return n;
}

/** Names proxy-addr (Fastify's trustProxy) gives to the usual private ranges. */
const RANGOS_CON_NOMBRE = ['loopback', 'linklocal', 'uniquelocal'];

/** Parses TRUST_PROXY: a comma-separated list of addresses ('127.0.0.1', '::1'), CIDR ranges
 * ('10.0.0.0/8', 'fd00::/8') or 'loopback', 'linklocal', 'uniquelocal'; unset or empty trusts no
 * proxy. Anything else ('true', '*', a host name) is refused with a Spanish error naming it. */
export function parseTrustProxy(texto: string | undefined): string[] {
  const partes = (texto ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const p of partes) {
    if (RANGOS_CON_NOMBRE.includes(p)) continue;
    const [ip, prefijo, sobra] = p.split('/');
    const version = net.isIP(ip ?? '');
    const maximo = version === 4 ? 32 : 128;
    const prefijoValido =
      prefijo === undefined || (/^\d{1,3}$/.test(prefijo) && Number(prefijo) <= maximo);
    if (!version || !prefijoValido || sobra !== undefined)
      throw new Error(
        `TRUST_PROXY inválido: '${p}' (use las direcciones o rangos CIDR de sus proxies, separados por comas, por ejemplo 127.0.0.1,10.0.0.0/8)`,
      );
  }
  return partes;
}

/** Builds the configuration from an environment (process.env by default). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT inválido: '${env.PORT}'`);
  }
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    adminUser: env.ADMIN_USER || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    tz: env.TZ || 'America/Mexico_City',
    tokenTtlSeconds: parseDuration(env.TOKEN_TTL ?? '8h'),
    webDist: env.WEB_DIST,
    logLevel: env.LOG_LEVEL ?? 'info',
    pbx: {
      base: (env.PBX_BASE ?? `http://127.0.0.1:${env.PBX_PORT ?? 8090}`).replace(/\/+$/, ''),
      software: (env.PBX_SOFTWARE ?? 'asterisk').toLowerCase(),
    },
    comprobacionEquipoMs: enteroNoNegativo(
      env.COMPROBACION_EQUIPO_MS ?? '3000',
      'COMPROBACION_EQUIPO_MS',
    ),
    plazoAgenteS: Math.max(1, enteroNoNegativo(env.PLAZO_AGENTE_S ?? '30', 'PLAZO_AGENTE_S')),
    pbxBase: env.PBX_BASE || undefined,
    pbxIdioma: idiomaPbx(env.PBX_IDIOMA),
    llamadas: politicaLlamadas(env),
    esperaEquipoS: Math.round(configDespachoDeEntorno(env).pausaSinConexionMs / 1000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    simControl: env.SIM_CONTROL_URL?.replace(/\/+$/, '') || undefined,
    vivoFlujosPorSesion: Math.max(
      1,
      enteroNoNegativo(env.VIVO_FLUJOS_POR_SESION ?? '20', 'VIVO_FLUJOS_POR_SESION'),
    ),
    destinosPermitidos: destinosDeEntorno(env),
    ventanaEncuestaMs: ventanaEncuestaMs(env),
    urlWebhooks: baseWebhooks(env),
  };
}

/** Issue 46.1: the api's base URL as the gateways reach it, for the webhooks Pregón registers on
 * them: URL_WEBHOOKS, else http://127.0.0.1:$PORT (the demo's simulators on loopback). A real
 * phone needs an https URL it can reach. */
export function baseWebhooks(env: NodeJS.ProcessEnv = process.env): string {
  const b = env.URL_WEBHOOKS?.trim();
  return (b || `http://127.0.0.1:${env.PORT || 8080}`).replace(/\/+$/, '');
}

/** PBX_IDIOMA checked: only a language name Asterisk knows can reach the dialplan. */
function idiomaPbx(texto: string | undefined): string {
  const idioma = texto || IDIOMA_DEFECTO;
  if (!idiomaValido(idioma))
    throw new Error(
      `PBX_IDIOMA inválido: '${idioma}' (un idioma de Asterisk: es, es_MX, en_US_f_Allison…)`,
    );
  return idioma;
}

/** The dispatcher's default call retry policy as GET /config/ shows it. */
function politicaLlamadas(env: NodeJS.ProcessEnv) {
  const c = configDespachoDeEntorno(env);
  return {
    reintentos: c.reintentosLlamada,
    espera_reintento: Math.round(c.esperaLlamadaMs / 60_000),
    espera_reintento_s: Math.round(c.esperaLlamadaMs / 1000),
    intentos_red: c.maxIntentos,
    espera_red_min_s: Math.round(c.backoffMs / 1000),
    espera_red_max_s: Math.round(c.backoffMaxMs / 1000),
  };
}

/** Issue 46.2: how long (ms) a reply still counts for the latest poll sent to its number
 * (ENCUESTA_VENTANA_HORAS, whole hours 1 to 720, default VENTANA_ENCUESTA_HORAS); read where
 * replies are matched, by the api and the dispatcher alike, and checked at their start. */
export function ventanaEncuestaMs(env: NodeJS.ProcessEnv = process.env): number {
  return (
    enteroEnRango(env, 'ENCUESTA_VENTANA_HORAS', VENTANA_ENCUESTA_HORAS, 720, 'horas') * 3_600_000
  );
}

/** Issue 47.1: the drill marker every drill's SMS and WhatsApp free text begins with
 * (MARCA_SIMULACRO, default 'SIMULACRO: '; set, it is taken as written, trailing space included). */
export function marcaSimulacro(env: NodeJS.ProcessEnv = process.env): string {
  const m = env.MARCA_SIMULACRO;
  return m !== undefined && m.trim() !== '' ? m : MARCA_SIMULACRO_DEFECTO;
}

/** Issue 47.1: the name of the category that is the test list a 'Prueba' exercise reaches
 * (CATEGORIA_PRUEBA, default 'Lista de prueba'). */
export function categoriaPrueba(env: NodeJS.ProcessEnv = process.env): string {
  return env.CATEGORIA_PRUEBA?.trim() || CATEGORIA_PRUEBA_DEFECTO;
}

/** The product's time zone (TZ, America/Mexico_City by default): dates and hours of exercises,
 * scheduled starts included. The api and dispatcher set process.env.TZ from the configuration. */
export const zonaProducto = (): string => process.env.TZ || 'America/Mexico_City';

/** Issue 47.2: minutes an approval request stands before it expires (APROBACION_EXPIRA_MIN,
 * whole minutes 1 to 1440, default 30). */
export function aprobacionExpiraMs(env: NodeJS.ProcessEnv = process.env): number {
  return (
    enteroEnRango(env, 'APROBACION_EXPIRA_MIN', APROBACION_EXPIRA_MIN_DEFECTO, 1440, 'minutos') *
    60_000
  );
}

/** Issue 47.2: whether one administrator may start an exercise that needs approval without a
 * second person, with a written reason (APROBACION_EMERGENCIA=1; off by default). */
export function emergenciaPermitida(env: NodeJS.ProcessEnv = process.env): boolean {
  return ['1', 'si', 'sí', 'true'].includes((env.APROBACION_EMERGENCIA ?? '').trim().toLowerCase());
}

/** Issue 47.2: a drill or test over this many recipients needs approval too
 * (APROBACION_DESDE_DESTINATARIOS; 0, the default, turns it off: then only real alerts do). */
export function umbralAprobacion(env: NodeJS.ProcessEnv = process.env): number {
  const texto = env.APROBACION_DESDE_DESTINATARIOS?.trim() || '0';
  return enteroNoNegativo(texto, 'APROBACION_DESDE_DESTINATARIOS');
}
