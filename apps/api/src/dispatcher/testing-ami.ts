import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { SimuladorAmi } from '@pregon/simulators/ami';
import type { Engine } from '../db/database.ts';
import { levantarApi, type ApiDePrueba } from '../testing/entorno.ts';

// An api and an AMI simulator for the dispatcher's call tests: every callee answers after 50 ms
// and the simulator runs the dialplan files a test writes in `dir`.

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
