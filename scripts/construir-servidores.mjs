#!/usr/bin/env node
// The production build of the servers (`npm run build:servidores`, and `npm start` whenever it is
// missing or older than the sources): esbuild bundles the api, the standalone dispatcher, the
// telephony agent, the simulators, the admin command and the api's worker-thread task into
// dist/servidores/*.mjs with source maps (run with --enable-source-maps, stack traces name the
// TypeScript lines). Our workspaces (@pregon/*) are bundled; every npm package stays external and
// loads from node_modules as it is (native modules such as better-sqlite3 and argon2, and the
// packages that read their own files at run time: pino's transports, swagger-ui's assets).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const raiz = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the compiled servers go. */
export const SALIDA = path.join(raiz, 'dist/servidores');

/** Each bundle's name and its TypeScript entry point. */
export const ENTRADAS = {
  api: 'apps/api/src/main.ts',
  despachador: 'apps/api/src/main-despachador.ts',
  agente: 'apps/pbx/src/main.ts',
  simuladores: 'simulators/src/main.ts',
  admin: 'apps/api/src/admin.ts',
  // The SQLite checkpoint thread (hilos/hilo.ts runs `<task>.mjs` beside the bundle).
  'checkpoints-tarea': 'apps/api/src/db/checkpoints-tarea.ts',
  // The SQLite reading thread (long reads off the api's thread).
  'lectura-tarea': 'apps/api/src/db/lectura-tarea.ts',
  // The phone import's reading thread (its own heap limit, issue 49.1).
  'importacion-tarea': 'apps/api/src/services/importacion-tarea.ts',
};

/** What the bundles are built from: a newer file here makes the build stale. */
const FUENTES = [
  'apps/api/src',
  'apps/pbx/src',
  'simulators/src',
  'packages/contract/src',
  'packages/ami/src',
  'packages/db/src',
  'packages/despacho/src',
  'packages/servidor/src',
  'package-lock.json',
  'scripts/construir-servidores.mjs',
];

/** Written last by a successful build: its date is the build's. */
const MARCA = path.join(SALIDA, '.construido');

/** Newest modification time (ms) of the files under `rutas` (0 when none exists). */
export function masReciente(rutas) {
  let max = 0;
  const visitar = (ruta) => {
    let st;
    try {
      st = fs.statSync(ruta);
    } catch {
      return;
    }
    if (!st.isDirectory()) return void (max = Math.max(max, st.mtimeMs));
    for (const e of fs.readdirSync(ruta))
      if (e !== 'node_modules' && e !== 'dist') visitar(path.join(ruta, e));
  };
  rutas.forEach((r) => visitar(path.join(raiz, r)));
  return max;
}

/** True when every bundle is there and newer than every source. */
export function servidoresAlDia() {
  if (!fs.existsSync(MARCA)) return false;
  if (Object.keys(ENTRADAS).some((n) => !fs.existsSync(path.join(SALIDA, `${n}.mjs`))))
    return false;
  return fs.statSync(MARCA).mtimeMs >= masReciente(FUENTES);
}

/** Bare imports outside our workspaces load from node_modules at run time. */
const paquetesExternos = {
  name: 'paquetes-externos',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith('@pregon/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Bundles every server (`entradas`) into `salida` (dist/servidores); returns the time it took
 * (ms). Built aside and put in place at once, so a running product never loads half a build. */
export async function construirServidores({ entradas = ENTRADAS, salida = SALIDA } = {}) {
  const inicio = Date.now();
  const aparte = `${salida}.${process.pid}`;
  fs.rmSync(aparte, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: raiz,
    entryPoints: Object.fromEntries(
      Object.entries(entradas).map(([n, f]) => [n, path.resolve(raiz, f)]),
    ),
    outdir: aparte,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    // Stack traces need the mappings only; the sources are in the repository (and stay out of memory).
    sourcesContent: false,
    // No keepNames: it wrapped every closure a hot path creates in a defineProperty call
    // (`__name`), 1.6 µs per message in the dispatcher's profile. Identifiers are not minified;
    // the few functions renamed where two modules' names collide (`crear2`) keep their
    // TypeScript name in stack traces, which --enable-source-maps maps, and nothing reads `.name`.
    // Without comments and whitespace (names stay): V8 keeps every script's source as a string,
    // and the api's comments' '…' and 'ó' made its 0.7 MB a two-byte 1.4 MB one; stack traces
    // still name the TypeScript lines through the map.
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [paquetesExternos],
    logLevel: 'warning',
  });
  fs.writeFileSync(path.join(aparte, '.construido'), new Date().toISOString());
  fs.rmSync(salida, { recursive: true, force: true });
  try {
    fs.renameSync(aparte, salida);
  } catch (err) {
    // Another build put its own in place meanwhile: the same sources, so it will do.
    fs.rmSync(aparte, { recursive: true, force: true });
    if (salida !== SALIDA || !servidoresAlDia()) throw err;
  }
  return Date.now() - inicio;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ms = await construirServidores();
  console.log(
    `Servidores compilados en ${path.relative(raiz, SALIDA)} (${(ms / 1000).toFixed(1)} s)`,
  );
}
