import path from 'node:path';
import { configDespachoDeEntorno } from './dispatcher/config.ts';

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
  /** Base URL of the PBX agent (PBX_BASE), asked whether a call's audio is there; unset skips it. */
  pbxBase: string | undefined;
  /** The call retry policy an exercise gets when it sets none (the dispatcher's DESPACHO_LLAMADA_*),
   * shown by GET /config/: extra attempts and minutes between them. */
  llamadas: { reintentos: number; espera_reintento: number };
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
    pbxBase: env.PBX_BASE || undefined,
    llamadas: politicaLlamadas(env),
  };
}

/** The dispatcher's default call retry policy as GET /config/ shows it. */
function politicaLlamadas(env: NodeJS.ProcessEnv) {
  const c = configDespachoDeEntorno(env);
  return {
    reintentos: c.reintentosLlamada,
    espera_reintento: Math.round(c.esperaLlamadaMs / 60_000),
  };
}
