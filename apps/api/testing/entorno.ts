import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../src/config.ts';
import { openDb, type Db, type Engine } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { seed } from '../src/db/seed.ts';
import { buildApp, crearContexto } from '../src/server.ts';
import { fijarDestinosPermitidos } from '@pregon/despacho/destinos';
import type { Contexto } from '../src/contexto.ts';

/** The PostgreSQL server the tests use (the machine's own, trust auth on loopback). */
export const PG_ADMIN_URL =
  process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Both engines; every data-layer and API test runs once per engine. */
export const MOTORES: Engine[] = ['sqlite', 'postgres'];

/** How the names of the databases tests and benchmarks create begin (PREGON_BD_PREFIJO, default
 * 'pregon_test'): runs that share a PostgreSQL server keep theirs apart and can drop them by it. */
export function prefijoBases(env: NodeJS.ProcessEnv = process.env): string {
  const p = env.PREGON_BD_PREFIJO || 'pregon_test';
  if (!/^[a-z_][a-z0-9_]{0,39}$/.test(p))
    throw new Error(
      `PREGON_BD_PREFIJO inválido: '${p}' (minúsculas, dígitos y _, hasta 40, sin empezar con dígito)`,
    );
  return p;
}

/** The URL of database `nombre` on the tests' PostgreSQL server. */
function urlBase(nombre: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${nombre}`;
  return url.toString();
}

/** Creates a PostgreSQL database (empty, or a copy of `plantilla`) and returns its URL and a
 * function that drops it. */
export async function crearBasePostgres(
  plantilla?: string,
): Promise<{ url: string; borrar: () => Promise<void> }> {
  const nombre = `${prefijoBases()}_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${nombre}${plantilla ? ` template ${plantilla}` : ''}`);
  await admin.end();
  const url = new URL(urlBase(nombre));
  return {
    url: url.toString(),
    borrar: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${nombre} with (force)`);
      await c.end();
    },
  };
}

/** Key of the advisory lock under which the migrated template is made. */
const CANDADO_PLANTILLA = 44_0701;
let plantilla: Promise<string> | undefined;

/**
 * The name of a PostgreSQL database with every migration applied and nothing else, made once per
 * set of migrations (its name carries their hash) and shared by every test process: a test's
 * database is a copy of it (CREATE DATABASE … TEMPLATE, ~0.7 s) instead of migrating an empty one
 * (~2.4 s), the same schema and rows either way. Made under an advisory lock, migrated under a
 * temporary name and renamed when complete, so no process copies a half-migrated template.
 */
export function plantillaMigrada(): Promise<string> {
  plantilla ??= (async () => {
    // The database package's migrations (packages/db/src).
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/db/src');
    const h = crypto.createHash('sha256');
    const migraciones = path.join(dir, 'migrations');
    for (const f of fs.readdirSync(migraciones).sort())
      h.update(f).update(fs.readFileSync(path.join(migraciones, f)));
    h.update(fs.readFileSync(path.join(dir, 'migrate.ts')));
    // Migrations read the contract's lists at run time (0001's CHECK of equipos.protocolo reads
    // PROTOCOLOS, estatus ESTATUS_DESTINATARIO): a new protocol or state is a new template too.
    h.update(fs.readFileSync(path.join(dir, '../../contract/src/constants.ts')));
    h.update(fs.readFileSync(path.join(dir, '../../contract/src/protocolos.ts')));
    const nombre = `${prefijoBases()}_plantilla_${h.digest('hex').slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    try {
      await admin.query('select pg_advisory_lock($1)', [CANDADO_PLANTILLA]);
      const hay = await admin.query('select 1 from pg_database where datname = $1', [nombre]);
      if (!hay.rowCount) {
        const tmp = `${nombre}_t${process.pid}`;
        await admin.query(`drop database if exists ${tmp} with (force)`);
        await admin.query(`create database ${tmp}`);
        const db = openDb({ databaseUrl: urlBase(tmp) });
        try {
          await migrate(db);
        } finally {
          await db.close();
        }
        await admin.query(`alter database ${tmp} rename to ${nombre}`);
      }
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [CANDADO_PLANTILLA]).catch(() => {});
      await admin.end();
    }
    return nombre;
  })();
  plantilla.catch(() => (plantilla = undefined));
  return plantilla;
}

/** A fresh PostgreSQL database with every migration applied (a copy of plantillaMigrada). */
export async function crearBasePostgresMigrada() {
  return crearBasePostgres(await plantillaMigrada());
}

/** A fresh, migrated database of the given engine (a SQLite file in a temporary folder, or a
 * PostgreSQL database of its own) and a function that closes and removes it. */
export async function abrirBasePrueba(
  motor: Engine,
): Promise<{ db: Db; limpiar: () => Promise<void> }> {
  if (motor === 'postgres') {
    const base = await crearBasePostgresMigrada();
    const db = openDb({ databaseUrl: base.url });
    await migrate(db);
    return { db, limpiar: async () => (await db.close(), await base.borrar()) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-base-'));
  const db = openDb({ sqliteFile: path.join(dir, 'pregon.db') });
  await migrate(db);
  return {
    db,
    limpiar: async () => (await db.close(), fs.rmSync(dir, { recursive: true, force: true })),
  };
}

/** abrirBasePrueba with the seed (catalogues, admin 'admin' / 'Prueba-admin-1'): what tests that
 * drive the repositories or the dispatcher's store need. */
export async function abrirBaseSembrada(
  motor: Engine,
): Promise<{ db: Db; limpiar: () => Promise<void> }> {
  const base = await abrirBasePrueba(motor);
  await seed(base.db, { adminUser: 'admin', adminPassword: 'Prueba-admin-1' });
  return base;
}

/** The destinations tests allow (EQUIPOS_DESTINOS_PERMITIDOS): all of loopback, where their
 * simulators and gateways listen on random ports. vitest.config.ts gives it to every test's
 * environment too, for tests that build channels without an api. */
export const DESTINOS_PRUEBA = '127.0.0.0/8,::1';

/** A running api on a real socket over a fresh database of the given engine. */
export interface ApiDePrueba {
  app: FastifyInstance;
  ctx: Contexto;
  url: string;
  config: Config;
  adminPassword: string;
  cerrar: () => Promise<void>;
}

/** Starts the api on 127.0.0.1 with a random port, a temp DATA_DIR and a fresh database (its log
 * into `opts.logStream` when given, at the `LOG_LEVEL` of `env`). */
export async function levantarApi(
  motor: Engine,
  env: Record<string, string> = {},
  opts: { logStream?: NodeJS.WritableStream } = {},
): Promise<ApiDePrueba> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-test-'));
  const pgBase = motor === 'postgres' ? await crearBasePostgresMigrada() : undefined;
  const adminPassword = 'Admin-prueba-1';
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: adminPassword,
    LOG_LEVEL: 'silent',
    // Test devices point at closed ports; tests of the pre-start check turn it on.
    COMPROBACION_EQUIPO_MS: '0',
    // Test gateways listen on loopback at random ports (tests of the rule narrow it).
    EQUIPOS_DESTINOS_PERMITIDOS: DESTINOS_PRUEBA,
    ...(pgBase ? { DATABASE_URL: pgBase.url } : {}),
    ...env,
  });
  // The channels, probes and test sends of this process check the api's list.
  fijarDestinosPermitidos(config.destinosPermitidos);
  const { ctx } = await crearContexto(config);
  const app = await buildApp(ctx, opts);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    app,
    ctx,
    config,
    adminPassword,
    url: `http://127.0.0.1:${port}`,
    cerrar: async () => {
      await app.close();
      await ctx.db.close();
      await pgBase?.borrar();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A small fetch wrapper for tests: JSON in, {status, body, headers} out. */
export async function pedir(
  base: string,
  method: string,
  ruta: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = opts.token;
  let body: string | undefined;
  if (opts.rawBody !== undefined) {
    body = opts.rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(base + ruta, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Signs in and returns the token. */
export async function ingresar(
  api: ApiDePrueba,
  usuario = 'admin',
  password = api.adminPassword,
): Promise<string> {
  const r = await pedir(api.url, 'POST', '/auth/signin/', { body: { usuario, password } });
  if (r.status !== 200) throw new Error(`ingreso falló: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token as string;
}
