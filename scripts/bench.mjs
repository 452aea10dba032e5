#!/usr/bin/env node
// `npm run bench`: runs every benchmark under bench/ one after the other (each prints the
// project's figure beside its baseline). `npm run bench -- generar` runs only the named ones;
// `npm run bench -- --engine postgres` passes the engine to every benchmark that takes one (the
// dispatch, import and call benchmarks). PREGON_BD_PREFIJO names their PostgreSQL databases.
// `--listar` prints the commands without running them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const raiz = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const i = args.indexOf('--engine');
const motor = i >= 0 ? args[i + 1] : undefined;
if (i >= 0 && motor !== 'sqlite' && motor !== 'postgres') {
  console.error(`--engine debe ser sqlite o postgres (se recibió '${motor ?? ''}')`);
  process.exit(2);
}
const listar = args.includes('--listar');
const filtro = args.filter((a, j) => a !== '--listar' && (i < 0 || (j !== i && j !== i + 1)));
const scripts = fs
  .readdirSync(path.join(raiz, 'bench'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('_'))
  .filter((f) => !filtro.length || filtro.some((n) => f.includes(n)))
  .sort();
let fallos = 0;
for (const s of scripts) {
  // A benchmark takes an engine when its own usage line names --engine.
  const conMotor =
    motor && fs.readFileSync(path.join(raiz, 'bench', s), 'utf8').includes('--engine');
  const extra = conMotor ? ['--engine', motor] : [];
  console.log(`${listar ? '' : '\n=== '}bench/${s}${extra.length ? ` ${extra.join(' ')}` : ''}`);
  if (listar) continue;
  const r = spawnSync(path.join(raiz, 'node_modules/.bin/tsx'), [path.join('bench', s), ...extra], {
    cwd: raiz,
    stdio: 'inherit',
  });
  if (r.status !== 0) fallos++;
}
process.exit(fallos ? 1 : 0);
