import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import type { DB } from './schema.ts';

/** Which engine a database handle talks to; the only place SQLite/PostgreSQL differ. */
export type Engine = 'sqlite' | 'postgres';

/** An open database: the Kysely handle, its engine, and a way to close it. */
export interface Db {
  kysely: Kysely<DB>;
  engine: Engine;
  /** The raw better-sqlite3 handle (SQLite only), for bulk paths that need prepared statements. */
  sqlite?: Database.Database;
  /** The pg pool (PostgreSQL only), for COPY and LISTEN/NOTIFY. */
  pool?: pg.Pool;
  /** Runs `f` when the database closes, before its connections (a thread reading the file). */
  alCerrar?(f: () => Promise<void>): void;
  close(): Promise<void>;
}

// PostgreSQL returns int8/numeric as strings; our ids, counts and epoch-ms times fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/** Opens SQLite at `file` (WAL, foreign keys on) or PostgreSQL when `databaseUrl` is given. */
export function openDb(opts: {
  databaseUrl?: string;
  sqliteFile?: string;
  onPoolError?: (err: Error) => void;
}): Db {
  if (opts.databaseUrl) {
    // JIT off on every connection (sent at connect, as `-c jit=off`): the product's statements
    // are short and index-driven, and PostgreSQL compiles (LLVM) any statement whose estimate
    // passes jit_above_cost, on every run. The dispatcher's lease sweep, estimated high on a
    // large drill, spent 300-700 ms compiling each time for 0 rows (docs/despachador.md). A
    // DATABASE_URL that names its own `options` replaces this one.
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      options: '-c jit=off',
    });
    // An idle connection dropped by the server (restart, failover, a dropped database) must not
    // crash the process: pg emits it on the pool, and an unhandled 'error' event is fatal.
    // The next query opens a new connection.
    pool.on('error', (err) => {
      if (opts.onPoolError) opts.onPoolError(err);
      else console.error(`PostgreSQL: conexión inactiva perdida: ${err.message}`);
    });
    const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, engine: 'postgres', pool, close: () => kysely.destroy() };
  }
  const file = opts.sqliteFile ?? path.resolve('data/pregon.db');
  if (file !== ':memory:') soloDelDueno(file);
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  if (file !== ':memory:')
    for (const f of [`${file}-wal`, `${file}-shm`]) if (fs.existsSync(f)) apretar(f);
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<DB>({
    dialect: new SqliteDialect({ database: conSentenciasGuardadas(sqlite) }),
  });
  const cierres: (() => Promise<void>)[] = [];
  return {
    kysely,
    engine: 'sqlite',
    sqlite,
    alCerrar: (f) => cierres.push(f),
    close: async () => {
      for (const f of cierres.splice(0)) await f();
      await kysely.destroy();
    },
  };
}

/** The SQLite file and its folder readable by this user only (issue 49.4: they hold sessions and
 * device credentials): a new folder is made 0700, the file created or tightened to 0600 before
 * SQLite opens it. SQLite gives its -wal and -shm files the mode of the database file; openDb
 * tightens ones left from before. An existing folder keeps its mode (it may be shared). */
function soloDelDueno(file: string): void {
  const dir = path.dirname(file);
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
  }
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  if ((fs.statSync(file).mode & 0o077) !== 0) apretar(file);
}

/** chmod 0600, ignored when this user does not own the file (its owner chose its mode). */
function apretar(file: string): void {
  try {
    fs.chmodSync(file, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') throw e;
  }
}

/** Most prepared statements kept per SQLite database. */
const SENTENCIAS_GUARDADAS = 500;

/** better-sqlite3 for Kysely, keeping the prepared statements of the SENTENCIAS_GUARDADAS most
 * recent SQL texts. Kysely prepares every query anew, and on SQLite preparing costs about half of
 * running a short indexed query (measured: a 21-row keyset page of the phones, 57 µs prepared each
 * time against 37 µs reused). Queries are parameterised, so the texts repeat. A statement still
 * being iterated (a stream) is busy: a second use of its text gets a fresh one. */
function conSentenciasGuardadas(db: Database.Database): SqliteDatabase {
  const guardadas = new Map<string, Database.Statement>();
  return {
    close: () => db.close(),
    prepare(texto) {
      const guardada = guardadas.get(texto);
      if (guardada && !guardada.busy) {
        // Most recently used last: the first key is the one to drop.
        guardadas.delete(texto);
        guardadas.set(texto, guardada);
        return guardada;
      }
      const nueva = db.prepare(texto);
      if (!guardada) {
        guardadas.set(texto, nueva);
        if (guardadas.size > SENTENCIAS_GUARDADAS) guardadas.delete(guardadas.keys().next().value!);
      }
      return nueva;
    },
  };
}

/** Current time in epoch milliseconds, as stored in every time column. */
export const ahora = (): number => Date.now();

/** True when an error is a foreign-key violation (a row still referenced), on either engine. */
export function esViolacionLlaveForanea(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** True when an error is a unique-constraint violation, on either engine. */
export function esViolacionUnica(err: unknown): boolean {
  const e = err as { code?: string };
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** Checks the connection answers; used by /health. */
export async function ping(db: Db): Promise<boolean> {
  await sql`select 1`.execute(db.kysely);
  return true;
}
