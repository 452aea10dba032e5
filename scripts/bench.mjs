#!/usr/bin/env node
// `npm run bench`: runs every benchmark under bench/ one after the other (each prints the
// project's figure beside its baseline). `npm run bench -- generar` runs only the named ones.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const raiz = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const filtro = process.argv.slice(2);
const scripts = fs
  .readdirSync(path.join(raiz, 'bench'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('_'))
  .filter((f) => !filtro.length || filtro.some((n) => f.includes(n)))
  .sort();
let fallos = 0;
for (const s of scripts) {
  console.log(`\n=== bench/${s}`);
  const r = spawnSync(path.join(raiz, 'node_modules/.bin/tsx'), [path.join('bench', s)], { cwd: raiz, stdio: 'inherit' });
  if (r.status !== 0) fallos++;
}
process.exit(fallos ? 1 : 0);
