import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { ClavesToken } from './auth/keys.ts';
import type { LimitadorIngreso } from './auth/signin-limiter.ts';

/** What every route module and service needs, built once in server.ts. */
export interface Contexto {
  config: Config;
  db: Db;
  claves: ClavesToken;
  limitador: LimitadorIngreso;
}
