import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { msg } from '@pregon/contract/messages';
import { RUTA_WEBHOOK_WHATSAPP } from '@pregon/contract/api/prueba';
import type { Contexto } from '../contexto.ts';
import { credencial, leerCredenciales, type Recibo } from './canal.ts';
import { storePara } from './index.ts';

// The WhatsApp Cloud API status webhook. Public, but every POST must carry X-Hub-Signature-256:
// the HMAC-SHA256 of the raw body with the app secret of the WhatsApp device whose
// phone_number_id the payload names. 'delivered'/'read' set recibida and 'entregado'; 'failed'
// sets 'fallido' with the reason. A status whose row is not written yet is tried again shortly.

interface Cuerpo {
  entry?: {
    changes?: {
      value?: {
        metadata?: { phone_number_id?: string };
        statuses?: {
          id?: string;
          status?: string;
          errors?: { title?: string; message?: string }[];
        }[];
      };
    }[];
  }[];
}

const REINTENTOS_MS = [500, 2_000, 5_000];

/** True when `firma` ('sha256=<hex>') is the HMAC of `cuerpo` with `secreto` (constant time). */
export function firmaValida(cuerpo: Buffer, firma: string | undefined, secreto: string): boolean {
  if (!firma?.startsWith('sha256=') || !secreto) return false;
  const esperada = Buffer.from(crypto.createHmac('sha256', secreto).update(cuerpo).digest('hex'));
  const dada = Buffer.from(firma.slice(7));
  return dada.length === esperada.length && crypto.timingSafeEqual(dada, esperada);
}

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

    sub.get(RUTA_WEBHOOK_WHATSAPP, { schema: { hide: true } }, async (req, reply) => {
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

    sub.post(RUTA_WEBHOOK_WHATSAPP, { schema: { hide: true } }, async (req, reply) => {
      const crudo = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const prohibido = () =>
        reply.code(401).send({
          status: 401,
          message: msg('webhookFirmaInvalida'),
          mensaje: msg('webhookFirmaInvalida'),
        });
      let cuerpo: Cuerpo;
      try {
        cuerpo = JSON.parse(crudo.toString('utf8')) as Cuerpo;
      } catch {
        return prohibido();
      }
      const firma = req.headers['x-hub-signature-256'];
      const equipos = await dispositivos();
      const recibos: Recibo[] = [];
      for (const entrada of cuerpo.entry ?? []) {
        for (const cambio of entrada.changes ?? []) {
          const v = cambio.value;
          const telefonoId = v?.metadata?.phone_number_id ?? '';
          const equipo = equipos.find(
            (e) => credencial(e.c, 'whatsapp', 'phone_number_id') === telefonoId,
          );
          if (
            !equipo ||
            !firmaValida(
              crudo,
              typeof firma === 'string' ? firma : undefined,
              credencial(equipo.c, 'whatsapp', 'app_secret'),
            )
          )
            return prohibido();
          for (const s of v?.statuses ?? []) {
            if (!s.id || (s.status !== 'delivered' && s.status !== 'read' && s.status !== 'failed'))
              continue;
            const e = s.errors?.[0];
            recibos.push({
              id_equipo: equipo.id_equipo,
              id_gateway: s.id,
              entregado: s.status !== 'failed',
              motivo:
                s.status === 'failed'
                  ? `WhatsApp: ${e?.title ?? e?.message ?? 'failed'}`
                  : undefined,
            });
          }
        }
      }
      if (recibos.length) await aplicar(recibos);
      return { status: 200 };
    });
  });
}
