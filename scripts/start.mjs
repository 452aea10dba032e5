#!/usr/bin/env node
// `npm start`: the embedded default. Builds the web app when it is missing, then runs the api
// (which migrates and seeds the SQLite file under DATA_DIR) and serves everything on PORT.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
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

// Gateway simulators on loopback (SMPP SMSC, Android SMS gateway, WhatsApp Cloud API) and the demo
// devices pointing at them (seeded by the api with SIM_DEMO=1), with credentials made up for this
// run. SIMULADORES=0 leaves them out (real gateways only).
const hijos = [];
if (process.env.SIMULADORES !== '0') {
  const aleatorio = () => crypto.randomBytes(12).toString('base64url');
  Object.assign(env, {
    SIM_DEMO: '1',
    SIM_SMPP_USUARIO: env.SIM_SMPP_USUARIO ?? 'pregon',
    SIM_SMPP_PASSWORD: env.SIM_SMPP_PASSWORD ?? aleatorio().slice(0, 8),
    SIM_ANDROID_USUARIO: env.SIM_ANDROID_USUARIO ?? 'pregon',
    SIM_ANDROID_PASSWORD: env.SIM_ANDROID_PASSWORD ?? aleatorio(),
    SIM_WA_TOKEN: env.SIM_WA_TOKEN ?? aleatorio(),
    SIM_WA_APP_SECRET: env.SIM_WA_APP_SECRET ?? aleatorio(),
    SIM_WA_VERIFY_TOKEN: env.SIM_WA_VERIFY_TOKEN ?? aleatorio(),
    SIM_WA_WEBHOOK: env.SIM_WA_WEBHOOK ?? `http://127.0.0.1:${env.PORT ?? 8080}/webhooks/whatsapp/`,
  });
  const sims = spawn(tsx, [path.join(raiz, 'simulators/src/main.ts')], { cwd: raiz, env, stdio: ['ignore', 'ignore', 'inherit'] });
  hijos.push(sims);
  console.log(
    `Simuladores en 127.0.0.1: SMPP :${env.SIM_SMPP_PORT ?? 2775}, Android :${env.SIM_ANDROID_PORT ?? 8081}, ` +
      `WhatsApp :${env.SIM_WHATSAPP_PORT ?? 8082} (control :${env.SIM_CONTROL_PORT ?? 8083})`,
  );
}
const api = spawn(tsx, [path.join(raiz, 'apps/api/src/main.ts')], { cwd: raiz, env, stdio: 'inherit' });
hijos.push(api);
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => hijos.forEach((h) => h.kill(s)));
api.on('exit', (code) => {
  for (const h of hijos) if (h !== api) h.kill('SIGTERM');
  process.exit(code ?? 0);
});
