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

/** A Spanish demo audio for a first call exercise: DATA_DIR/demo/aviso-demo.gsm, spoken by
 * espeak-ng and converted by sox when both are installed (else a Debian core prompt, else none). */
function demoAudio() {
  const dir = path.join(path.resolve(env.DATA_DIR ?? './data'), 'demo');
  const gsm = path.join(dir, 'aviso-demo.gsm');
  if (fs.existsSync(gsm)) return;
  fs.mkdirSync(dir, { recursive: true });
  const wav = path.join(dir, 'aviso-demo.wav');
  const texto = 'Este es un simulacro. Diríjase con calma al punto de reunión más cercano.';
  const voz = spawnSync('espeak-ng', ['-v', 'es-419', '-w', wav, texto]);
  const sox = voz.status === 0 && spawnSync('sox', [wav, '-r', '8000', '-c', '1', gsm]);
  fs.rmSync(wav, { force: true });
  const prompt = '/usr/share/asterisk/sounds/es_MX_f_Allison/vm-goodbye.gsm';
  if (!(sox && sox.status === 0) && fs.existsSync(prompt)) fs.copyFileSync(prompt, gsm);
  if (fs.existsSync(gsm)) console.log(`Audio de demostración para un ejercicio de llamada: ${gsm}`);
}

/** Asterisk's own prompts the demo dialplan plays (PROMPTS_SISTEMA in
 * packages/contract/src/rules/dialplan.ts: the quiz's closing 'gracias'), in the language folder
 * the agent checks before a quiz starts and the AMI simulator plays from:
 * PBX_SONIDOS_SISTEMA_DIR/PBX_IDIOMA (default DATA_DIR/pbx/sistema/es). Debian's Spanish core
 * sounds are linked when installed (as on a real host); else espeak-ng and sox say "Gracias"; else
 * one second of GSM silence, so the demo works on a machine with only `npm install`. */
function demoPrompts() {
  const idioma = env.PBX_IDIOMA || 'es';
  const carpeta = path.join(env.PBX_SONIDOS_SISTEMA_DIR, idioma);
  if (fs.existsSync(carpeta)) return;
  fs.mkdirSync(env.PBX_SONIDOS_SISTEMA_DIR, { recursive: true });
  const debian = '/usr/share/asterisk/sounds/es_MX_f_Allison';
  if (idioma.startsWith('es') && fs.existsSync(path.join(debian, 'auth-thankyou.gsm'))) {
    fs.symlinkSync(debian, carpeta);
    return;
  }
  fs.mkdirSync(carpeta, { recursive: true });
  const gsm = path.join(carpeta, 'auth-thankyou.gsm');
  const wav = path.join(carpeta, 'auth-thankyou.wav');
  const voz = spawnSync('espeak-ng', ['-v', 'es-419', '-w', wav, 'Gracias.']);
  const sox = voz.status === 0 && spawnSync('sox', [wav, '-r', '8000', '-c', '1', gsm]);
  fs.rmSync(wav, { force: true });
  if (!(sox && sox.status === 0)) {
    // Asterisk's silent GSM frame (format_gsm.c gsm_silence), 50 frames of 20 ms.
    const trama = Buffer.from([
      0xd8, 0x20, 0xa2, 0xe1, 0x5a, 0x50, 0x00, 0x49, 0x24, 0x92, 0x49, 0x24, 0x50, 0x00, 0x49, 0x24,
      0x92, 0x49, 0x24, 0x50, 0x00, 0x49, 0x24, 0x92, 0x49, 0x24, 0x50, 0x00, 0x49, 0x24, 0x92, 0x49,
      0x24,
    ]);
    fs.writeFileSync(gsm, Buffer.concat(Array.from({ length: 50 }, () => trama)));
  }
}

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
    SIM_AMI_USUARIO: env.SIM_AMI_USUARIO ?? 'pregon',
    SIM_AMI_SECRETO: env.SIM_AMI_SECRETO ?? aleatorio(),
    // Busy and unanswered demo callees are called again after 30 s instead of 10 minutes.
    DESPACHO_LLAMADA_ESPERA_MS: env.DESPACHO_LLAMADA_ESPERA_MS ?? '30000',
  });
  // The telephony agent reloads the AMI simulator's dialplan, as it would a real Asterisk's.
  Object.assign(env, {
    PBX_AMI_URL: env.PBX_AMI_URL ?? `ami://127.0.0.1:${env.SIM_AMI_PORT ?? 5038}`,
    PBX_AMI_USUARIO: env.PBX_AMI_USUARIO ?? env.SIM_AMI_USUARIO,
    PBX_AMI_SECRETO: env.PBX_AMI_SECRETO ?? env.SIM_AMI_SECRETO,
  });
  demoAudio();
  env.PBX_SONIDOS_SISTEMA_DIR =
    env.PBX_SONIDOS_SISTEMA_DIR ?? path.join(path.resolve(env.DATA_DIR ?? './data'), 'pbx', 'sistema');
  demoPrompts();
  const sims = spawn(tsx, [path.join(raiz, 'simulators/src/main.ts')], { cwd: raiz, env, stdio: ['ignore', 'ignore', 'inherit'] });
  hijos.push(sims);
  console.log(
    `Simuladores en 127.0.0.1: SMPP :${env.SIM_SMPP_PORT ?? 2775}, Android :${env.SIM_ANDROID_PORT ?? 8081}, ` +
      `WhatsApp :${env.SIM_WHATSAPP_PORT ?? 8082}, Asterisk AMI :${env.SIM_AMI_PORT ?? 5038} (control :${env.SIM_CONTROL_PORT ?? 8083})`,
  );
}
// The telephony agent (apps/pbx) on loopback, its folders under DATA_DIR/pbx (sounds, dialplan
// include files, trunks). A real Asterisk host runs only the agent (`npm run pbx`).
// The api asks the agent whether a call's audio is there before starting it (PBX_BASE set).
env.PBX_BASE = env.PBX_BASE ?? `http://127.0.0.1:${env.PBX_PORT ?? 8090}`;
// The agent asks the api whether each token's session still stands: where the api listens.
const hostApi = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
env.PBX_API_URL = env.PBX_API_URL ?? `http://${hostApi.includes(':') ? `[${hostApi}]` : hostApi}:${env.PORT ?? 8080}`;
const pbx = spawn(tsx, [path.join(raiz, 'apps/pbx/src/main.ts')], { cwd: raiz, env, stdio: 'inherit' });
hijos.push(pbx);
console.log(`Agente de telefonía en 127.0.0.1:${env.PBX_PORT ?? 8090}`);
const api = spawn(tsx, [path.join(raiz, 'apps/api/src/main.ts')], { cwd: raiz, env, stdio: 'inherit' });
hijos.push(api);
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => hijos.forEach((h) => h.kill(s)));
api.on('exit', (code) => {
  for (const h of hijos) if (h !== api) h.kill('SIGTERM');
  process.exit(code ?? 0);
});
