/**
 * Start time and idle memory of each server, compiled (dist/servidores, what `npm start` runs)
 * beside the same server through tsx (the baseline, what it ran before), in alternating rounds
 * (medians); then `npm start` to a healthy /health (every part 'activo') both ways. The api and
 * the agent are ready when /health answers, the simulators when they print their ports, the
 * standalone dispatcher when it logs 'en marcha'. Idle RSS (VmRSS) is read 25 s after ready.
 * Targets (issue 27): api idle ≤ 100 MB, `npm start` to healthy ≤ 5 s after the first build.
 *
 * Run: npx tsx bench/arranque.ts [--rondas 2]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { construirServidores, SALIDA } from '../scripts/construir-servidores.mjs';
import { argNum, mediana, memoriaMb } from './_comun.ts';

const raiz = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RONDAS = argNum('rondas', 2);
/** Idle means 25 s after ready: V8's memory reducer gives back the startup's heap 15-20 s after
 * the start (read earlier, every server shows the peak of its startup instead). */
const REPOSO_MS = 25_000;

type Modo = 'compilado' | 'tsx';
type Servidor = 'api' | 'agente' | 'simuladores' | 'despachador';
const FUENTES: Record<Servidor, string> = {
  api: 'apps/api/src/main.ts',
  agente: 'apps/pbx/src/main.ts',
  simuladores: 'simulators/src/main.ts',
  despachador: 'apps/api/src/main-despachador.ts',
};

/** A free loopback TCP port. */
async function puertoLibre(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const p = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return p;
}

const espera = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves when `f` holds (asked every 25 ms); rejects after `ms` or when `h` exits. */
async function hasta(
  f: () => Promise<boolean> | boolean,
  h: ChildProcess,
  que: string,
  ms = 60_000,
) {
  const fin = Date.now() + ms;
  while (!(await f())) {
    if (h.exitCode !== null) throw new Error(`${que}: el proceso terminó (${h.exitCode})`);
    if (Date.now() > fin) throw new Error(`${que}: no ocurrió en ${ms} ms`);
    await espera(25);
  }
}

const responde = async (url: string, ok = (r: any) => r !== undefined) => {
  try {
    const r = await fetch(url);
    return r.ok && ok(await r.json());
  } catch {
    return false;
  }
};

/** Stops a process and waits for it. */
async function parar(h: ChildProcess) {
  if (h.exitCode !== null || h.signalCode !== null) return;
  const fin = new Promise((r) => h.once('exit', r));
  h.kill('SIGTERM');
  await Promise.race([fin, espera(10_000).then(() => h.kill('SIGKILL'))]);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-arranque-'));
const web = path.join(dataDir, 'web');
fs.mkdirSync(web);
fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Pregón</title>');
const envBase = {
  // As scripts/start.mjs runs the servers.
  MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
  ...process.env,
  HOST: '127.0.0.1',
  DATA_DIR: path.join(dataDir, 'data'),
  ADMIN_PASSWORD: 'Admin-arranque-1',
  LOG_LEVEL: 'warn',
  TZ: 'America/Mexico_City',
};

/** Starts one server once; returns ms to ready and idle RSS (MB). */
async function medir(servidor: Servidor, modo: Modo): Promise<{ ms: number; rss: number }> {
  const puerto = await puertoLibre();
  const env: NodeJS.ProcessEnv = { ...envBase, PORT: String(puerto), PBX_PORT: String(puerto) };
  if (servidor === 'simuladores')
    Object.assign(env, {
      SIM_SMPP_PORT: '0',
      SIM_ANDROID_PORT: '0',
      SIM_WHATSAPP_PORT: '0',
      SIM_AMI_PORT: '0',
      SIM_CONTROL_PORT: '0',
    });
  if (servidor === 'despachador') env.LOG_LEVEL = 'info';
  const args =
    modo === 'compilado'
      ? ['--enable-source-maps', path.join(SALIDA, `${servidor}.mjs`)]
      : ['--import', 'tsx', path.join(raiz, FUENTES[servidor])];
  const inicio = performance.now();
  const h = spawn(process.execPath, args, { cwd: raiz, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let salida = '';
  h.stdout!.on('data', (p: Buffer) => (salida += p.toString()));
  h.stderr!.on('data', (p: Buffer) => (salida += p.toString()));
  try {
    const listo =
      servidor === 'simuladores'
        ? () => salida.includes('{"simuladores"')
        : servidor === 'despachador'
          ? () => salida.includes('en marcha')
          : () => responde(`http://127.0.0.1:${puerto}/health`);
    await hasta(listo, h, `${servidor} (${modo})`).catch((e: Error) => {
      throw new Error(`${e.message}\n${salida}`);
    });
    const ms = performance.now() - inicio;
    await espera(REPOSO_MS);
    return { ms, rss: memoriaMb(h.pid!, 'VmRSS') };
  } finally {
    await parar(h);
  }
}

/** `npm start`'s supervisor to a /health with every part 'activo'; returns ms and the api's RSS. */
async function medirInicio(modo: Modo): Promise<{ ms: number }> {
  const puertos = Object.fromEntries(
    await Promise.all(
      [
        'PORT',
        'PBX_PORT',
        'SIM_SMPP_PORT',
        'SIM_ANDROID_PORT',
        'SIM_WHATSAPP_PORT',
        'SIM_AMI_PORT',
        'SIM_CONTROL_PORT',
      ].map(async (k) => [k, String(await puertoLibre())]),
    ),
  );
  const env = { ...envBase, ...puertos, WEB_DIST: web, SERVIDORES_TSX: modo === 'tsx' ? '1' : '0' };
  const inicio = performance.now();
  const h = spawn(process.execPath, [path.join(raiz, 'scripts/start.mjs')], {
    cwd: raiz,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let salida = '';
  h.stdout!.on('data', (p: Buffer) => (salida += p.toString()));
  h.stderr!.on('data', (p: Buffer) => (salida += p.toString()));
  try {
    await hasta(
      () =>
        responde(`http://127.0.0.1:${puertos.PORT}/health`, (b) =>
          Object.values(b.partes as Record<string, { estado: string }>).every(
            (p) => p.estado === 'activo',
          ),
        ),
      h,
      `npm start (${modo})`,
    ).catch((e: Error) => {
      throw new Error(`${e.message}\n${salida}`);
    });
    return { ms: performance.now() - inicio };
  } finally {
    await parar(h);
  }
}

const carga = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(
  `Arranque y memoria en reposo de los servidores: ${RONDAS} rondas alternadas, medianas`,
);
console.log(`  máquina: ${os.cpus().length} núcleos, carga (1/5/15 min) al empezar: ${carga()}`);
const msConstruir = await construirServidores();
console.log(`  construcción de dist/servidores (esbuild): ${(msConstruir / 1000).toFixed(2)} s`);
// Issue 44: the standalone dispatcher's bundle, its size and the api server's packages it still
// loads (Fastify, the zod type provider: reached today through programador.ts and
// leer-respuestas.ts, which call the api's services). Before issue 44 (main, 2026-11-29):
// 452,195 bytes, fastify-type-provider-zod imported, 75 MB idle.
{
  const texto = fs.readFileSync(path.join(SALIDA, 'despachador.mjs'), 'utf8');
  const externos = [...new Set([...texto.matchAll(/from\s*"([^".][^"]*)"/g)].map((m) => m[1]!))];
  const servidor = externos.filter((e) => e.startsWith('fastify') || e.startsWith('@fastify/'));
  console.log(
    `  despachador.mjs: ${Buffer.byteLength(texto).toLocaleString('en')} bytes; paquetes del servidor http que importa: ${servidor.join(', ') || 'ninguno'}`,
  );
}
// A first start migrates the database and writes the token keys: done once, outside the figures.
await medir('api', 'compilado');

const res: Record<string, Record<Modo, { ms: number[]; rss: number[] }>> = {};
for (const s of Object.keys(FUENTES) as Servidor[]) {
  res[s] = { compilado: { ms: [], rss: [] }, tsx: { ms: [], rss: [] } };
  for (let r = 0; r < RONDAS; r++)
    for (const modo of (r % 2 ? ['tsx', 'compilado'] : ['compilado', 'tsx']) as Modo[]) {
      const m = await medir(s, modo);
      res[s][modo].ms.push(m.ms);
      res[s][modo].rss.push(m.rss);
    }
}
const inicio: Record<Modo, number[]> = { compilado: [], tsx: [] };
for (let r = 0; r < RONDAS; r++)
  for (const modo of (r % 2 ? ['tsx', 'compilado'] : ['compilado', 'tsx']) as Modo[])
    inicio[modo].push((await medirInicio(modo)).ms);

const f = (x: number, d = 0) => x.toFixed(d).padStart(6);
console.log(
  '\n  servidor       listo (ms)  compilado / tsx      RSS en reposo (MB)  compilado / tsx',
);
for (const [s, r] of Object.entries(res)) {
  const [mc, mt] = [mediana(r.compilado.ms), mediana(r.tsx.ms)];
  const [rc, rt] = [mediana(r.compilado.rss), mediana(r.tsx.rss)];
  console.log(
    `  ${s.padEnd(12)} ${f(mc)} / ${f(mt)}  (${(mc / mt).toFixed(2)}×)        ${f(rc, 1)} / ${f(rt, 1)}  (${(rc / rt).toFixed(2)}×)`,
  );
}
const [ic, it] = [mediana(inicio.compilado), mediana(inicio.tsx)];
console.log(
  `  npm start → /health con todas las partes activas: ${f(ic)} ms compilado / ${f(it)} ms tsx (${(ic / it).toFixed(2)}×)`,
);
console.log(`  carga al terminar: ${carga()}`);
fs.rmSync(dataDir, { recursive: true, force: true });

const apiRss = mediana(res.api!.compilado.rss);
const ok = apiRss <= 100 && ic <= 5000;
console.log(
  `${ok ? 'PASS' : 'FAIL'}: api en reposo ${apiRss.toFixed(1)} MB (≤ 100), npm start a sano ${(ic / 1000).toFixed(2)} s (≤ 5)`,
);
process.exit(ok ? 0 : 1);
