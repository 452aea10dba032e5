import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { msg } from '@pregon/contract/messages';
import {
  RUTA_WEBHOOK_WHATSAPP,
  estadosWebhookWhatsapp,
  verificarWebhookWhatsapp,
} from '@pregon/contract/api/prueba';
import type { Endpoint } from '@pregon/contract/api/endpoint';
import { motivoEstadoFallido, type ErrorMeta } from '@pregon/contract/rules/whatsapp';
import type { VentanaWhatsapp } from '@pregon/contract/api/webhooks';
import { canonizarTelefono } from '@pregon/contract/rules/phone';
import { sql } from 'kysely';
import type { Contexto } from '../contexto.ts';
import type { Db } from '@pregon/db/database';
import { descifrarCredenciales } from '@pregon/db/credenciales';
import { credencial, type Recibo, type RespuestaEntrante } from '@pregon/despacho';
import { storePara } from './despacho.ts';
import { guardarYLeer } from './leer-respuestas.ts';
import { telefonoRemitente, textoSeguro } from './webhook-android.ts';

// The WhatsApp Cloud API webhook (Meta's WhatsApp Business Account webhooks). Public, but every
// POST must carry X-Hub-Signature-256, the HMAC-SHA256 of the raw body with the app secret of the
// Meta app that sends it: a body no WhatsApp device's app_secret signs is refused (401). Meta
// retries a delivery until it gets 200 and one delivery mixes entries and changes of every field
// the app subscribes to, so an authentic delivery is always answered 200: the `messages` field's
// statuses are applied for the devices whose phone_number_id and app_secret match; the rest is
// ignored (template status updates, account updates, users' messages, errors, statuses of a
// phone_number_id no device has). 'delivered'/'read' set recibida and 'entregado'; a 'read' also
// sets alcance 'leido' (issue 25.1: outcome 'Leído', rules/alcance.ts), which a 'delivered' that
// comes after it (Meta does not promise the order) or a repeated webhook leaves alone; 'failed'
// sets 'fallido' with a Spanish reason that keeps Meta's code and title. A status whose row is
// not written yet is tried again shortly.
// Users' messages (issue 46.1) of the same field are replies: type 'text' (text.body), 'button'
// (a template's quick-reply: button.text, else its payload), 'interactive' (button_reply or
// list_reply: title, else id), 'reaction' (its emoji) and media with a caption; any other type is
// kept with an empty text and a note, so nothing a person sent is lost. Each is stored once (its
// wamid is the key) with Meta's timestamp, before the 200: a failure to store answers 500 and Meta
// delivers it again. A message opens the 24-hour customer-service window for its number on that
// device (ventanas_whatsapp), which GET /whatsapp/ventanas/ shows. A device without app_secret
// never accepts a delivery (its messages are refused with a log line), never unsigned.

interface Cambio {
  field?: string;
  value?: {
    metadata?: { phone_number_id?: string };
    statuses?: {
      id?: string;
      status?: string;
      errors?: ErrorMeta[];
    }[];
    messages?: MensajeMeta[];
    errors?: ErrorMeta[];
  };
}

/** A user's message as Meta's webhook carries it (the fields read). */
interface MensajeMeta {
  from?: unknown;
  id?: unknown;
  timestamp?: unknown;
  type?: unknown;
  text?: { body?: unknown };
  button?: { text?: unknown; payload?: unknown };
  interactive?: {
    button_reply?: { id?: unknown; title?: unknown };
    list_reply?: { id?: unknown; title?: unknown };
  };
  reaction?: { emoji?: unknown };
  image?: { caption?: unknown };
  video?: { caption?: unknown };
  document?: { caption?: unknown };
}

/** How long a user's message keeps the customer-service window open (Meta: 24 hours). */
export const VENTANA_WHATSAPP_MS = 24 * 3_600_000;

/** The first of `vs` that is a non-empty text. */
const primerTexto = (...vs: unknown[]) =>
  vs.find((v): v is string => typeof v === 'string' && v !== '');

/** A user's message as a reply to store (null without a sender): its text by type, Meta's
 * wamid and timestamp, the message as received (JSON, hex) as its raw form. */
export function respuestaWhatsapp(id_equipo: number, m: MensajeMeta): RespuestaEntrante | null {
  if (!m || typeof m !== 'object') return null;
  const from = typeof m.from === 'string' ? m.from.trim().slice(0, 64) : '';
  if (!from) return null;
  const tipo = typeof m.type === 'string' ? m.type.slice(0, 20) : '';
  const texto =
    tipo === 'text'
      ? primerTexto(m.text?.body)
      : tipo === 'button'
        ? primerTexto(m.button?.text, m.button?.payload)
        : tipo === 'interactive'
          ? primerTexto(
              m.interactive?.button_reply?.title,
              m.interactive?.list_reply?.title,
              m.interactive?.button_reply?.id,
              m.interactive?.list_reply?.id,
            )
          : tipo === 'reaction'
            ? primerTexto(m.reaction?.emoji)
            : primerTexto(m.image?.caption, m.video?.caption, m.document?.caption);
  const segundos = Number(m.timestamp);
  const id = typeof m.id === 'string' && m.id ? m.id.slice(0, 190) : null;
  return {
    id_equipo,
    canal: 'whatsapp',
    remitente: from,
    telefono: telefonoRemitente(/^\d+$/.test(from) ? `+${from}` : from),
    texto: textoSeguro(texto ?? ''),
    codificacion: tipo || 'desconocido',
    ...(texto === undefined ? { nota: msg('respuestaSinTexto', { tipo: tipo || '?' }) } : {}),
    texto_crudo: Buffer.from(JSON.stringify(m), 'utf8').toString('hex'),
    id_gateway: id,
    // Seconds since 1970 up to 2100; anything else is not a time Meta gives.
    fecha_gateway:
      Number.isFinite(segundos) && segundos > 0 && segundos < 4_102_444_800
        ? Math.round(segundos * 1000)
        : null,
  };
}

/** Opens (or keeps open) the 24-hour window of a phone on a device from a message sent at
 * `desde` (epoch ms): abierta_hasta only moves forward. */
export async function abrirVentana(
  db: Db,
  id_equipo: number,
  telefono: string,
  desde: number,
): Promise<void> {
  const hasta = desde + VENTANA_WHATSAPP_MS;
  await db.kysely
    .insertInto('ventanas_whatsapp')
    .values({ id_equipo, telefono, ultima: desde, abierta_hasta: hasta })
    .onConflict((oc) =>
      oc.columns(['id_equipo', 'telefono']).doUpdateSet({
        ultima: sql`case when excluded.ultima > ventanas_whatsapp.ultima then excluded.ultima else ventanas_whatsapp.ultima end`,
        abierta_hasta: sql`case when excluded.abierta_hasta > ventanas_whatsapp.abierta_hasta then excluded.abierta_hasta else ventanas_whatsapp.abierta_hasta end`,
      }),
    )
    .execute();
}

/** Until when (epoch ms) a phone's window on a device is open, or null when it never was or has
 * closed by `ahora`: free text (and a one-off reply) reaches the person only then. */
export async function ventanaAbiertaHasta(
  db: Db,
  id_equipo: number,
  telefono: string,
  ahora = Date.now(),
): Promise<number | null> {
  const f = await db.kysely
    .selectFrom('ventanas_whatsapp')
    .select('abierta_hasta')
    .where('id_equipo', '=', id_equipo)
    .where('telefono', '=', telefono)
    .executeTakeFirst();
  const hasta = f ? Number(f.abierta_hasta) : null;
  return hasta !== null && hasta > ahora ? hasta : null;
}

/** The windows a phone's messages opened, on every device, the latest first (GET
 * /whatsapp/ventanas/): the number is read as the directory writes it. */
export async function ventanasDe(db: Db, telefono: string): Promise<VentanaWhatsapp[]> {
  const c = canonizarTelefono(telefono);
  const t = c.ok ? c.telefono : telefono.trim();
  const ahora = Date.now();
  const filas = await db.kysely
    .selectFrom('ventanas_whatsapp as v')
    .innerJoin('equipos as e', 'e.id_equipo', 'v.id_equipo')
    .select(['v.id_equipo', 'e.alias', 'v.telefono', 'v.ultima', 'v.abierta_hasta'])
    .where('v.telefono', '=', t)
    .orderBy('v.abierta_hasta', 'desc')
    .execute();
  return filas.map((f) => ({
    id_equipo: f.id_equipo,
    alias: f.alias,
    telefono: f.telefono,
    ultima_respuesta: Number(f.ultima),
    abierta_hasta: Number(f.abierta_hasta),
    abierta: Number(f.abierta_hasta) > ahora,
  }));
}

interface Cuerpo {
  entry?: { id?: string; changes?: Cambio[] }[];
}

const REINTENTOS_MS = [500, 2_000, 5_000];

/** True when `firma` ('sha256=<hex>') is the HMAC of `cuerpo` with `secreto` (constant time). */
export function firmaValida(cuerpo: Buffer, firma: string | undefined, secreto: string): boolean {
  if (!firma?.startsWith('sha256=') || !secreto) return false;
  const esperada = Buffer.from(crypto.createHmac('sha256', secreto).update(cuerpo).digest('hex'));
  const dada = Buffer.from(firma.slice(7));
  return dada.length === esperada.length && crypto.timingSafeEqual(dada, esperada);
}

/** Route options that publish a webhook call in the OpenAPI document from its contract entry
 * (public: no token; the GET's query is validated by the contract). */
const documentado = (e: Endpoint) => ({
  schema: {
    summary: e.resumen,
    tags: [e.etiqueta],
    ...(e.query ? { querystring: e.query } : {}),
  },
});
const VERIFICACION = documentado(verificarWebhookWhatsapp);
const ESTADOS = documentado(estadosWebhookWhatsapp);

/** Registers GET (handshake) and POST (statuses) of the WhatsApp webhook. */
export function rutasWebhookWhatsapp(app: FastifyInstance, ctx: Contexto): void {
  const store = storePara(ctx.db);
  const dispositivos = async () =>
    (
      await ctx.db.kysely
        .selectFrom('equipos')
        .select(['id_equipo', 'credenciales'])
        .where('protocolo', '=', 'whatsapp')
        .execute()
    ).map((e) => ({ id_equipo: e.id_equipo, c: descifrarCredenciales(e.credenciales) }));

  const aplicar = async (recibos: Recibo[], paso = 0): Promise<void> => {
    const hechos = await store.aplicarRecibos(recibos, Date.now());
    const faltan = recibos.filter((r) => !hechos.has(r.id_gateway));
    if (faltan.length && paso < REINTENTOS_MS.length) {
      setTimeout(() => void aplicar(faltan, paso + 1).catch(() => {}), REINTENTOS_MS[paso]).unref();
    }
  };

  void app.register(async (sub) => {
    sub.removeAllContentTypeParsers();
    sub.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, cuerpo, hecho) =>
      hecho(null, cuerpo),
    );

    sub.get(RUTA_WEBHOOK_WHATSAPP, VERIFICACION, async (req, reply) => {
      const q = req.query as Record<string, string | undefined>;
      const tokens = (await dispositivos())
        .map((d) => credencial(d.c, 'whatsapp', 'verify_token'))
        .filter(Boolean);
      if (
        q['hub.mode'] === 'subscribe' &&
        q['hub.verify_token'] &&
        tokens.includes(q['hub.verify_token'])
      ) {
        return reply.type('text/plain').send(q['hub.challenge'] ?? '');
      }
      return reply.code(403).send({
        status: 403,
        message: msg('webhookTokenInvalido'),
        mensaje: msg('webhookTokenInvalido'),
      });
    });

    sub.post(RUTA_WEBHOOK_WHATSAPP, ESTADOS, async (req, reply) => {
      const crudo = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const cabecera = req.headers['x-hub-signature-256'];
      const firma = typeof cabecera === 'string' ? cabecera : undefined;
      const equipos = await dispositivos();
      // Every app secret that signs this body: several devices may share one Meta app.
      const firmados = new Set(
        equipos
          .map((e) => credencial(e.c, 'whatsapp', 'app_secret'))
          .filter((s) => s && firmaValida(crudo, firma, s)),
      );
      if (!firmados.size) {
        if (!equipos.some((e) => credencial(e.c, 'whatsapp', 'app_secret')))
          req.log.warn(
            'webhook de WhatsApp rechazado: ningún equipo de WhatsApp tiene app_secret (escríbalo en Editar equipo para aceptar estados y respuestas)',
          );
        return reply.code(401).send({
          status: 401,
          message: msg('webhookFirmaInvalida'),
          mensaje: msg('webhookFirmaInvalida'),
        });
      }
      let cuerpo: Cuerpo;
      try {
        cuerpo = JSON.parse(crudo.toString('utf8')) as Cuerpo;
      } catch {
        req.log.warn('webhook de WhatsApp firmado pero ilegible: se ignora');
        return { status: 200 };
      }
      const recibos: Recibo[] = [];
      const respuestas: RespuestaEntrante[] = [];
      let ajenos = 0;
      for (const entrada of Array.isArray(cuerpo?.entry) ? cuerpo.entry : []) {
        for (const cambio of Array.isArray(entrada?.changes) ? entrada.changes : []) {
          const v = cambio?.value;
          const estados = Array.isArray(v?.statuses) ? v.statuses : [];
          const mensajes = Array.isArray(v?.messages) ? v.messages : [];
          if (
            (cambio?.field !== undefined && cambio.field !== 'messages') ||
            (!estados.length && !mensajes.length)
          )
            continue;
          const telefonoId = String(v?.metadata?.phone_number_id ?? '');
          const delNumero = equipos.filter(
            (e) =>
              telefonoId !== '' && credencial(e.c, 'whatsapp', 'phone_number_id') === telefonoId,
          );
          const suyos = delNumero.filter((e) =>
            firmados.has(credencial(e.c, 'whatsapp', 'app_secret')),
          );
          if (!suyos.length) {
            if (delNumero.length && mensajes.length)
              req.log.warn(
                `webhook de WhatsApp: ${mensajes.length} mensajes para el phone_number_id ${telefonoId.slice(0, 40)}, cuyo equipo no tiene el app_secret que firma: rechazados`,
              );
            ajenos += estados.length;
            continue;
          }
          // One number is one inbox: its replies are kept once, on its first device.
          for (const m of mensajes) {
            const r = respuestaWhatsapp(suyos[0]!.id_equipo, m);
            if (r) respuestas.push(r);
          }
          for (const s of estados) {
            if (
              typeof s?.id !== 'string' ||
              !s.id ||
              (s.status !== 'delivered' && s.status !== 'read' && s.status !== 'failed')
            )
              continue;
            const motivo =
              s.status === 'failed'
                ? motivoEstadoFallido(Array.isArray(s.errors) ? s.errors[0] : undefined)
                : undefined;
            for (const equipo of suyos)
              recibos.push({
                id_equipo: equipo.id_equipo,
                id_gateway: s.id,
                entregado: s.status !== 'failed',
                leido: s.status === 'read',
                motivo,
              });
          }
        }
      }
      if (ajenos)
        req.log.info(
          `webhook de WhatsApp: ${ajenos} estados de un phone_number_id sin equipo, ignorados`,
        );
      // Replies are stored before the 200: a failure answers 500 and Meta delivers them again.
      const ahora = Date.now();
      for (const r of respuestas) {
        await guardarYLeer(ctx.db, r, ahora);
        await abrirVentana(
          ctx.db,
          r.id_equipo,
          r.telefono ?? r.remitente,
          Math.min(r.fecha_gateway ?? ahora, ahora),
        );
      }
      if (recibos.length) await aplicar(recibos);
      return { status: 200 };
    });
  });
}
