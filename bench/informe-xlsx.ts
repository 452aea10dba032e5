// Benchmark: the after-action report (GET /reportes/xlsx/{id}/) of an exercise of N recipients,
// half of them not reached (so the 'No alcanzados' sheet holds N/2 rows). The api runs in a child
// process; its time and peak RSS (VmHWM) are printed beside a bare exceljs streaming writer that
// writes the same not-reached rows, read the same way, in another child process. Limit: the api's
// peak ≤ 300 MB.
//
//   npx tsx bench/informe-xlsx.ts [--rows 1000000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { loadConfig } from '@pregon/api/config';
import { buildApp, crearContexto } from '@pregon/api/server';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { memoriaMb } from './_comun.ts';

const LIMITE_MB = 300;
const PASSWORD = 'Bench-admin-1';

const opcion = (argv: string[], nombre: string) => {
  const i = argv.indexOf(`--${nombre}`);
  return i >= 0 ? argv[i + 1] : undefined;
};

const entorno = (dataDir: string) =>
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'silent',
  });

/** Child mode: serve the api and print {pid, port}. */
async function servidor(argv: string[]) {
  const { ctx } = await crearContexto(entorno(opcion(argv, 'data-dir')!));
  const app = await buildApp(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  console.log(
    JSON.stringify({ pid: process.pid, port: typeof addr === 'object' && addr ? addr.port : 0 }),
  );
}

/** Child mode: the baseline, a bare exceljs streaming writer of the not-reached rows. */
async function base(argv: string[]) {
  const db = new Database(path.join(opcion(argv, 'data-dir')!, 'pregon.db'), { readonly: true });
  let bytes = 0;
  const destino = new Writable({
    write(trozo: Buffer, _c, listo) {
      bytes += trozo.length;
      listo();
    },
  });
  const t = performance.now();
  const libro = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: destino,
    useStyles: false,
    useSharedStrings: false,
  });
  const h = libro.addWorksheet('No alcanzados');
  h.columns = ['telefono', 'nombre', 'estatus', 'motivo', 'intentos', 'fecha', 'hora'].map(
    (header, i) => ({ header, key: String(i) }),
  );
  let filas = 0;
  const consulta = db.prepare(`select telefono, nombre, estatus, motivo, intentos, fecha_envio,
    hora_envio from ejercicio_detalle where id_ejercicio = ? order by id_detalle`);
  for (const f of consulta.iterate(Number(opcion(argv, 'id'))) as Iterable<
    Record<string, string | number | null>
  >) {
    if (f.estatus === 'entregado' || f.estatus === 'enviado') continue;
    h.addRow([
      f.telefono,
      f.nombre ?? '',
      f.estatus,
      f.motivo ?? '',
      f.intentos,
      f.fecha_envio ?? '',
      f.hora_envio ?? '',
    ]).commit();
    filas++;
  }
  h.commit();
  await libro.commit();
  console.log(
    JSON.stringify({
      segundos: (performance.now() - t) / 1000,
      bytes,
      filas,
      pico: memoriaMb(process.pid, 'VmHWM'),
    }),
  );
}

const hijo = (args: string[]) => {
  const p = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const linea = new Promise<string>((resolve, reject) => {
    const rl = readline.createInterface({ input: p.stdout! });
    rl.once('line', resolve);
    p.once('exit', (code) => reject(new Error(`el proceso hijo terminó (${code})`)));
  });
  return { p, linea };
};

async function main(argv: string[]) {
  const rows = Number(opcion(argv, 'rows') ?? 1_000_000);
  if (!Number.isInteger(rows) || rows < 2) throw new Error('--rows debe ser un entero ≥ 2');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-xlsx-'));
  let api: ReturnType<typeof hijo> | undefined;
  try {
    console.log(`informe-xlsx: SQLite, ${rows.toLocaleString('es-MX')} destinatarios`);
    const { ctx } = await crearContexto(entorno(dataDir));
    let t = performance.now();
    const id_equipo = await crearEquipo(ctx.db, { alias: 'SMS bench', protocolo: 'smpp' });
    const id = await crearEjercicio(ctx.db, { id_equipo, n: rows, titulo: 'Bench informe' });
    // Half reached over ~17 minutes of sending, half failed with a reason.
    await sql`update ejercicio_detalle set
        estatus = case when posicion % 2 = 0 then 'entregado' else 'fallido' end,
        recibida = case when posicion % 2 = 0 then 1 else 0 end,
        motivo = case when posicion % 2 = 0 then null else 'Número fuera de servicio' end,
        intentos = 1, nombre = 'Persona ' || posicion, fecha_envio = '2026-09-19',
        hora_envio = printf('11:%02d:%02d', (posicion / 60000) % 60, (posicion / 1000) % 60),
        actualizado = ${Date.now()}
      where id_ejercicio = ${id}`.execute(ctx.db.kysely);
    await ctx.db.kysely
      .updateTable('ejercicios')
      .set({ en_proceso: 0, completado: 1, terminado: Date.now() })
      .where('id_ejercicio', '=', id)
      .execute();
    await ctx.db.close();
    console.log(`  datos: ${((performance.now() - t) / 1000).toFixed(1)} s`);

    // Baseline first, alone on the machine.
    const b = hijo(['--base', '--data-dir', dataDir, '--id', String(id)]);
    const rb = JSON.parse(await b.linea) as {
      segundos: number;
      bytes: number;
      filas: number;
      pico: number;
    };
    await new Promise((r) => (b.p.exitCode === null ? b.p.once('exit', r) : r(null)));

    api = hijo(['--servidor', '--data-dir', dataDir]);
    const { pid, port } = JSON.parse(await api.linea) as { pid: number; port: number };
    const url = `http://127.0.0.1:${port}`;
    const ingreso = await fetch(`${url}/auth/signin/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ usuario: 'admin', password: PASSWORD }),
    });
    const { token } = (await ingreso.json()) as { token: string };
    await (await fetch(`${url}/ejercicios/`, { headers: { authorization: token } })).text();
    const reposo = memoriaMb(pid, 'VmRSS');
    let reiniciado = true;
    try {
      fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      reiniciado = false;
    }
    t = performance.now();
    const res = await fetch(`${url}/reportes/xlsx/${id}/`, { headers: { authorization: token } });
    if (res.status !== 200) throw new Error(`xlsx respondió ${res.status}: ${await res.text()}`);
    const archivo = path.join(dataDir, 'informe.xlsx');
    const salida = fs.createWriteStream(archivo);
    for await (const trozo of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (!salida.write(trozo)) await new Promise<void>((r) => salida.once('drain', () => r()));
    }
    await new Promise<void>((r) => salida.end(() => r()));
    const segundos = (performance.now() - t) / 1000;
    const pico = memoriaMb(pid, 'VmHWM');
    // The file must open and hold every not-reached row.
    const lector = new ExcelJS.stream.xlsx.WorkbookReader(archivo, {});
    let hojas = 0;
    let filasNo = 0;
    for await (const hoja of lector) {
      hojas++;
      const nombre = (hoja as unknown as { name: string }).name;
      for await (const _fila of hoja) if (nombre === 'No alcanzados') filasNo++;
    }
    if (filasNo - 1 !== rb.filas)
      throw new Error(`'No alcanzados' trae ${filasNo - 1} filas, se esperaban ${rb.filas}`);
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    console.log(
      `  proyecto (GET /reportes/xlsx/, ${hojas} hojas, ${rb.filas.toLocaleString('es-MX')} no alcanzados): ${segundos.toFixed(1)} s, ${mb(fs.statSync(archivo).size)}, RSS pico del api ${pico.toFixed(0)} MB (reposo ${reposo.toFixed(0)} MB${reiniciado ? '' : '; pico previo incluido'})`,
    );
    console.log(
      `  línea base (exceljs WorkbookWriter solo, mismas filas):          ${rb.segundos.toFixed(1)} s, ${mb(rb.bytes)}, RSS pico ${rb.pico.toFixed(0)} MB`,
    );
    const ok = pico <= LIMITE_MB;
    console.log(
      `  tiempo ${(segundos / rb.segundos).toFixed(2)}× la base; pico ${pico.toFixed(0)} MB / límite ${LIMITE_MB} MB ${ok ? 'PASS' : 'FAIL'}`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    if (api && api.p.exitCode === null) {
      const fin = new Promise((r) => api!.p.once('exit', r));
      api.p.kill('SIGTERM');
      await fin;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const argv = process.argv.slice(2);
if (argv.includes('--servidor')) await servidor(argv);
else if (argv.includes('--base')) await base(argv);
else await main(argv);
