import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { dialplanLlamadas } from '@pregon/contract/rules/dialplan';
import { SimuladorAmi, type Guion } from '@pregon/simulators/ami';
import { openDb, type Db, type Engine } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { seed } from '../src/db/seed.ts';
import { tonoGsm } from './audio.ts';
import { crearBasePostgres, levantarApi, type ApiDePrueba } from './entorno.ts';
import { crearEjercicio, crearEquipo } from './fabrica.ts';
import { despachadoresHijos } from './despacho-hijos.ts';

// Scenes for the dispatcher's call tests. escenaAmi: an api and an AMI simulator, every callee
// answers after 50 ms and the simulator runs the dialplan files a test writes in `dir`.
// escenaHijosAmi: a database, an AMI simulator and standalone dispatchers as processes.

/** What a call test works with, filled in by its beforeAll. */
export interface EscenaAmi {
  api: ApiDePrueba;
  sim: SimuladorAmi;
  /** The simulator's dialplan and sounds folder. */
  dir: string;
}

/** Registers the beforeAll and afterAll that start and remove an api on `motor` and an AMI
 * simulator (user 'pregon', secret 'ami-secreto'); returns the scene they fill. */
export function escenaAmi(motor: Engine, prefijo: string): EscenaAmi {
  const e = { dir: fs.mkdtempSync(path.join(os.tmpdir(), `pregon-${prefijo}-`)) } as EscenaAmi;
  beforeAll(async () => {
    e.sim = new SimuladorAmi({
      usuario: 'pregon',
      secreto: 'ami-secreto',
      dirDialplan: e.dir,
      dirSonidos: e.dir,
      guiones: [{ patron: /\d$/, accion: 'contestar', timbreMs: 50 }],
    });
    await e.sim.iniciar();
    e.api = await levantarApi(motor);
  });
  afterAll(async () => {
    await e.sim?.detener();
    await e.api?.cerrar();
    fs.rmSync(e.dir, { recursive: true, force: true });
  });
  return e;
}

/** What the dispatchers a scene of `escenaHijosAmi` started said of calls they found in flight
 * ("llamadas en vuelo de un despachador anterior: N siguen vivas, M sin marcar vuelven a la cola,
 * K inciertas"), summed. */
export interface Hallado {
  vivas: number;
  sinMarcar: number;
  inciertas: number;
}

/** The crash tests of calls: a database on `motor` (migrated, seeded), an AMI simulator playing
 * `audioS` seconds of tone as the exercise's audio, and standalone dispatchers run as processes. */
export interface EscenaHijosAmi {
  db: Db;
  sim: SimuladorAmi;
  dir: string;
  /** Starts a dispatcher on the scene's database with `env` (DESPACHO_*); `hallado` counts what
   * its log says, and the scene's `hallado` what all of them said. */
  lanzar(env: Record<string, string>): { h: ChildProcess; hallado: Hallado };
  matar(h: ChildProcess, senal: NodeJS.Signals): Promise<void>;
  hallado: Hallado;
  /** A device of `puertos` ports on the simulator and a call exercise of `n` recipients, started,
   * its dialplan written and loaded; returns its id. */
  ejercicio(o: { n: number; puertos: number; tasa: number }): Promise<number>;
}

export function escenaHijosAmi(
  motor: Engine,
  prefijo: string,
  o: { audioS: number; velocidad?: number; guiones: Guion[] },
): EscenaHijosAmi {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pregon-${prefijo}-`));
  const hijos = despachadoresHijos('pipe');
  let url: string | undefined;
  let borrar: (() => Promise<void>) | undefined;
  const e = {
    dir,
    hallado: { vivas: 0, sinMarcar: 0, inciertas: 0 },
    matar: hijos.matar,
    lanzar(env: Record<string, string>) {
      const h = hijos.lanzar({ DATABASE_URL: url ?? '', DATA_DIR: dir, LOG_LEVEL: 'info', ...env });
      const hallado = { vivas: 0, sinMarcar: 0, inciertas: 0 };
      h.stdout!.setEncoding('utf8').on('data', (t: string) => {
        for (const m of t.matchAll(
          /(\d+) siguen vivas, (\d+) sin marcar vuelven a la cola, (\d+) inciertas/g,
        ))
          for (const x of [hallado, e.hallado]) {
            x.vivas += Number(m[1]);
            x.sinMarcar += Number(m[2]);
            x.inciertas += Number(m[3]);
          }
      });
      return { h, hallado };
    },
    async ejercicio({ n, puertos, tasa }: { n: number; puertos: number; tasa: number }) {
      const id_equipo = await crearEquipo(e.db, {
        protocolo: 'asterisk',
        url: e.sim.url,
        credenciales: { usuario: 'pregon', secreto: 'ami-secreto', troncal: 'demo' },
        tasa,
        puertos,
      });
      const id = await crearEjercicio(e.db, { id_equipo, tipo: 2, n, puertos, accion: 'aviso' });
      fs.writeFileSync(
        path.join(dir, 'dialplan', 'pregon-llamadas.conf'),
        dialplanLlamadas([{ id_ejercicio: id, audio: 'aviso', segundos: 35 }]),
      );
      e.sim.recargar();
      return id;
    },
  } as EscenaHijosAmi;
  beforeAll(async () => {
    if (motor === 'postgres') {
      ({ url, borrar } = await crearBasePostgres());
      e.db = openDb({ databaseUrl: url });
      // A SIGKILLed dispatcher's connections end abruptly; the test's own pool must not throw.
      e.db.pool?.on('error', () => {});
    } else e.db = openDb({ sqliteFile: path.join(dir, 'pregon.db') });
    await migrate(e.db);
    await seed(e.db, { adminUser: 'admin', adminPassword: 'Admin-prueba-1' });
    for (const d of ['dialplan', 'sonidos']) fs.mkdirSync(path.join(dir, d));
    tonoGsm(path.join(dir, 'sonidos', 'aviso.gsm'), o.audioS);
    e.sim = new SimuladorAmi({
      usuario: 'pregon',
      secreto: 'ami-secreto',
      dirDialplan: path.join(dir, 'dialplan'),
      dirSonidos: path.join(dir, 'sonidos'),
      ...(o.velocidad ? { velocidad: o.velocidad } : {}),
      guiones: o.guiones,
    });
    await e.sim.iniciar();
  });
  afterAll(async () => {
    await Promise.all(hijos.todos().map((h) => hijos.matar(h, 'SIGKILL')));
    await e.sim?.detener();
    await e.db?.close();
    await borrar?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return e;
}
