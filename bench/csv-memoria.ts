// Benchmark: peak RSS of the api process while it streams POST /csv/ (tipo 'reporte') for an
// exercise of N recipients. The api runs in a child process; its peak RSS (VmHWM) is compared
// with its idle RSS measured in the same run. Limit: peak ≤ 300 MB.
//
//   npx tsx bench/csv-memoria.ts [--engine sqlite|postgres] [--rows 1000000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@pregon/api/config';
import { buildApp, crearContexto } from '@pregon/api/server';
import type { Contexto } from '@pregon/api/contexto';
import { crearBasePostgres } from '@pregon/api/testing/entorno';
import * as ejercicios from '@pregon/api/services/ejercicios';
import {
  ESTADO_CDMX,
  ESTADO_JALISCO,
  sembrarTelefonosMasivos,
} from '@pregon/api/testing/ejercicios';
import { crearEquipo } from '@pregon/api/testing/fabrica';
import { memoriaMb } from './_comun.ts';

const LIMITE_MB = 300;
const PASSWORD = 'Bench-admin-1';

const opcion = (argv: string[], nombre: string) => {
  const i = argv.indexOf(`--${nombre}`);
  return i >= 0 ? argv[i + 1] : undefined;
};

const entorno = (dataDir: string, databaseUrl?: string) =>
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'silent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });

/** Child mode: serve the api and print {pid, port} on stdout. */
async function servidor(argv: string[]) {
  const { ctx } = await crearContexto(
    entorno(opcion(argv, 'data-dir')!, opcion(argv, 'database-url')),
  );
  const app = await buildApp(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  console.log(
    JSON.stringify({ pid: process.pid, port: typeof addr === 'object' && addr ? addr.port : 0 }),
  );
}

async function main(argv: string[]) {
  const engine = opcion(argv, 'engine') ?? 'sqlite';
  if (engine !== 'sqlite' && engine !== 'postgres')
    throw new Error('--engine debe ser sqlite o postgres');
  const rows = Number(opcion(argv, 'rows') ?? 1_000_000);
  if (!Number.isInteger(rows) || rows < 1) throw new Error('--rows debe ser un entero positivo');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-csv-'));
  const pg = engine === 'postgres' ? await crearBasePostgres() : undefined;
  let hijo: ReturnType<typeof spawn> | undefined;
  try {
    console.log(`csv-memoria: motor ${engine}, ${rows.toLocaleString('es-MX')} destinatarios`);
    // Prepare the data in this process, then close it: the child only serves.
    const { ctx } = await crearContexto(entorno(dataDir, pg?.url));
    const c: Pick<Contexto, 'db' | 'eventos'> = { db: ctx.db, eventos: new EventEmitter() };
    const actor = { id_usuario: 0, usuario: 'bench' };
    let t = performance.now();
    await sembrarTelefonosMasivos(ctx.db, rows, ESTADO_CDMX, ESTADO_JALISCO);
    const id_equipo = await crearEquipo(ctx.db, { alias: 'SMS bench', protocolo: 'smpp' });
    const id = await ejercicios.crear(c, actor, {
      titulo: 'Bench CSV',
      tipo_ejercicio: 1,
      fecha_ini: '2026-09-19',
      hora_ini: '11:00:00',
      equipo: id_equipo,
      numero_puertos: 1,
      puerto_ini: 1,
      puerto_fin: 1,
      accion: 'bench',
      estado: ESTADO_CDMX,
      categorias: [1, 2],
    });
    const total = await ejercicios.generar(c, actor, {
      ejercicio: id,
      estado: ESTADO_CDMX,
      categorias: [1, 2],
    });
    // Some rows with outcomes, so the report has real content.
    await ctx.db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'entregado', recibida: 1, fecha_envio: '2026-09-19', hora_envio: '11:00:05' })
      .where('posicion', '<=', Math.floor(total / 2))
      .execute();
    await ctx.db.close();
    console.log(
      `  datos: ${total.toLocaleString('es-MX')} destinatarios en ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    const script = fileURLToPath(import.meta.url);
    hijo = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        script,
        '--servidor',
        '--data-dir',
        dataDir,
        ...(pg ? ['--database-url', pg.url] : []),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const linea = await new Promise<string>((resolve, reject) => {
      const rl = readline.createInterface({ input: hijo!.stdout! });
      rl.once('line', resolve);
      hijo!.once('exit', (code) => reject(new Error(`el servidor terminó (${code})`)));
    });
    const { pid, port } = JSON.parse(linea) as { pid: number; port: number };
    const base = `http://127.0.0.1:${port}`;
    const ingreso = await fetch(`${base}/auth/signin/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ usuario: 'admin', password: PASSWORD }),
    });
    const { token } = (await ingreso.json()) as { token: string };
    // Warm up (JIT, first queries) and measure the idle baseline.
    await (await fetch(`${base}/ejercicios/`, { headers: { authorization: token } })).text();
    const reposo = memoriaMb(pid, 'VmRSS');
    const picoPrevio = memoriaMb(pid, 'VmHWM');
    // Reset the peak (Linux: 5 → clear_refs) so VmHWM measures the export alone, not the
    // start-up or the argon2 sign-in; if the kernel refuses, the earlier peak stays included.
    let reiniciado = true;
    try {
      fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      reiniciado = false;
    }

    t = performance.now();
    let maxMuestreado = 0;
    const muestreo = setInterval(() => {
      maxMuestreado = Math.max(maxMuestreado, memoriaMb(pid, 'VmRSS'));
    }, 50);
    const res = await fetch(`${base}/csv/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify({ tipo: 'reporte', id_ejercicio: id }),
    });
    if (res.status !== 200)
      throw new Error(`POST /csv/ respondió ${res.status}: ${await res.text()}`);
    let bytes = 0;
    let lineas = 0;
    for await (const trozo of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += trozo.length;
      for (const b of trozo) if (b === 10) lineas++;
    }
    clearInterval(muestreo);
    const segundos = (performance.now() - t) / 1000;
    const pico = memoriaMb(pid, 'VmHWM');
    if (lineas !== total + 1)
      throw new Error(`el CSV trae ${lineas} líneas, se esperaban ${total + 1}`);
    console.log(
      `  exportación: ${(bytes / 1024 / 1024).toFixed(1)} MB, ${lineas.toLocaleString('es-MX')} líneas en ${segundos.toFixed(1)} s`,
    );
    console.log(
      `  proyecto (RSS pico del api durante POST /csv/): ${pico.toFixed(0)} MB (muestreado: ${maxMuestreado.toFixed(0)} MB)`,
    );
    console.log(`  línea base (RSS del mismo api en reposo):         ${reposo.toFixed(0)} MB`);
    console.log(
      `  (pico previo al exportar, arranque e ingreso: ${picoPrevio.toFixed(0)} MB; ${reiniciado ? 'reiniciado antes de medir' : 'no se pudo reiniciar: incluido'})`,
    );
    const ok = pico <= LIMITE_MB;
    console.log(`  pico ${pico.toFixed(0)} MB / límite ${LIMITE_MB} MB ${ok ? 'PASS' : 'FAIL'}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    if (hijo && hijo.exitCode === null) {
      const fin = new Promise((r) => hijo!.once('exit', r));
      hijo.kill('SIGTERM');
      await fin;
    }
    await pg?.borrar();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const argv = process.argv.slice(2);
if (argv.includes('--servidor')) await servidor(argv);
else await main(argv);
