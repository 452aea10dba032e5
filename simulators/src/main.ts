import Fastify from 'fastify';
import { SimuladorAndroid } from './android.ts';
import type { Comportamiento } from './comun.ts';
import { SimuladorSmpp } from './smpp.ts';
import { SimuladorWhatsapp } from './whatsapp.ts';

// The three gateway simulators on loopback, for `npm start` and the benchmarks:
//   SMPP SMSC        SIM_SMPP_PORT      (2775)  system_id/password SIM_SMPP_USUARIO/SIM_SMPP_PASSWORD
//   Android gateway  SIM_ANDROID_PORT   (8081)  basic auth SIM_ANDROID_USUARIO/SIM_ANDROID_PASSWORD
//   WhatsApp API     SIM_WHATSAPP_PORT  (8082)  token SIM_WA_TOKEN, phone number id SIM_WA_PHONE_ID,
//                                               app secret SIM_WA_APP_SECRET, webhooks to SIM_WA_WEBHOOK
//   control          SIM_CONTROL_PORT   (8083)  GET /{smpp|android|whatsapp}/ → behaviour and count;
//                                               POST /{…}/ {caido, latenciaMs, tasaFallo, retrasoReciboMs}
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
});
const sims = { smpp, android, whatsapp };

const control = Fastify({ logger: false });
control.get('/:sim/', async (req, reply) => {
  const s = sims[(req.params as { sim: keyof typeof sims }).sim];
  if (!s) return reply.code(404).send({ message: 'simulador desconocido' });
  const r = s.registro;
  return {
    ...s.comportamiento,
    recibidos: r.length,
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
  return { ok: true };
});

const puertos = {
  smpp: await smpp.iniciar(),
  android: await android.iniciar(),
  whatsapp: await whatsapp.iniciar(),
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
    control.close(),
  ]);
  process.exit(0);
};
process.once('SIGINT', cerrar);
process.once('SIGTERM', cerrar);
