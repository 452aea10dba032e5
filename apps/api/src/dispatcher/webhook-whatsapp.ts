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
import type { Contexto } from '../contexto.ts';
import { credencial, leerCredenciales, type Recibo } from './canal.ts';
import { storePara } from './index.ts';

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

interface Cambio {
  field?: string;
  value?: {
    metadata?: { phone_number_id?: string };
    statuses?: {
      id?: string;
      status?: string;
      errors?: ErrorMeta[];
    }[];
    messages?: unknown[];
    errors?: ErrorMeta[];
  };
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
    ).map((e) => ({ id_equipo: e.id_equipo, c: leerCredenciales(e.credenciales) }));

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
      if (!firmados.size)
        return reply.code(401).send({
          status: 401,
          message: msg('webhookFirmaInvalida'),
          mensaje: msg('webhookFirmaInvalida'),
        });
      let cuerpo: Cuerpo;
      try {
        cuerpo = JSON.parse(crudo.toString('utf8')) as Cuerpo;
      } catch {
        req.log.warn('webhook de WhatsApp firmado pero ilegible: se ignora');
        return { status: 200 };
      }
      const recibos: Recibo[] = [];
      let ajenos = 0;
      for (const entrada of Array.isArray(cuerpo?.entry) ? cuerpo.entry : []) {
        for (const cambio of Array.isArray(entrada?.changes) ? entrada.changes : []) {
          const v = cambio?.value;
          const estados = Array.isArray(v?.statuses) ? v.statuses : [];
          if ((cambio?.field !== undefined && cambio.field !== 'messages') || !estados.length)
            continue;
          const telefonoId = String(v?.metadata?.phone_number_id ?? '');
          const suyos = equipos.filter(
            (e) =>
              telefonoId !== '' &&
              credencial(e.c, 'whatsapp', 'phone_number_id') === telefonoId &&
              firmados.has(credencial(e.c, 'whatsapp', 'app_secret')),
          );
          if (!suyos.length) {
            ajenos += estados.length;
            continue;
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
      if (recibos.length) await aplicar(recibos);
      return { status: 200 };
    });
  });
}
