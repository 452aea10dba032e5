import crypto from 'node:crypto';
import { msg } from '@pregon/contract/messages';
import { canonizarTelefono } from '@pregon/contract/rules/phone';
import { baseWebhooks } from '../config.ts';
import type { Db } from '@pregon/db/database';
import { cifrarCredenciales, descifrarCredenciales } from '@pregon/db/credenciales';
import { leerParaCanal } from '../repositories/equipos.ts';
import {
  credencial,
  leerCredenciales,
  motivoUrlRefusada,
  pedirJson,
  textoError,
  urlGateway,
  type Bitacora,
  type RespuestaEntrante,
} from '@pregon/despacho';

// Replies over the Android gateway (issue 46.1), from 'SMS Gateway for Android' (capcom6) as its
// documentation describes it (docs.sms-gate.app: features/webhooks.md, settings-management.md;
// the app's WebhooksRoutes.kt, SettingsRoutes.kt, PayloadSingingPlugin.kt):
//  - Registration, local server mode: POST {url}/webhooks {id, url, event: 'sms:received'} with
//    the device's basic auth; an id already known is replaced, so registering again is harmless.
//    The phone signs every webhook with its signing key (Settings → Webhooks → Signing Key), which
//    the local API sets write-only with PATCH {url}/settings {webhooks: {signing_key}}: Pregón
//    makes one random key per device, keeps it encrypted (webhooks_android.clave, like the
//    device's credentials) and sets it before registering. An app without /settings (404/405)
//    cannot take it: the registration is reported failed, naming the update it needs.
//  - Delivery: POST to the webhook with {deviceId, event, id, payload: {messageId, message,
//    phoneNumber, simNumber, receivedAt}, webhookId}; X-Timestamp is Unix seconds and
//    X-Signature the hex HMAC-SHA256 of the raw body followed by X-Timestamp. messageId is a hash
//    of the content, not unique: a reply's key is its sender, text and receivedAt (the phone's
//    local time with its offset). The phone retries a delivery not answered 2xx within 30 s
//    (10 s, 20 s, 40 s… about two days), signing each attempt anew: a reply that arrives while
//    the api is down is taken when it is back, once.

/** Seconds an X-Timestamp may be away from now (the documentation's ±5 minutes). */
export const PLAZO_FIRMA_ANDROID_S = 300;
/** Milliseconds each request of a registration may take. */
const ESPERA_REGISTRO_MS = 4_000;
/** Longest text kept readable in a reply (as the SMPP intake: despacho/canales/smpp/mo.ts). */
const MAX_TEXTO = 4_000;

/** Path of a device's webhook in the api. */
export const rutaWebhookAndroid = (id_equipo: number) => `/webhooks/android/${id_equipo}/`;

/** The webhook URL a device's phone is given. */
export const urlWebhookAndroid = (base: string, id_equipo: number) =>
  `${base.replace(/\/+$/, '')}${rutaWebhookAndroid(id_equipo)}`;

/** The id of Pregón's webhook on a phone: one per database and device, so saving the device again
 * replaces it instead of adding another. */
export const idWebhookAndroid = (instalacion: string, id_equipo: number) =>
  `pregon-respuestas-${instalacion || 'x'}-${id_equipo}`;

/** What the checks of a delivery found: signed now, a bad or missing signature, a stale time. */
export type FirmaAndroid = 'valida' | 'invalida' | 'vencida';

/** Checks a delivery's X-Signature (hex HMAC-SHA256 of the raw body followed by X-Timestamp,
 * constant time) and X-Timestamp (Unix seconds within PLAZO_FIRMA_ANDROID_S of `ahora`). */
export function firmaAndroid(
  crudo: Buffer,
  marca: string | undefined,
  firma: string | undefined,
  clave: string,
  ahora: number,
): FirmaAndroid {
  if (!clave || !marca || !firma || !/^\d{1,12}$/.test(marca) || !/^[0-9a-fA-F]{64}$/.test(firma))
    return 'invalida';
  const esperada = crypto
    .createHmac('sha256', clave)
    .update(Buffer.concat([crudo, Buffer.from(marca, 'ascii')]))
    .digest();
  if (!crypto.timingSafeEqual(esperada, Buffer.from(firma, 'hex'))) return 'invalida';
  return Math.abs(ahora / 1000 - Number(marca)) > PLAZO_FIRMA_ANDROID_S ? 'vencida' : 'valida';
}

/** A lone surrogate (half of a pair). */
const SUELTOS = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A received text made safe to store: lone surrogates and NUL (which PostgreSQL's text cannot
 * hold) shown as U+FFFD, capped at MAX_TEXTO. Other control characters and markup stay: they are
 * data, shown as text wherever a reply is displayed. */
export function textoSeguro(t: string): string {
  const limpio = t.replace(SUELTOS, '\uFFFD').replaceAll('\u0000', '\uFFFD');
  return limpio.length > MAX_TEXTO ? limpio.slice(0, MAX_TEXTO) : limpio;
}

/** The sender as the phone directory writes it, or null when it is not a phone number (a short
 * code, an alphanumeric sender). */
export function telefonoRemitente(remitente: string): string | null {
  const t = remitente.trim();
  if (!/^\+?\d{4,20}$/.test(t)) return null;
  const r = canonizarTelefono(t);
  return r.ok ? r.telefono : null;
}

/** An 'sms:received' delivery's payload as a reply to store, or null when it is another event or
 * lacks the sender or the text. */
export function respuestaAndroid(id_equipo: number, cuerpo: unknown): RespuestaEntrante | null {
  const c = cuerpo as { event?: unknown; payload?: Record<string, unknown> } | null;
  if (!c || typeof c !== 'object' || c.event !== 'sms:received') return null;
  const p = c.payload;
  if (!p || typeof p !== 'object') return null;
  const { message, phoneNumber, receivedAt } = p;
  if (typeof message !== 'string' || typeof phoneNumber !== 'string' || !phoneNumber) return null;
  const leida = typeof receivedAt === 'string' ? Date.parse(receivedAt.slice(0, 40)) : NaN;
  // A time from 1970 to 2100; anything else is not one the phone gives.
  const fecha = leida > 0 && leida < 4_102_444_800_000 ? leida : NaN;
  return {
    id_equipo,
    canal: 'android',
    remitente: phoneNumber,
    telefono: telefonoRemitente(phoneNumber),
    texto: textoSeguro(message),
    codificacion: 'UTF-8',
    texto_crudo: Buffer.from(message, 'utf8').toString('hex'),
    id_gateway: null,
    // The key of a reply without a unique id: sender, text and the phone's time.
    fecha_gateway: Number.isFinite(fecha) ? fecha : null,
  };
}

/** The signing key of a device's webhook, or '' when none was made (or it cannot be read). */
export async function claveWebhookAndroid(db: Db, id_equipo: number): Promise<string> {
  const f = await db.kysely
    .selectFrom('webhooks_android')
    .select('clave')
    .where('id_equipo', '=', id_equipo)
    .executeTakeFirst();
  const c = descifrarCredenciales(f?.clave).signing_key;
  return typeof c === 'string' ? c : '';
}

/** This database's installation id (ajustes 'instalacion'). */
async function instalacion(db: Db): Promise<string> {
  const f = await db.kysely
    .selectFrom('ajustes')
    .select('valor')
    .where('clave', '=', 'instalacion')
    .executeTakeFirst();
  return f?.valor ?? '';
}

/** Why a gateway answer is not a success (null when it is 2xx). */
function motivoRespuesta(status: number, ruta: string, cuerpo: Record<string, unknown>) {
  if (status >= 200 && status < 300) return null;
  if (status === 401 || status === 403) return msg('webhookAndroidCredenciales', { status });
  if (ruta.startsWith('PATCH') && (status === 404 || status === 405))
    return msg('webhookAndroidSinAjustes', { status });
  const detalle = typeof cuerpo.message === 'string' ? `: ${cuerpo.message.slice(0, 200)}` : '';
  return msg('webhookAndroidRechazo', { status, ruta, detalle });
}

/**
 * Registers a device's 'sms:received' webhook on its phone (its signing key first, then the
 * webhook), and records the outcome in webhooks_android: null when the phone took it, else the
 * Spanish reason. The key is made once and kept, so deliveries the phone is still retrying stay
 * valid. `base` is the api's URL as the phone reaches it; without it the URL registered before
 * (or baseWebhooks()) is used. A device that is not Android loses its row; one without
 * credentials is not contacted. Never throws for the gateway's faults.
 */
export async function registrarWebhookAndroid(
  db: Db,
  id_equipo: number,
  base?: string,
): Promise<string | null> {
  const k = db.kysely;
  const e = await leerParaCanal(k, id_equipo);
  if (!e || e.protocolo !== 'android') {
    await k.deleteFrom('webhooks_android').where('id_equipo', '=', id_equipo).execute();
    return null;
  }
  const previa = await k
    .selectFrom('webhooks_android')
    .selectAll()
    .where('id_equipo', '=', id_equipo)
    .executeTakeFirst();
  let clave = await claveWebhookAndroid(db, id_equipo);
  if (!clave) clave = crypto.randomBytes(24).toString('base64url');
  const destino = base
    ? urlWebhookAndroid(base, id_equipo)
    : (previa?.url ?? urlWebhookAndroid(baseWebhooks(), id_equipo));
  const ahora = Date.now();
  const fila = {
    clave: cifrarCredenciales({ signing_key: clave })!,
    url: destino,
    intentado: ahora,
  };
  // The key is kept before the phone gets it: a phone that takes it while the answer is lost
  // signs with a key Pregón already holds.
  await k
    .insertInto('webhooks_android')
    .values({ id_equipo, ...fila, registrado: null, error: null })
    .onConflict((oc) => oc.column('id_equipo').doUpdateSet(fila))
    .execute();
  const c = leerCredenciales(e.credenciales);
  const usuario = credencial(c, 'android', 'usuario') || credencial(c, 'android', 'username');
  const password = credencial(c, 'android', 'password');
  let motivo: string | null;
  let registrado: { id_webhook: string; gateway: string; acceso: string } | null = null;
  if (!usuario || !password) motivo = msg('motivoSinCredenciales');
  else {
    const authorization = `Basic ${Buffer.from(`${usuario}:${password}`).toString('base64')}`;
    const pedir = (ruta: string, metodo: string, cuerpo: unknown) =>
      pedirJson(urlGateway(e.url, [ruta], { forma: 'formaUrlAndroid' }), {
        method: metodo,
        headers: { authorization },
        cuerpo,
        timeoutMs: ESPERA_REGISTRO_MS,
      });
    try {
      const s = await pedir('settings', 'PATCH', { webhooks: { signing_key: clave } });
      motivo = motivoRespuesta(s.status, 'PATCH /settings', s.cuerpo);
      if (!motivo) {
        const id = idWebhookAndroid(await instalacion(db), id_equipo);
        const w = await pedir('webhooks', 'POST', { id, url: destino, event: 'sms:received' });
        motivo = motivoRespuesta(w.status, 'POST /webhooks', w.cuerpo);
        // The id the gateway answered (WebHookDTO.id), the one to DELETE when the device goes.
        const dado = typeof w.cuerpo.id === 'string' && w.cuerpo.id ? w.cuerpo.id : id;
        if (!motivo)
          registrado = {
            id_webhook: dado.slice(0, 200),
            gateway: e.url,
            acceso: cifrarCredenciales({ usuario, password })!,
          };
      }
    } catch (err) {
      motivo =
        motivoUrlRefusada(err) ?? msg('webhookAndroidSinConexion', { error: textoError(err) });
    }
  }
  await k
    .updateTable('webhooks_android')
    .set(motivo ? { error: motivo } : { error: null, registrado: Date.now(), ...registrado })
    .where('id_equipo', '=', id_equipo)
    .execute();
  return motivo;
}

/** Where Pregón's webhook lives on a device's gateway: the id, the gateway's url and the
 * credentials it was registered with (rows from before migration 0050: the device's own and the
 * id Pregón sends). Null when no registration ever succeeded. */
export interface WebhookRegistrado {
  id_webhook: string;
  gateway: string;
  usuario: string;
  password: string;
}

/** The webhook a device's phone took (WebhookRegistrado), or null. */
export async function webhookRegistrado(
  db: Db,
  id_equipo: number,
): Promise<WebhookRegistrado | null> {
  const f = await db.kysely
    .selectFrom('webhooks_android as w')
    .innerJoin('equipos as e', 'e.id_equipo', 'w.id_equipo')
    .select(['w.id_webhook', 'w.gateway', 'w.acceso', 'w.registrado', 'e.url', 'e.credenciales'])
    .where('w.id_equipo', '=', id_equipo)
    .executeTakeFirst();
  if (!f || (f.id_webhook === null && f.registrado === null)) return null;
  const c = f.acceso !== null ? leerCredenciales(f.acceso) : leerCredenciales(f.credenciales);
  const usuario = credencial(c, 'android', 'usuario') || credencial(c, 'android', 'username');
  return {
    id_webhook: f.id_webhook ?? idWebhookAndroid(await instalacion(db), id_equipo),
    gateway: f.gateway ?? f.url,
    usuario,
    password: credencial(c, 'android', 'password'),
  };
}

/** Whether a device now reaches the gateway its webhook was registered on with the same
 * credentials (then registering again replaces the webhook by its id: nothing to remove). */
export function mismoGateway(
  w: WebhookRegistrado,
  e: { protocolo: string; url: string; credenciales: string | null },
): boolean {
  if (e.protocolo !== 'android' || e.url !== w.gateway) return false;
  const c = leerCredenciales(e.credenciales);
  const usuario = credencial(c, 'android', 'usuario') || credencial(c, 'android', 'username');
  return usuario === w.usuario && credencial(c, 'android', 'password') === w.password;
}

/**
 * Removes Pregón's webhook from the gateway it was registered on: DELETE {gateway}/webhooks/{id}
 * with the credentials it was registered with (the app answers 204 No Content, also for an id
 * it no longer holds). Null when it is gone (a 404 too), else the Spanish reason; never throws.
 */
export async function quitarWebhookAndroid(w: WebhookRegistrado): Promise<string | null> {
  if (!w.usuario || !w.password) return msg('motivoSinCredenciales');
  try {
    const url = urlGateway(w.gateway, ['webhooks', w.id_webhook], { forma: 'formaUrlAndroid' });
    const r = await pedirJson(url, {
      method: 'DELETE',
      headers: {
        authorization: `Basic ${Buffer.from(`${w.usuario}:${w.password}`).toString('base64')}`,
      },
      timeoutMs: ESPERA_REGISTRO_MS,
    });
    return r.status === 404 ? null : motivoRespuesta(r.status, 'DELETE /webhooks', r.cuerpo);
  } catch (err) {
    return motivoUrlRefusada(err) ?? msg('webhookAndroidSinConexion', { error: textoError(err) });
  }
}

/** Whether a device's webhook still has to be registered (never done, or the last try failed). */
export async function webhookAndroidPendiente(db: Db, id_equipo: number): Promise<boolean> {
  const f = await db.kysely
    .selectFrom('webhooks_android')
    .select(['registrado', 'error'])
    .where('id_equipo', '=', id_equipo)
    .executeTakeFirst();
  return !f || f.registrado === null || f.error !== null;
}

/** After a test send through a device (POST /equipos/{id}/prueba/, issue 46.1): an Android
 * device whose replies' webhook is not registered yet tries again. */
export async function reintentarWebhookAndroid(
  ctx: { db: Db; config: { urlWebhooks: string } },
  id_equipo: number,
): Promise<void> {
  if ((await leerParaCanal(ctx.db.kysely, id_equipo))?.protocolo !== 'android') return;
  if (await webhookAndroidPendiente(ctx.db, id_equipo))
    await registrarWebhookAndroid(ctx.db, id_equipo, ctx.config.urlWebhooks);
}

/** Whether the phone still lists Pregón's webhook as registered (GET {url}/webhooks: our id,
 * with the URL and event given); false when it does not, or cannot be asked. Reading changes
 * nothing on the phone (a registration or a settings change shows the phone's user a notice). */
export async function webhookAndroidEnTelefono(db: Db, id_equipo: number): Promise<boolean> {
  const e = await leerParaCanal(db.kysely, id_equipo);
  const w = await db.kysely
    .selectFrom('webhooks_android')
    .select('url')
    .where('id_equipo', '=', id_equipo)
    .executeTakeFirst();
  if (!e || !w) return false;
  const c = leerCredenciales(e.credenciales);
  const usuario = credencial(c, 'android', 'usuario') || credencial(c, 'android', 'username');
  const password = credencial(c, 'android', 'password');
  if (!usuario || !password) return false;
  const id = idWebhookAndroid(await instalacion(db), id_equipo);
  try {
    const r = await pedirJson(urlGateway(e.url, ['webhooks'], { forma: 'formaUrlAndroid' }), {
      headers: {
        authorization: `Basic ${Buffer.from(`${usuario}:${password}`).toString('base64')}`,
      },
      timeoutMs: ESPERA_REGISTRO_MS,
    });
    // pedirJson keeps an object body only: a list comes as its indexed entries.
    const lista = Object.values(r.cuerpo) as { id?: unknown; url?: unknown; event?: unknown }[];
    return (
      r.status === 200 &&
      lista.some((x) => x?.id === id && x?.url === w.url && x?.event === 'sms:received')
    );
  } catch {
    return false;
  }
}

/** The dispatcher's start: every Android device with credentials gets its webhook registered
 * when it is not (never tried, or failed), or when its phone no longer lists it (the app was
 * reinstalled, its data cleared, the demo's simulator restarted). With URL_WEBHOOKS set, that
 * base is registered; else the URL registered before. Returns how many were registered. */
export async function reintentarWebhooksAndroid(db: Db, bitacora?: Bitacora): Promise<number> {
  const filas = await db.kysely
    .selectFrom('equipos as e')
    .leftJoin('webhooks_android as w', 'w.id_equipo', 'e.id_equipo')
    .select(['e.id_equipo', 'e.alias', 'w.registrado', 'w.error', 'w.url'])
    .where('e.protocolo', '=', 'android')
    .where('e.credenciales', 'is not', null)
    .execute();
  const base = process.env.URL_WEBHOOKS?.trim() ? baseWebhooks() : undefined;
  let n = 0;
  for (const f of filas) {
    const hecho = f.registrado !== null && f.registrado !== undefined && f.error === null;
    const mismaUrl = !base || f.url === urlWebhookAndroid(base, f.id_equipo);
    if (hecho && mismaUrl && (await webhookAndroidEnTelefono(db, f.id_equipo))) continue;
    const motivo = await registrarWebhookAndroid(db, f.id_equipo, base);
    if (motivo) bitacora?.error(`webhook de respuestas de ${f.alias} sin registrar: ${motivo}`);
    else {
      n++;
      bitacora?.info(`webhook de respuestas registrado en ${f.alias}`);
    }
  }
  return n;
}
