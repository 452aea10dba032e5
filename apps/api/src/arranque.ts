import path from 'node:path';
import { openDb, type Db } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { usarClaveCredenciales } from '@pregon/db/credenciales';
import { cargarClaveCredenciales } from '@pregon/servidor/auth/keys';
import { loadConfig, type Config } from './config.ts';
import type { Eventos } from './contexto.ts';
import type { SondasInicio } from './services/ejercicios.ts';
import { puentePostgres } from './vivo/puente-pg.ts';
import {
  arrancarDespachador,
  bitacoraConsola,
  configDespachoDeEntorno,
  type DespachadorEnMarcha,
} from './dispatcher/index.ts';
import {
  arrancarProgramador,
  configProgramadorDeEntorno,
  type OpcionesProgramador,
  type Programador,
} from './programador.ts';

// The composition root of the api's server processes (issue 44.4): the api (`npm start`, with
// its embedded dispatcher or, DESPACHO_EN_API=0, without) and the standalone dispatcher (`npm run
// dispatcher`) open the database, the event bus's PostgreSQL bridge, the dispatcher and the
// scheduler, and shut down, through these functions, in the same order; main.ts and
// main-despachador.ts only say which parts they have. This module imports no HTTP server
// (server.ts imports it), so the standalone bundle carries none. The telephony agent (apps/pbx)
// keeps its own start: it opens no database and runs none of these parts.

/** The configuration of a server process, read once from the environment; the product's time
 * zone becomes the process's (TZ). */
export function configuracion(): Config {
  const config = loadConfig();
  process.env.TZ = config.tz;
  return config;
}

/** Opens a server process's database: PostgreSQL when DATABASE_URL is set, else SQLite in
 * DATA_DIR; migrated; with the key that encrypts devices' credentials at rest (credenciales.key
 * in DATA_DIR: a standalone dispatcher on another host needs a copy of the api's). */
export async function abrirBase(config: Config): Promise<Db> {
  const db = openDb({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'pregon.db'),
  });
  await migrate(db);
  usarClaveCredenciales(cargarClaveCredenciales(config.dataDir));
  return db;
}

/** On PostgreSQL, the LISTEN/NOTIFY bridge that carries every process's events (a dispatcher's
 * progress, completion and automatic pause; an api's start or pause) into `eventos`, and this
 * process's out; undefined on SQLite (one process). `avisar` hears a dropped connection. */
export async function puenteEventos(
  db: Db,
  eventos: Eventos,
  avisar: (err: unknown) => void,
): Promise<{ cerrar(): Promise<void> } | undefined> {
  return db.engine === 'postgres' ? puentePostgres(db, eventos, avisar) : undefined;
}

/** What a server process runs beside its HTTP server, if it has one: the dispatcher (when
 * `despachador`; DESPACHO_* variables tune it) and the scheduler of automatic starts (issue
 * 24.3: every api and dispatcher process looks; one starts each exercise), in that order. */
export async function arrancarTrabajos(
  ctx: { db: Db; eventos: Eventos; config: Config; sondas: SondasInicio },
  o: { despachador: boolean; comprobacion: OpcionesProgramador['comprobacion'] },
): Promise<{ despachador?: DespachadorEnMarcha; programador: Programador }> {
  const bitacora = bitacoraConsola(ctx.config.logLevel);
  const despachador = o.despachador
    ? await arrancarDespachador(
        ctx.db,
        configDespachoDeEntorno(process.env, { tz: ctx.config.tz }),
        { eventos: ctx.eventos, bitacora },
      )
    : undefined;
  const programador = arrancarProgramador(ctx, {
    config: configProgramadorDeEntorno(process.env),
    comprobacion: o.comprobacion,
    bitacora,
  });
  return { despachador, programador };
}

/** The one shutdown sequence: on the first SIGINT or SIGTERM each part stops, one after the
 * other in the order given (absent parts skipped: first what starts new work, the database
 * last), then the process exits. */
export function alCerrar(paradas: ReadonlyArray<(() => Promise<unknown>) | undefined>): void {
  let cerrando = false;
  const cerrar = async () => {
    if (cerrando) return;
    cerrando = true;
    for (const parar of paradas) await parar?.();
    process.exit(0);
  };
  process.once('SIGINT', cerrar);
  process.once('SIGTERM', cerrar);
}
