import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Kysely, Transaction } from 'kysely';
import {
  CABECERA_ENTREGA,
  CABECERA_EVENTO,
  CABECERA_FIRMA,
  CABECERA_MARCA,
  EVENTOS_WEBHOOK,
  type Entrega,
  type EventoWebhook,
  type Webhook,
} from '@pregon/contract/api/integraciones';
import { msg } from '@pregon/contract/messages';
import type { DB } from '@pregon/db/schema';
import type { Sesion } from '@pregon/servidor/auth/tokens';
import {
  busquedaGuardada,
  comprobarDestino,
  destinoLiteralRefusado,
  leerDestinosPermitidos,
  type ListaDestinos,
} from '@pregon/despacho';
import { auditar } from '../repositories/auditoria.ts';
import { arrancarSondeo } from './sondeo.ts';
import { cifrarSecretoWebhook, descifrarSecretoWebhook } from '@pregon/db/credenciales';

import { HttpError, noEncontrado } from '@pregon/servidor/http/errores';

// Issue 47.4: signed outgoing webhooks. An event writes one delivery per subscription in the
// transaction that records it (the audit row of an exercise's lifecycle, the reply, the case),
// so what happened and what must be told are committed together and a restart loses nothing.
// A worker in each api process claims due deliveries with a lease, POSTs them signed
// (HMAC-SHA256 with the subscription's secret over `${marca}.${cuerpo}`) and retries failures
// with doubling delays (WEBHOOKS_REINTENTO_MS, default 30 s, at most 1 h) until 24 h after the
// event; each attempt's status, answer and time stay in the delivery's row ('Reenviar' puts it
// back in the queue). Targets on loopback, link-local or private addresses are refused, at
// subscription and at every connection (every address the name resolves to), unless
// WEBHOOKS_DESTINOS_PERMITIDOS lists them (same syntax as EQUIPOS_DESTINOS_PERMITIDOS).

type K = Kysely<DB> | Transaction<DB>;

/** How long a delivery keeps being retried. */
export const PLAZO_REINTENTOS_MS = 24 * 3600_000;
/** Longest wait between two attempts. */
const ESPERA_MAXIMA_MS = 3600_000;
/** How long a claimed delivery is held by one worker. */
const LEASE_MS = 60_000;
/** How long one attempt may take. */
const TIEMPO_ESPERA_MS = 10_000;
/** First bytes of the receiver's answer kept in the log. */
const MAX_RESPUESTA = 1000;

/** The webhooks' settings. */
export interface ConfigWebhooks {
  /** WEBHOOKS_DESTINOS_PERMITIDOS: loopback and private targets allowed (default none). */
  destinos: ListaDestinos;
  /** WEBHOOKS_REINTENTO_MS: the first retry's delay; each next one doubles. */
  reintentoMs: number;
  /** WEBHOOKS_SONDEO_MS: how often the worker looks for due deliveries. */
  sondeoMs: number;
}

/** The settings from an environment. */
export function configWebhooksDeEntorno(env: NodeJS.ProcessEnv = process.env): ConfigWebhooks {
  const entero = (v: string | undefined, def: number) => {
    const n = Number(v ?? def);
    return Number.isInteger(n) && n > 0 ? n : def;
  };
  return {
    destinos: leerDestinosPermitidos(env.WEBHOOKS_DESTINOS_PERMITIDOS ?? ''),
    reintentoMs: entero(env.WEBHOOKS_REINTENTO_MS, 30_000),
    sondeoMs: entero(env.WEBHOOKS_SONDEO_MS, 1000),
  };
}

/** The signature of a delivery: 'sha256=' and the hex HMAC-SHA256 of `${marca}.${cuerpo}`. */
export function firmar(secreto: string, marca: string, cuerpo: string): string {
  return `sha256=${crypto.createHmac('sha256', secreto).update(`${marca}.${cuerpo}`).digest('hex')}`;
}

/** The refusal of a target (Spanish, naming the field url, `clave` the catalogue's text, which
 * names the setting that allows it), or null when it may be reached. */
export async function destinoRefusado(
  url: string,
  lista: ListaDestinos,
  clave: 'destinoWebhookNoPermitido' | 'destinoFuenteNoPermitido' = 'destinoWebhookNoPermitido',
): Promise<string | null> {
  const u = new URL(url);
  const puerto = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  const err = await comprobarDestino(u.hostname, puerto, lista);
  if (!err) return null;
  const h = u.hostname.replace(/^\[|\]$/g, '');
  const ip = /\(([^)]+)\)/.exec(err.message)?.[1] ?? h;
  return msg(clave, { destino: `${u.hostname}:${puerto}`, ip });
}

type FilaWebhook = {
  id_webhook: number;
  url: string;
  eventos: string;
  activo: number;
  creado: number;
  creado_por: string | null;
};
const presentarWebhook = (f: FilaWebhook): Webhook => ({
  id_webhook: Number(f.id_webhook),
  url: f.url,
  eventos: f.eventos
    .split(',')
    .filter((e): e is EventoWebhook => (EVENTOS_WEBHOOK as readonly string[]).includes(e)),
  activo: Number(f.activo),
  creado: Number(f.creado),
  creado_por: f.creado_por,
});

/** Every subscription. */
export async function listarWebhooks(k: K): Promise<Webhook[]> {
  const filas = await k
    .selectFrom('webhooks')
    .select(['id_webhook', 'url', 'eventos', 'activo', 'creado', 'creado_por'])
    .orderBy('id_webhook')
    .execute();
  return filas.map(presentarWebhook);
}

/** Subscribes a URL (refused when it points at a local or private address not allowed); the
 * secret is returned here only. Audited. */
export async function crearWebhook(
  k: Kysely<DB>,
  cfg: ConfigWebhooks,
  actor: Pick<Sesion, 'id_usuario' | 'usuario'>,
  datos: { url: string; eventos: EventoWebhook[] },
): Promise<{ secreto: string; data: Webhook }> {
  const refusado = await destinoRefusado(datos.url, cfg.destinos);
  if (refusado) throw new HttpError(400, refusado, 'url');
  const secreto = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
  const creado = Date.now();
  return k.transaction().execute(async (trx) => {
    const { id_webhook } = await trx
      .insertInto('webhooks')
      .values({
        url: datos.url,
        eventos: datos.eventos.join(','),
        secreto: cifrarSecretoWebhook(secreto),
        creado,
        creado_por: actor.usuario,
      })
      .returning('id_webhook')
      .executeTakeFirstOrThrow();
    await auditar(trx, actor, 'crear', 'webhook', Number(id_webhook), datos);
    const data = presentarWebhook({
      id_webhook,
      url: datos.url,
      eventos: datos.eventos.join(','),
      activo: 1,
      creado,
      creado_por: actor.usuario,
    });
    return { secreto, data };
  });
}

/** Deletes a subscription and its log. Audited. */
export async function eliminarWebhook(
  k: Kysely<DB>,
  actor: Pick<Sesion, 'id_usuario' | 'usuario'>,
  id: number,
): Promise<void> {
  await k.transaction().execute(async (trx) => {
    const r = await trx.deleteFrom('webhooks').where('id_webhook', '=', id).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw noEncontrado('la suscripción');
    await auditar(trx, actor, 'eliminar', 'webhook', id);
  });
}

/** A subscription's last 100 deliveries, newest first. */
export async function listarEntregas(k: K, id_webhook: number): Promise<Entrega[]> {
  const existe = await k
    .selectFrom('webhooks')
    .select('id_webhook')
    .where('id_webhook', '=', id_webhook)
    .executeTakeFirst();
  if (!existe) throw noEncontrado('la suscripción');
  const filas = await k
    .selectFrom('webhook_entregas')
    .select([
      'id_entrega',
      'id_webhook',
      'evento',
      'estado',
      'intentos',
      'creada',
      'ultimo_intento',
      'siguiente_intento',
      'estado_http',
      'respuesta',
      'duracion_ms',
      'error',
    ])
    .where('id_webhook', '=', id_webhook)
    .orderBy('id_entrega', 'desc')
    .limit(100)
    .execute();
  const n = (v: number | null) => (v === null ? null : Number(v));
  return filas.map((f) => ({
    ...f,
    id_entrega: Number(f.id_entrega),
    id_webhook: Number(f.id_webhook),
    intentos: Number(f.intentos),
    creada: Number(f.creada),
    ultimo_intento: n(f.ultimo_intento),
    siguiente_intento: n(f.siguiente_intento),
    estado_http: n(f.estado_http),
    duracion_ms: n(f.duracion_ms),
  }));
}

/** 'Reenviar': the delivery goes back to the queue now, with a new 24 h of retries. Audited. */
export async function reenviarEntrega(
  k: Kysely<DB>,
  actor: Pick<Sesion, 'id_usuario' | 'usuario'>,
  id: number,
): Promise<void> {
  await k.transaction().execute(async (trx) => {
    const ahora = Date.now();
    const r = await trx
      .updateTable('webhook_entregas')
      .set({ estado: 'pendiente', siguiente_intento: ahora, creada: ahora, lease_hasta: null })
      .where('id_entrega', '=', id)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw noEncontrado('la entrega');
    await auditar(trx, actor, 'modificar', 'webhook_entrega', id, { reenviar: true });
  });
}

/** What one attempt got. */
interface Intento {
  estado_http: number | null;
  respuesta: string | null;
  error: string | null;
}

/** POSTs one delivery, signed, within TIEMPO_ESPERA_MS; refused destinations open no socket. */
function enviar(
  url: string,
  cuerpo: string,
  cabeceras: Record<string, string>,
  lista: ListaDestinos,
): Promise<Intento> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const puerto = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    const refusado = destinoLiteralRefusado(u.hostname, puerto, lista);
    if (refusado) return resolve({ estado_http: null, respuesta: null, error: refusado.message });
    const datos = Buffer.from(cuerpo);
    const req = (u.protocol === 'https:' ? https : http).request(
      u,
      {
        method: 'POST',
        headers: {
          ...cabeceras,
          'content-type': 'application/json',
          'content-length': String(datos.length),
          'user-agent': 'Pregon-Webhooks/1',
        },
        timeout: TIEMPO_ESPERA_MS,
        lookup: busquedaGuardada(puerto, () => lista),
      },
      (res) => {
        const partes: Buffer[] = [];
        let largo = 0;
        res.on('data', (c: Buffer) => {
          if (largo < MAX_RESPUESTA) partes.push(c);
          largo += c.length;
        });
        res.on('error', (e) =>
          resolve({ estado_http: res.statusCode ?? null, respuesta: null, error: e.message }),
        );
        res.on('end', () =>
          resolve({
            estado_http: res.statusCode ?? null,
            respuesta: Buffer.concat(partes).toString('utf8').slice(0, MAX_RESPUESTA),
            error: null,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('tiempo de espera agotado')));
    req.on('error', (e) => resolve({ estado_http: null, respuesta: null, error: e.message }));
    req.end(datos);
  });
}

/** The wait before attempt n+1 after n failed ones: reintentoMs, doubling, at most 1 h. */
export const esperaTras = (intentos: number, reintentoMs: number) =>
  Math.min(ESPERA_MAXIMA_MS, reintentoMs * 2 ** Math.max(0, intentos - 1));

/** Sends the due deliveries once; returns how many were attempted. */
export async function entregarPendientes(k: Kysely<DB>, cfg: ConfigWebhooks): Promise<number> {
  const ahora = Date.now();
  const candidatas = await k
    .selectFrom('webhook_entregas as e')
    .innerJoin('webhooks as w', 'w.id_webhook', 'e.id_webhook')
    .select([
      'e.id_entrega',
      'e.evento',
      'e.cuerpo',
      'e.intentos',
      'e.creada',
      'w.url',
      'w.secreto',
    ])
    .where('e.estado', '=', 'pendiente')
    .where('e.siguiente_intento', '<=', ahora)
    .where((eb) => eb.or([eb('e.lease_hasta', 'is', null), eb('e.lease_hasta', '<', ahora)]))
    .orderBy('e.siguiente_intento')
    .limit(20)
    .execute();
  let n = 0;
  await Promise.all(
    candidatas.map(async (c) => {
      const id = Number(c.id_entrega);
      const tomada = await k
        .updateTable('webhook_entregas')
        .set({ lease_hasta: ahora + LEASE_MS })
        .where('id_entrega', '=', id)
        .where('estado', '=', 'pendiente')
        .where((eb) => eb.or([eb('lease_hasta', 'is', null), eb('lease_hasta', '<', ahora)]))
        .executeTakeFirst();
      if (Number(tomada.numUpdatedRows) === 0) return;
      n++;
      const marca = String(Math.floor(Date.now() / 1000));
      const inicio = Date.now();
      // Never signed with a wrong secret: one this process cannot read is a failed attempt.
      const secreto = descifrarSecretoWebhook(c.secreto);
      const r: Intento =
        secreto === undefined
          ? { estado_http: null, respuesta: null, error: msg('secretoWebhookIlegible') }
          : await enviar(
              c.url,
              c.cuerpo,
              {
                [CABECERA_FIRMA]: firmar(secreto, marca, c.cuerpo),
                [CABECERA_MARCA]: marca,
                [CABECERA_EVENTO]: c.evento,
                [CABECERA_ENTREGA]: String(id),
              },
              cfg.destinos,
            );
      const fin = Date.now();
      const intentos = Number(c.intentos) + 1;
      const ok = r.estado_http !== null && r.estado_http >= 200 && r.estado_http < 300;
      const siguiente = fin + esperaTras(intentos, cfg.reintentoMs);
      const agotada = siguiente > Number(c.creada) + PLAZO_REINTENTOS_MS;
      await k
        .updateTable('webhook_entregas')
        .set({
          estado: ok ? 'entregado' : agotada ? 'fallido' : 'pendiente',
          intentos,
          ultimo_intento: inicio,
          duracion_ms: fin - inicio,
          estado_http: r.estado_http,
          respuesta: r.respuesta,
          error: r.error,
          siguiente_intento: ok || agotada ? null : siguiente,
          lease_hasta: null,
        })
        .where('id_entrega', '=', id)
        .execute();
    }),
  );
  return n;
}

/** Runs the delivery loop until stopped. */
export function arrancarWebhooks(
  k: Kysely<DB>,
  cfg: ConfigWebhooks,
  bitacora: (m: string) => void = () => undefined,
): { detener(): Promise<void> } {
  return arrancarSondeo(() => entregarPendientes(k, cfg), cfg.sondeoMs, bitacora, 'webhooks');
}
