#!/usr/bin/env node
// `npm run dispatcher`: a standalone dispatcher, run as on a host of its own: the compiled
// bundle dist/servidores/despachador.mjs (apps/api/src/main-despachador.ts), built first when it
// is missing or older than the sources (well under a second, in a process of its own: esbuild's
// service never starts in this one), then run in this process with the npm script's node flags.
// SERVIDORES_TSX=1 runs the TypeScript through tsx instead, as `npm start` does.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SALIDA, servidoresAlDia } from './construir-servidores.mjs';

const raiz = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (process.env.SERVIDORES_TSX === '1') {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(raiz, 'apps/api/src/main-despachador.ts')).href);
} else {
  if (!servidoresAlDia()) {
    const r = spawnSync(process.execPath, [path.join(raiz, 'scripts/construir-servidores.mjs')], {
      cwd: raiz,
      stdio: 'inherit',
    });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  await import(pathToFileURL(path.join(SALIDA, 'despachador.mjs')).href);
}
