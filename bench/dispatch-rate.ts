// Benchmark: a configured rate held. An SMS exercise on a device with tasa 10 per port and 10
// ports (100 msg/s) runs for 60 s through the Android gateway simulator (its own process); the
// simulator's acceptance times give the project's figure: the mean rate over the 60 s and the
// busiest calendar second. Baseline: the configured rate. Limits: mean within ±2 % of 100 msg/s
// and no second above 100.
//
//   npx tsx bench/dispatch-rate.ts [--segundos 60] [--tasa 100] [--puertos 10] [--engine sqlite|postgres]
// Issue 24.1's SMS drill on 4 ports × 5 msg/s: --puertos 4 --tasa 20 (20 msg/s ±2 %).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { seed } from '@pregon/api/db/seed';
import { crearBasePostgres } from '@pregon/api/testing/entorno';
import { arrancarDespachador } from '@pregon/api/dispatcher/index';
import { CONFIG_DESPACHO_DEFECTO } from '@pregon/despacho/config';
import { esperarQue } from '@pregon/despacho/testing/comun';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { lanzarSimuladores } from './_simuladores.ts';
import { arg } from './_comun.ts';

const SEGUNDOS = Number(arg('segundos', '60'));
const TASA = Number(arg('tasa', '100'));
const engine = arg('engine', 'sqlite');
const PUERTOS = Number(arg('puertos', '10'));

const sims = await lanzarSimuladores({ SIM_RETRASO_RECIBO_MS: '200' });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-tasa-'));
const pg = engine === 'postgres' ? await crearBasePostgres() : undefined;
const db = openDb(pg ? { databaseUrl: pg.url } : { sqliteFile: path.join(dir, 'pregon.db') });
let ok = false;
try {
  await migrate(db);
  await seed(db, { adminUser: 'admin', adminPassword: 'Bench-admin-1' });
  const id_equipo = await crearEquipo(db, {
    protocolo: 'android',
    url: `http://127.0.0.1:${sims.puertos.android}`,
    tasa: TASA / PUERTOS,
    puertos: PUERTOS,
  });
  // More recipients than the run can send, so the limit (not the list) ends each second.
  await crearEjercicio(db, {
    id_equipo,
    n: Math.ceil(TASA * (SEGUNDOS + 10) * 1.2),
    puertos: PUERTOS,
  });
  const d = await arrancarDespachador(db, CONFIG_DESPACHO_DEFECTO);
  await esperarQue(
    async () => (await sims.info('android')).recibidos > 0,
    'primer mensaje',
    30_000,
  );
  await new Promise((r) => setTimeout(r, (SEGUNDOS + 2) * 1000));
  await d.detener();
  const tiempos = await sims.registro('android');
  // Measure from the first full second after the first message, over SEGUNDOS seconds.
  const inicio = Math.floor(tiempos[0]! / 1000) + 1;
  const porSegundo = new Map<number, number>();
  for (const t of tiempos) {
    const s = Math.floor(t / 1000);
    if (s >= inicio && s < inicio + SEGUNDOS) porSegundo.set(s, (porSegundo.get(s) ?? 0) + 1);
  }
  const total = [...porSegundo.values()].reduce((a, b) => a + b, 0);
  const media = total / SEGUNDOS;
  const max = Math.max(...porSegundo.values());
  const min = Math.min(...porSegundo.values());
  const desvio = ((media - TASA) / TASA) * 100;
  ok = Math.abs(desvio) <= 2 && max <= TASA;
  console.log(
    `Tasa configurada ${TASA} msg/s (${PUERTOS} puertos × ${TASA / PUERTOS}/s), ${SEGUNDOS} s (${engine})`,
  );
  console.log(`  base (tasa configurada):  ${TASA.toFixed(1)} msg/s`);
  console.log(
    `  proyecto (media medida):  ${media.toFixed(2)} msg/s (${desvio >= 0 ? '+' : ''}${desvio.toFixed(2)} %)`,
  );
  console.log(`  segundo más cargado ${max}, menos cargado ${min}`);
  console.log(`  dentro de ±2 % y ningún segundo sobre ${TASA}: ${ok ? 'PASS' : 'FAIL'}`);
} finally {
  await db.close();
  await pg?.borrar();
  await sims.cerrar();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
