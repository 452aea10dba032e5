// Benchmark (issue 16): a 2,000-recipient Android drill against a gateway simulator that works
// like a phone, one message at a time every 50 ms (100 s of phone time), with the dispatcher's
// default Android settings (queue bound DESPACHO_ANDROID_COLA 20, reads every 1 s). Reports when
// the exercise completed, when every recipient reached a final state (entregado or fallido with
// the phone's error: 2 % of the numbers fail late at the SMSC), how busy the phone was (its
// 100 s of work over the wall time) and the longest queue it held. Limits: every recipient
// final, none sent twice, the phone's queue never above the bound plus the exercise's ports, and
// the phone busy ≥ 80 % of the time (pacing by its queue must not starve it).
//
//   npx tsx bench/android-2000.ts [--n 2000] [--ritmo 50] [--engine sqlite|postgres]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SimuladorAndroid } from '@pregon/simulators/android';
import { duplicados } from '@pregon/simulators/comun';
import { openDb } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { seed } from '@pregon/api/db/seed';
import { crearBasePostgres } from '@pregon/api/testing/entorno';
import { arrancarDespachador } from '@pregon/api/dispatcher/index';
import { CONFIG_DESPACHO_DEFECTO } from '@pregon/despacho/config';
import { esperarCompletado, esperarQue, porEstatus } from '@pregon/despacho/testing/comun';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { arg } from './_comun.ts';

const N = Number(arg('n', '2000'));
const RITMO = Number(arg('ritmo', '50'));
const engine = arg('engine', 'sqlite');
const PUERTOS = 4;
const config = CONFIG_DESPACHO_DEFECTO;

const sim = new SimuladorAndroid({
  ritmoMs: RITMO,
  envioMs: 500,
  retrasoReciboMs: 3_000,
  // 2 % of the numbers: sent, then a delivery failure from the SMSC.
  fallanEntrega: (t) => t.endsWith('13') || t.endsWith('63'),
});
await sim.iniciar();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-android-'));
const pg = engine === 'postgres' ? await crearBasePostgres() : undefined;
const db = openDb(pg ? { databaseUrl: pg.url } : { sqliteFile: path.join(dir, 'pregon.db') });
let ok = false;
try {
  await migrate(db);
  await seed(db, { adminUser: 'admin', adminPassword: 'Bench-admin-1' });
  const id_equipo = await crearEquipo(db, {
    protocolo: 'android',
    url: sim.url,
    tasa: 100,
    puertos: PUERTOS,
  });
  const id = await crearEjercicio(db, { id_equipo, n: N, puertos: PUERTOS, iniciar: false });
  const d = await arrancarDespachador(db, config);
  let maxCola = 0;
  const vigia = setInterval(() => (maxCola = Math.max(maxCola, sim.pendientes)), 5);
  const t0 = Date.now();
  await db.kysely
    .updateTable('ejercicios')
    .set({ en_proceso: 1, iniciado: t0 })
    .where('id_ejercicio', '=', id)
    .execute();
  d.despachador.despertar();
  await esperarCompletado(db, id, 3_600_000);
  const completado = Date.now() - t0;
  await esperarQue(
    async () => !(await porEstatus(db, id)).enviado,
    'todos en estado final',
    config.androidEsperaEntregaMs + 120_000,
    () => porEstatus(db, id),
  );
  const final = Date.now() - t0;
  clearInterval(vigia);
  await d.detener();
  const c = await porEstatus(db, id);
  const primero = sim.registro[0]!.t;
  const ultimo = sim.registro.at(-1)!.t;
  const ocupado = (N * RITMO) / (ultimo - primero + RITMO);
  const dups = duplicados(sim.registro).size;
  ok =
    (c.entregado ?? 0) + (c.fallido ?? 0) === N &&
    sim.registro.length === N &&
    dups === 0 &&
    maxCola <= config.androidCola + PUERTOS &&
    ocupado >= 0.8;
  console.log(
    `Android ${N} destinatarios, el teléfono envía uno cada ${RITMO} ms (${((N * RITMO) / 1000).toFixed(0)} s de teléfono), ${engine}`,
  );
  console.log(
    `  completado a los ${(completado / 1000).toFixed(1)} s; todos en estado final a los ${(final / 1000).toFixed(1)} s: ${JSON.stringify(c)}`,
  );
  console.log(
    `  teléfono ocupado ${(ocupado * 100).toFixed(1)} % entre su primer y su último envío; cola máxima ${maxCola} (tope ${config.androidCola} + ${PUERTOS} puertos); repetidos ${dups}: ${ok ? 'PASS' : 'FAIL'}`,
  );
} finally {
  await db.close();
  await pg?.borrar();
  await sim.detener();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exitCode = ok ? 0 : 1;
