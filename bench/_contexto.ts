import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@pregon/api/config';
import { crearContexto } from '@pregon/api/server';
import { crearBasePostgres } from '@pregon/api/testing/entorno';

/** The api's context (database, events, config) as the api opens it, over a fresh database of
 * `engine`: a temporary DATA_DIR `pregon-bench-<nombre>-*` and, on PostgreSQL, a new database.
 * `cerrar` closes it and removes both. The benches that measure the api's services in-process
 * start here. */
export async function contextoDeBench(engine: 'sqlite' | 'postgres', nombre: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `pregon-bench-${nombre}-`));
  const pg = engine === 'postgres' ? await crearBasePostgres() : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'Bench-admin-1',
    LOG_LEVEL: 'silent',
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  });
  const { ctx } = await crearContexto(config);
  return {
    ctx,
    config,
    dataDir,
    cerrar: async () => {
      await ctx.db.close();
      await pg?.borrar();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
