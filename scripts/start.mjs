#!/usr/bin/env node
// `npm start`: the embedded default, one supervisor for the whole product. Builds the web app when
// it is missing or older than its sources, then runs the gateway simulators, the telephony agent
// and the api (which migrates and seeds the SQLite file under DATA_DIR and serves everything on
// PORT), each in a process group of its own. A part that dies is restarted with backoff (1 s,
// doubling up to 30 s) and logged; SIGINT (Ctrl-C), SIGTERM or SIGHUP to this process, or to the
// npm process that runs it, stops every process it started (grandchildren included) and exits.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  construirServidores,
  masReciente,
  SALIDA,
  servidoresAlDia,
} from './construir-servidores.mjs';

const raiz = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Modification time of a file (0 when it does not exist). */
const fechaDe = (archivo) => (fs.existsSync(archivo) ? fs.statSync(archivo).mtimeMs : 0);

// The web app: WEB_DIST when given (served as it is), else apps/web/dist, built when missing or
// older than its sources (the first start takes about 30-60 s for it).
let webDist = process.env.WEB_DIST;
if (!webDist && fs.existsSync(path.join(raiz, 'apps/web/package.json'))) {
  webDist = path.join(raiz, 'apps/web/dist');
  const fuentes = [
    'apps/web/src',
    'apps/web/public',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/precomprimir.mjs',
    'apps/web/package.json',
    'packages/contract/src',
  ];
  if (fechaDe(path.join(webDist, 'index.html')) < masReciente(fuentes)) {
    console.log('Construyendo la aplicación web (la primera vez tarda de 30 a 60 s)…');
    const r = spawnSync('npm', ['run', 'build', '-w', '@pregon/web'], {
      cwd: raiz,
      stdio: 'inherit',
    });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
// The servers: compiled JavaScript (dist/servidores), built when missing or older than the
// sources (well under a second); SERVIDORES_TSX=1 runs the TypeScript through tsx instead.
const compilados = process.env.SERVIDORES_TSX !== '1';
if (compilados && !servidoresAlDia()) {
  const ms = await construirServidores();
  console.log(
    `Servidores compilados en ${path.relative(raiz, SALIDA)} (${(ms / 1000).toFixed(1)} s)`,
  );
}
// MALLOC_ARENA_MAX: glibc gives each thread that mallocs an arena of its own, which keeps what
// it freed; the servers' threads (libuv's pool, V8's) held ~4 MB of the api's idle RSS that way.
const env = {
  ...process.env,
  TZ: process.env.TZ ?? 'America/Mexico_City',
  MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
};
if (webDist) env.WEB_DIST = webDist;

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
      0xd8, 0x20, 0xa2, 0xe1, 0x5a, 0x50, 0x00, 0x49, 0x24, 0x92, 0x49, 0x24, 0x50, 0x00, 0x49,
      0x24, 0x92, 0x49, 0x24, 0x50, 0x00, 0x49, 0x24, 0x92, 0x49, 0x24, 0x50, 0x00, 0x49, 0x24,
      0x92, 0x49, 0x24,
    ]);
    fs.writeFileSync(gsm, Buffer.concat(Array.from({ length: 50 }, () => trama)));
  }
}

// Gateway simulators on loopback (SMPP SMSC, Android SMS gateway, WhatsApp Cloud API) and the demo
// devices pointing at them (seeded by the api with SIM_DEMO=1), with credentials made up for this
// run. SIMULADORES=0 leaves them out (real gateways only).
/** The processes of the product, started in this order: a label for the log, its bundle and its
 * TypeScript entry point, and where its output goes. */
const PARTES = [];
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
    env.PBX_SONIDOS_SISTEMA_DIR ??
    path.join(path.resolve(env.DATA_DIR ?? './data'), 'pbx', 'sistema');
  demoPrompts();
  // The api's /health watches the simulators through their control server.
  env.SIM_CONTROL_URL = env.SIM_CONTROL_URL ?? `http://127.0.0.1:${env.SIM_CONTROL_PORT ?? 8083}`;
  PARTES.push({
    etiqueta: 'Simuladores',
    bundle: 'simuladores',
    fuente: 'simulators/src/main.ts',
    stdio: ['ignore', 'ignore', 'inherit'],
  });
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
env.PBX_API_URL =
  env.PBX_API_URL ??
  `http://${hostApi.includes(':') ? `[${hostApi}]` : hostApi}:${env.PORT ?? 8080}`;
PARTES.push({
  etiqueta: 'Agente de telefonía',
  bundle: 'agente',
  fuente: 'apps/pbx/src/main.ts',
  stdio: 'inherit',
});
console.log(`Agente de telefonía en 127.0.0.1:${env.PBX_PORT ?? 8090}`);
PARTES.push({ etiqueta: 'api', bundle: 'api', fuente: 'apps/api/src/main.ts', stdio: 'inherit' });

/** How a part runs: its bundle with source maps for stack traces, or its TypeScript through tsx's
 * loader in the same process (no tsx wrapper process in between). */
const comando = (parte) =>
  compilados
    ? [process.execPath, ['--enable-source-maps', path.join(SALIDA, `${parte.bundle}.mjs`)]]
    : [process.execPath, ['--import', 'tsx', path.join(raiz, parte.fuente)]];

const REINICIO_MIN_MS = 1000;
const REINICIO_MAX_MS = 30_000;
/** A part that ran this long before dying starts again after the shortest wait. */
const ESTABLE_MS = 60_000;
/** How long the parts have to stop after SIGTERM before they are killed. */
const PLAZO_PARADA_MS = 10_000;
let deteniendo = false;

/** Sends `senal` to a part's whole process group (it leads it: spawned detached). */
function senalarGrupo(pid, senal) {
  try {
    process.kill(-pid, senal);
  } catch {
    // The group is gone already.
  }
}

/** Starts a part, and starts it again with backoff whenever it dies, until the product stops. */
function arrancar(parte) {
  if (deteniendo) return;
  const [ejecutable, args] = comando(parte);
  const inicio = Date.now();
  // detached: the part leads a process group of its own, so whatever it spawns is stopped with it.
  const hijo = spawn(ejecutable, args, { cwd: raiz, env, stdio: parte.stdio, detached: true });
  parte.hijo = hijo;
  console.log(`[supervisor] ${parte.etiqueta}: pid ${hijo.pid}`);
  let terminado = false;
  const alTerminar = (code, signal) => {
    if (terminado) return;
    terminado = true;
    parte.hijo = undefined;
    // Whatever the part left behind in its group goes with it.
    if (hijo.pid) senalarGrupo(hijo.pid, 'SIGKILL');
    if (deteniendo) return void alDetenerse();
    if (Date.now() - inicio >= ESTABLE_MS) parte.espera = REINICIO_MIN_MS;
    const espera = parte.espera ?? REINICIO_MIN_MS;
    parte.espera = Math.min(espera * 2, REINICIO_MAX_MS);
    const causa = signal ? `señal ${signal}` : `código ${code}`;
    console.error(
      `[supervisor] ${parte.etiqueta} (pid ${hijo.pid}) terminó (${causa}); se reinicia en ${espera / 1000} s`,
    );
    parte.temporizador = setTimeout(() => arrancar(parte), espera);
  };
  hijo.on('exit', alTerminar);
  hijo.on('error', (err) => {
    console.error(`[supervisor] ${parte.etiqueta} no arrancó: ${err.message}`);
    alTerminar(null, null);
  });
}

let terminar;
const terminados = new Promise((r) => (terminar = r));
/** Resolves the stop once no part runs. */
function alDetenerse() {
  if (PARTES.every((p) => !p.hijo)) terminar();
}

/** Stops every part: SIGTERM to each process group, SIGKILL to those left after the grace period. */
async function detener(senal) {
  if (deteniendo) return;
  deteniendo = true;
  console.log(`[supervisor] ${senal}: deteniendo Pregón…`);
  for (const p of PARTES) {
    clearTimeout(p.temporizador);
    if (p.hijo?.pid) senalarGrupo(p.hijo.pid, 'SIGTERM');
  }
  alDetenerse();
  const plazo = setTimeout(() => {
    for (const p of PARTES) if (p.hijo?.pid) senalarGrupo(p.hijo.pid, 'SIGKILL');
  }, PLAZO_PARADA_MS);
  await terminados;
  clearTimeout(plazo);
  process.exit(0);
}
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, () => void detener(s));
// Whoever started this process (npm, a shell, a service manager) died without passing a signal on
// (npm signals its `sh -c`, which dies alone): the product stops with it instead of running on.
const padre = process.ppid;
setInterval(() => process.ppid !== padre && void detener('sin proceso padre'), 1000).unref();
// Last resort when this process ends any other way: its parts must not outlive it.
process.on('exit', () => {
  for (const p of PARTES) if (p.hijo?.pid) senalarGrupo(p.hijo.pid, 'SIGTERM');
});
PARTES.forEach(arrancar);
