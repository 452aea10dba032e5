// Benchmark: memory of a standalone dispatcher (`npm run dispatcher`, with its node heap flags) working a 1 000 000-recipient
// SMS exercise on SQLite (or PostgreSQL with --engine postgres), through the SMPP simulator (its own process). Project: the dispatcher
// process's peak RSS (VmHWM) while it sends for --segundos (60 by default; the claim/write cycle is
// the same from the first batch to the last, so the peak is reached early) or to completion.
// Baseline: the same process idle (started, exercise not yet running), in the same run.
// Limit: peak ≤ 200 MB.
//
//   npx tsx bench/dispatch-memoria.ts [--rows 1000000] [--segundos 60] [--engine sqlite|postgres]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb } from '@pregon/db/database';
import { crearBasePostgres } from '@pregon/api/testing/entorno';
import { migrate } from '@pregon/db/migrate';
import { seed } from '@pregon/api/db/seed';
import { porEstatus } from '@pregon/despacho/testing/comun';
import { argumentosDespachador } from '@pregon/api/testing/despacho-hijos';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { lanzarSimuladores } from './_simuladores.ts';
import { arg, memoriaMb } from './_comun.ts';

const N = Number(arg('rows', '1000000'));
const SEGUNDOS = Number(arg('segundos', '60'));
const LIMITE_MB = 200;
const engine = arg('engine', 'sqlite');
if (engine !== 'sqlite' && engine !== 'postgres')
  throw new Error('--engine debe ser sqlite o postgres');
const raiz = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const sims = await lanzarSimuladores({ SIM_RETRASO_RECIBO_MS: '100' });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-memoria-'));
const pg = engine === 'postgres' ? await crearBasePostgres() : undefined;
const db = openDb(pg ? { databaseUrl: pg.url } : { sqliteFile: path.join(dir, 'pregon.db') });
let ok = false;
try {
  await migrate(db);
  await seed(db, { adminUser: 'admin', adminPassword: 'Bench-admin-1' });
  const id_equipo = await crearEquipo(db, {
    protocolo: 'smpp',
    url: `smpp://127.0.0.1:${sims.puertos.smpp}`,
    tasa: 100_000,
    puertos: 1000,
  });
  const t0 = Date.now();
  const id = await crearEjercicio(db, { id_equipo, n: N, puertos: 1000, iniciar: false });
  console.log(`  ${N} destinatarios generados en ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // The same command as `npm run dispatcher` (its node flags included).
  const argumentos = argumentosDespachador(process.env.BENCH_DESPACHADOR);
  console.log(`  despachador: node ${argumentos.join(' ')}`);
  const hijo = spawn(process.execPath, argumentos, {
    cwd: raiz,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DATA_DIR: dir, DATABASE_URL: pg?.url ?? '', LOG_LEVEL: 'silent' },
  });
  await new Promise((r) => setTimeout(r, 5000));
  const reposo = memoriaMb(hijo.pid!, 'VmHWM');
  await db.kysely
    .updateTable('ejercicios')
    .set({ en_proceso: 1, iniciado: Date.now() })
    .where('id_ejercicio', '=', id)
    .execute();
  const fin = Date.now() + SEGUNDOS * 1000;
  let pico = reposo;
  while (Date.now() < fin) {
    await new Promise((r) => setTimeout(r, 1000));
    pico = Math.max(pico, memoriaMb(hijo.pid!, 'VmHWM'));
    const f = await db.kysely
      .selectFrom('ejercicios')
      .select('completado')
      .where('id_ejercicio', '=', id)
      .executeTakeFirstOrThrow();
    if (f.completado) break;
  }
  const c = await porEstatus(db, id);
  const enviados = (c.enviado ?? 0) + (c.entregado ?? 0);
  await new Promise<void>((r) => {
    hijo.once('exit', () => r());
    hijo.kill('SIGTERM');
  });
  ok = pico <= LIMITE_MB;
  console.log(
    `Memoria del despachador, ejercicio de ${N} destinatarios (${pg ? 'PostgreSQL' : 'SQLite'}, SMPP)`,
  );
  console.log(`  base (proceso en reposo):   ${reposo.toFixed(1)} MB`);
  console.log(`  proyecto (pico enviando):   ${pico.toFixed(1)} MB tras ${enviados} envíos`);
  console.log(`  pico ≤ ${LIMITE_MB} MB: ${ok ? 'PASS' : 'FAIL'}`);
} finally {
  await db.close();
  await pg?.borrar();
  await sims.cerrar();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
