import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openDb, type Db } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { seed } from '@pregon/api/db/seed';
import { archivoLlamadas } from '@pregon/api/services/telefonia';
import { crearBasePostgres } from '@pregon/api/testing/entorno';
import { SimuladorAmi, type Guion } from '@pregon/simulators/ami';
import { tonoGsm } from '@pregon/api/testing/audio';

// Shared set-up of the telephony benchmarks: a database (SQLite file or a fresh PostgreSQL
// database), the AMI simulator in this process running the dialplan the api generates, a short
// GSM prompt made with sox, and a bare AMI socket for the baselines.

/** Credentials of the simulated AMI user. */
export const AMI = { usuario: 'pregon', secreto: 'ami-secreto', troncal: 'demo' };

/** What a telephony benchmark runs against; `cerrar` removes all of it. */
export interface EntornoLlamadas {
  db: Db;
  sim: SimuladorAmi;
  dir: string;
  /** Writes the calls dialplan for the exercises now in the database and reloads it. */
  escribirPlan(): Promise<void>;
  cerrar(): Promise<void>;
}

/** Starts the database and the AMI simulator; `audioS` is the prompt's length in seconds, played
 * `velocidad` times faster than real time (so a call lasts about audioS / velocidad). */
export async function entornoLlamadas(o: {
  engine: string;
  audioS: number;
  velocidad: number;
  guiones?: Guion[];
}): Promise<EntornoLlamadas> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-llamadas-'));
  for (const d of ['dialplan', 'sonidos', 'sistema']) fs.mkdirSync(path.join(dir, d));
  tonoGsm(path.join(dir, 'sonidos', 'aviso.gsm'), o.audioS);
  tonoGsm(path.join(dir, 'sistema', 'auth-thankyou.gsm'), 1);
  const sim = new SimuladorAmi({
    ...AMI,
    dirDialplan: path.join(dir, 'dialplan'),
    dirSonidos: path.join(dir, 'sonidos'),
    dirSistema: path.join(dir, 'sistema'),
    velocidad: o.velocidad,
    guiones: o.guiones ?? [{ patron: /\d$/, accion: 'contestar' }],
  });
  await sim.iniciar();
  const pg = o.engine === 'postgres' ? await crearBasePostgres() : undefined;
  const db = openDb(pg ? { databaseUrl: pg.url } : { sqliteFile: path.join(dir, 'pregon.db') });
  await migrate(db);
  await seed(db, { adminUser: 'admin', adminPassword: 'Bench-admin-1' });
  return {
    db,
    sim,
    dir,
    escribirPlan: async () => {
      const plan = await archivoLlamadas({ db } as Parameters<typeof archivoLlamadas>[0]);
      fs.writeFileSync(path.join(dir, 'dialplan', 'pregon-llamadas.conf'), plan);
      sim.recargar();
    },
    cerrar: async () => {
      await sim.detener();
      await db.close();
      await pg?.borrar();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A bare AMI session on one socket (login, then raw actions, responses ignored): the floor the
 * protocol allows, with no dispatcher, database or pacing logic in between. */
export async function socketAmi(
  url: string,
): Promise<{ accion(campos: Record<string, string>): void; cerrar(): void }> {
  const u = new URL(url);
  const s = net.connect(Number(u.port), u.hostname);
  s.on('data', () => {});
  await new Promise<void>((r, j) => {
    s.once('connect', () => r());
    s.once('error', j);
  });
  const accion = (campos: Record<string, string>) =>
    s.write(
      Object.entries(campos)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') + '\r\n',
    );
  accion({ Action: 'Login', Username: AMI.usuario, Secret: AMI.secreto, Events: 'off' });
  await new Promise((r) => setTimeout(r, 200));
  return { accion, cerrar: () => s.destroy() };
}

/** The p-th percentile (0..100) of sorted numbers. */
export function percentil(ordenados: number[], p: number): number {
  if (!ordenados.length) return NaN;
  return ordenados[Math.min(ordenados.length - 1, Math.ceil((p / 100) * ordenados.length) - 1)]!;
}
