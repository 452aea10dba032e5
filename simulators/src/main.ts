import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { SimuladorAmi } from './ami.ts';
import { SimuladorAndroid } from './android.ts';
import type { Comportamiento } from './comun.ts';
import { SimuladorSmpp, type MoSimulado } from './smpp.ts';
import { SimuladorWhatsapp } from './whatsapp.ts';

// The three gateway simulators on loopback, for `npm start` and the benchmarks:
//   SMPP SMSC        SIM_SMPP_PORT      (2775)  system_id/password SIM_SMPP_USUARIO/SIM_SMPP_PASSWORD
//   Android gateway  SIM_ANDROID_PORT   (8081)  basic auth SIM_ANDROID_USUARIO/SIM_ANDROID_PASSWORD
//   WhatsApp API     SIM_WHATSAPP_PORT  (8082)  token SIM_WA_TOKEN, phone number id SIM_WA_PHONE_ID,
//                                               app secret SIM_WA_APP_SECRET, webhooks to SIM_WA_WEBHOOK,
//                                               templates of SIM_WA_WABA_ID; free text to everyone
//                                               unless SIM_WA_VENTANA=0 (then the 24-hour rule holds);
//                                               SIM_WA_MPS messages/s before 130429 (Meta's default 80;
//                                               unlimited when unset), SIM_WA_MIXTOS=1 mixed webhooks
//   Asterisk AMI     SIM_AMI_PORT       (5038)  user SIM_AMI_USUARIO/SIM_AMI_SECRETO; runs the PBX agent's
//                                               files (SIM_AMI_DIALPLAN_DIR, SIM_AMI_SONIDOS_DIR: default
//                                               $DATA_DIR/pbx/dialplan and /sonidos; system prompts from
//                                               SIM_AMI_SISTEMA_DIR or PBX_SONIDOS_SISTEMA_DIR/PBX_IDIOMA),
//                                               SIM_AMI_VELOCIDAD (1)
//   control          SIM_CONTROL_PORT   (8083)  GET /health; GET /{smpp|android|whatsapp}/ → behaviour and count;
//                                               POST /{…}/ {caido, latenciaMs, tasaFallo, retrasoReciboMs};
//                                               GET /ami/ → live calls; POST /ami/ {caido, velocidad};
//                                               POST /smpp/mo/ {de, texto, data_coding?, concatenacion?,
//                                               porParte?} → the SMSC sends that reply (MO deliver_sm),
//                                               resending it until a session takes it; GET /smpp/mo/ → counts
//                                               POST /android/mo/ {from, text} → the phone receives that SMS and
//                                               posts it to its 'sms:received' webhooks (signed, retried);
//                                               POST /whatsapp/mo/ {from, text, tipo?: text|button|interactive}
//                                               → a user's message to the webhook (signed, retried)
// Port 0 picks a free port. Prints one JSON line with the ports once listening.

const env = process.env;
const puerto = (v: string | undefined, d: number) => (v === undefined || v === '' ? d : Number(v));
const host = env.SIM_HOST ?? '127.0.0.1';
const comun: Partial<Comportamiento> = {
  latenciaMs: puerto(env.SIM_LATENCIA_MS, 0),
  tasaFallo: Number(env.SIM_TASA_FALLO ?? 0),
  retrasoReciboMs: puerto(env.SIM_RETRASO_RECIBO_MS, 500),
};

const smpp = new SimuladorSmpp({
  ...comun,
  host,
  port: puerto(env.SIM_SMPP_PORT, 2775),
  system_id: env.SIM_SMPP_USUARIO ?? 'pregon',
  password: env.SIM_SMPP_PASSWORD ?? 'pregon',
});
const android = new SimuladorAndroid({
  ...comun,
  host,
  port: puerto(env.SIM_ANDROID_PORT, 8081),
  usuario: env.SIM_ANDROID_USUARIO ?? 'pregon',
  password: env.SIM_ANDROID_PASSWORD ?? 'pregon',
});
const whatsapp = new SimuladorWhatsapp({
  ...comun,
  host,
  port: puerto(env.SIM_WHATSAPP_PORT, 8082),
  token: env.SIM_WA_TOKEN ?? 'pregon-demo',
  phoneNumberId: env.SIM_WA_PHONE_ID ?? '100000000000001',
  appSecret: env.SIM_WA_APP_SECRET ?? 'pregon-demo-secreto',
  webhookUrl: env.SIM_WA_WEBHOOK ?? 'http://127.0.0.1:8080/webhooks/whatsapp/',
  wabaId: env.SIM_WA_WABA_ID ?? '100000000000002',
  ventanaAbierta: env.SIM_WA_VENTANA !== '0',
  maxPorSegundo: env.SIM_WA_MPS ? Number(env.SIM_WA_MPS) : undefined,
  webhooksMixtos: env.SIM_WA_MIXTOS === '1',
});
const sims = { smpp, android, whatsapp };
const pbx = path.join(path.resolve(env.DATA_DIR ?? './data'), 'pbx');
function sistemaDemo(): string | undefined {
  if (env.SIM_AMI_SISTEMA_DIR) return env.SIM_AMI_SISTEMA_DIR;
  const dir = path.join(
    env.PBX_SONIDOS_SISTEMA_DIR ?? path.join(pbx, 'sistema'),
    env.PBX_IDIOMA || 'es',
  );
  return fs.existsSync(dir) ? dir : undefined;
}
const ami = new SimuladorAmi({
  host,
  port: puerto(env.SIM_AMI_PORT, 5038),
  usuario: env.SIM_AMI_USUARIO ?? 'pregon',
  secreto: env.SIM_AMI_SECRETO ?? 'pregon',
  dirDialplan: env.SIM_AMI_DIALPLAN_DIR ?? path.join(pbx, 'dialplan'),
  dirSonidos: env.SIM_AMI_SONIDOS_DIR ?? path.join(pbx, 'sonidos'),
  // Asterisk's own prompts in the dialplan's language, where the agent checks them (npm start
  // lays them out); Debian's Spanish core sounds when that folder is absent.
  dirSistema: sistemaDemo(),
  velocidad: Number(env.SIM_AMI_VELOCIDAD ?? 1),
});

const control = Fastify({ logger: false });
// Watched by the api's /health (SIM_CONTROL_URL) when `npm start` runs the simulators.
control.get('/health', async () => ({ status: 200 }));
control.get('/ami/', async () => ({
  caido: ami.caido,
  velocidad: ami.velocidad,
  llamadas: ami.registro.length,
  vivas: ami.vivasAhora,
  maxVivas: ami.maxVivas,
}));
control.post('/ami/', async (req) => {
  const b = (req.body ?? {}) as { caido?: boolean; velocidad?: number };
  ami.ajustar({ caido: b.caido, velocidad: b.velocidad });
  return { caido: ami.caido, velocidad: ami.velocidad };
});
// Replies (issue 46): a handset's message to the account, delivered as MO deliver_sm.
control.post('/smpp/mo/', async (req, reply) => {
  const b = (req.body ?? {}) as Partial<MoSimulado>;
  if (typeof b.de !== 'string' || typeof b.texto !== 'string')
    return reply.code(400).send({ message: 'de y texto son obligatorios' });
  void smpp.enviarMo({
    de: b.de,
    texto: b.texto,
    data_coding: b.data_coding,
    concatenacion: b.concatenacion,
    porParte: b.porParte,
  });
  return reply.code(202).send({ ok: true });
});
control.get('/smpp/mo/', async () => smpp.mo);
// Replies over Android and WhatsApp (issue 46.1), as their gateways deliver them.
/** The sender and text of a simulated reply ({from, text}, or {de, texto} as POST /smpp/mo/). */
function remitenteYTexto(b: Record<string, unknown>): { de: string; texto: string } | null {
  const de = b.from ?? b.de;
  const texto = b.text ?? b.texto;
  return typeof de === 'string' && de && typeof texto === 'string' ? { de, texto } : null;
}
control.post('/android/mo/', async (req, reply) => {
  const m = remitenteYTexto((req.body ?? {}) as Record<string, unknown>);
  if (!m) return reply.code(400).send({ message: 'from y text son obligatorios' });
  if (![...android.webhooks.values()].some((w) => w.event === 'sms:received'))
    return reply
      .code(409)
      .send({ message: 'el teléfono no tiene webhook sms:received registrado' });
  void android.recibirSms(m);
  return reply.code(202).send({ ok: true });
});
control.get('/android/mo/', async () => ({
  webhooks: [...android.webhooks.values()],
  entregados: android.webhooksEntregados,
  fallidos: android.webhooksFallidos,
}));
control.post('/whatsapp/mo/', async (req, reply) => {
  const b = (req.body ?? {}) as Record<string, unknown>;
  const m = remitenteYTexto(b);
  if (!m) return reply.code(400).send({ message: 'from y text son obligatorios' });
  const tipo = b.tipo === 'button' || b.tipo === 'interactive' ? b.tipo : 'text';
  void whatsapp.recibirMensaje({ ...m, tipo });
  return reply.code(202).send({ ok: true });
});
control.get('/:sim/', async (req, reply) => {
  const s = sims[(req.params as { sim: keyof typeof sims }).sim];
  if (!s) return reply.code(404).send({ message: 'simulador desconocido' });
  const r = s.registro;
  return {
    ...s.comportamiento,
    recibidos: r.length,
    /** SMPP: submits accepted (a concatenated text counts one per part). */
    partes: s instanceof SimuladorSmpp ? s.partesAceptadas : r.length,
    primero: r[0]?.t ?? null,
    ultimo: r.at(-1)?.t ?? null,
  };
});
control.get('/:sim/registro/', async (req, reply) => {
  const s = sims[(req.params as { sim: keyof typeof sims }).sim];
  if (!s) return reply.code(404).send({ message: 'simulador desconocido' });
  return s.registro.map((m) => m.t);
});
control.post('/:sim/', async (req, reply) => {
  const s = sims[(req.params as { sim: keyof typeof sims }).sim];
  if (!s) return reply.code(404).send({ message: 'simulador desconocido' });
  await s.ajustar((req.body ?? {}) as Partial<Comportamiento>);
  return s.comportamiento;
});
control.post('/:sim/vaciar/', async (req) => {
  const s = sims[(req.params as { sim: keyof typeof sims }).sim];
  s?.registro.splice(0);
  if (s instanceof SimuladorSmpp) s.partesAceptadas = 0;
  return { ok: true };
});

const puertos = {
  smpp: await smpp.iniciar(),
  android: await android.iniciar(),
  whatsapp: await whatsapp.iniciar(),
  ami: await ami.iniciar(),
  control: 0,
};
await control.listen({ port: puerto(env.SIM_CONTROL_PORT, 8083), host });
const a = control.server.address();
puertos.control = a && typeof a === 'object' ? a.port : 0;
console.log(JSON.stringify({ simuladores: puertos }));

const cerrar = async () => {
  await Promise.allSettled([
    smpp.detener(),
    android.detener(),
    whatsapp.detener(),
    ami.detener(),
    control.close(),
  ]);
  process.exit(0);
};
process.once('SIGINT', cerrar);
process.once('SIGTERM', cerrar);
