// Benchmark (issue 24.3): scheduled starts on PostgreSQL with several processes. An api process
// (apps/api/src/main.ts) and two standalone dispatchers (`npm run dispatcher`), each with its own
// scheduler, share one database; --ejercicios SMS exercises are scheduled for the same second,
// --en seconds ahead. Project: how many times each started (audit rows 'iniciar', must be 1) and
// the start error, iniciado − the scheduled second (p50, p99, max; limit p99 ≤ 1 s). Baseline in
// the same run: this process's own timer aimed at the same second (the platform's timer error).
//
//   npx tsx bench/programados.ts [--ejercicios 20] [--en 12]
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { seed } from '@pregon/api/db/seed';
import { crearBasePostgres } from '@pregon/api/testing/entorno';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { fechaHoraEnZona } from '@pregon/contract/rules/programacion';
import { arg } from './_comun.ts';

const N = Number(arg('ejercicios', '20'));
const EN_S = Number(arg('en', '12'));
const ZONA = process.env.TZ || 'America/Mexico_City';
const RAIZ = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const puertoLibre = () =>
  new Promise<number>((r) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => r(p));
    });
  });
const pct = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * q) - 1]!;

const pg = await crearBasePostgres();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-programados-'));
const db = openDb({ databaseUrl: pg.url });
const hijos: ChildProcess[] = [];
let ok = false;
try {
  await migrate(db);
  await seed(db, { adminUser: 'admin', adminPassword: 'Bench-admin-1' });
  const env = {
    ...process.env,
    DATABASE_URL: pg.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SIMULADORES: '0',
    // No gateway here: the start's device check is off, so what is measured is the scheduler.
    COMPROBACION_EQUIPO_MS: '0',
    DESPACHO_EN_API: '0',
    TZ: ZONA,
  };
  const lanzar = (script: string, extra: Record<string, string> = {}) => {
    const h = spawn(process.execPath, ['--import', 'tsx', path.join(RAIZ, script)], {
      cwd: RAIZ,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...env, ...extra },
    });
    hijos.push(h);
  };
  lanzar('apps/api/src/main.ts', { PORT: String(await puertoLibre()), HOST: '127.0.0.1' });
  lanzar('apps/api/src/main-despachador.ts');
  lanzar('apps/api/src/main-despachador.ts');

  const id_equipo = await crearEquipo(db, {
    protocolo: 'smpp',
    url: 'smpp://127.0.0.1:9',
    tasa: 1,
  });
  const cuando = Math.ceil((Date.now() + EN_S * 1000) / 1000) * 1000;
  const { fecha_ini, hora_ini } = fechaHoraEnZona(cuando, ZONA);
  const ids: number[] = [];
  for (let i = 0; i < N; i++) {
    const id = await crearEjercicio(db, { id_equipo, n: 5, iniciar: false, base: i * 10 });
    await db.kysely
      .updateTable('ejercicios')
      .set({ fecha_ini, hora_ini, inicio_automatico: 1, inicio_programado: cuando })
      .where('id_ejercicio', '=', id)
      .execute();
    ids.push(id);
  }
  // Baseline: a timer of this process aimed at the same second.
  const base = await new Promise<number>((r) =>
    setTimeout(() => r(Date.now() - cuando), cuando - Date.now()),
  );
  const limite = Date.now() + 30_000;
  let filas: { id_ejercicio: number; iniciado: number | null }[] = [];
  while (Date.now() < limite) {
    filas = (
      await db.kysely
        .selectFrom('ejercicios')
        .select(['id_ejercicio', 'iniciado'])
        .where('id_ejercicio', 'in', ids)
        .execute()
    ).map((f) => ({
      id_ejercicio: f.id_ejercicio,
      iniciado: f.iniciado === null ? null : Number(f.iniciado),
    }));
    if (filas.every((f) => f.iniciado !== null)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const inicios = await db.kysely
    .selectFrom('auditoria')
    .select(['id_entidad'])
    .where('accion', '=', 'iniciar')
    .where('id_entidad', 'in', ids.map(String))
    .execute();
  const veces = new Map<string, number>();
  for (const f of inicios) veces.set(f.id_entidad!, (veces.get(f.id_entidad!) ?? 0) + 1);
  const errores = filas.filter((f) => f.iniciado !== null).map((f) => f.iniciado! - cuando);
  const unaVez = ids.every((id) => veces.get(String(id)) === 1);
  const p99 = errores.length ? pct(errores, 0.99) : Infinity;
  ok = unaVez && errores.length === N && p99 <= 1000 && Math.min(...errores) >= 0;
  console.log(
    `Inicios programados: ${N} ejercicios al mismo segundo, PostgreSQL, 1 api + 2 despachadores; carga ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  console.log(`  base (temporizador de este proceso al mismo segundo): ${base} ms`);
  console.log(
    `  proyecto: iniciados ${errores.length} de ${N}, cada uno ${unaVez ? 'una vez' : 'NO una vez'} (${[...veces.values()].join(',')})`,
  );
  console.log(
    `  error de inicio: p50 ${pct(errores, 0.5)} ms, p99 ${p99} ms, máx ${Math.max(...errores)} ms, mín ${Math.min(...errores)} ms`,
  );
  console.log(`  cada uno una vez y p99 ≤ 1000 ms: ${ok ? 'PASS' : 'FAIL'}`);
} finally {
  for (const h of hijos) h.kill('SIGTERM');
  await Promise.all(
    hijos.map((h) => new Promise((r) => (h.exitCode !== null ? r(null) : h.once('exit', r)))),
  );
  await db.close();
  await pg.borrar();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
