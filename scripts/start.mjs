#!/usr/bin/env node
// `npm start`: the embedded default. Builds the web app when it is missing, then runs the api
// (which migrates and seeds the SQLite file under DATA_DIR) and serves everything on PORT.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const raiz = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDist = path.join(raiz, 'apps/web/dist');
if (fs.existsSync(path.join(raiz, 'apps/web/package.json')) && !fs.existsSync(path.join(webDist, 'index.html'))) {
  console.log('Construyendo la aplicación web…');
  const r = spawnSync('npm', ['run', 'build', '-w', '@pregon/web'], { cwd: raiz, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const env = { ...process.env, WEB_DIST: process.env.WEB_DIST ?? webDist, TZ: process.env.TZ ?? 'America/Mexico_City' };
const tsx = path.join(raiz, 'node_modules/.bin/tsx');
const api = spawn(tsx, [path.join(raiz, 'apps/api/src/main.ts')], { cwd: raiz, env, stdio: 'inherit' });
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => api.kill(s));
api.on('exit', (code) => process.exit(code ?? 0));
