import type { FastifyInstance } from 'fastify';
import { msg } from '@pregon/contract/messages';
import {
  RUTA_WEBHOOK_ANDROID,
  ventanasSeguimiento,
  ventanasWhatsapp,
  webhookAndroid,
} from '@pregon/contract/api/webhooks';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import { guardarYLeer } from '../services/leer-respuestas.ts';
import {
  PLAZO_FIRMA_ANDROID_S,
  claveWebhookAndroid,
  firmaAndroid,
  respuestaAndroid,
} from '../services/webhook-android.ts';
import { ventanasDe } from '../services/webhook-whatsapp.ts';
import { ventanasDeSeguimiento } from '../services/ventanas-whatsapp.ts';

/** The header's value when it came once ('' otherwise). */
const cabecera = (v: string | string[] | undefined) => (typeof v === 'string' ? v : '');

/**
 * Replies from Android (issue 46.1): POST /webhooks/android/{id_equipo}/, where each Android
 * device's phone posts the SMS it receives (services/webhook-android.ts registers it). Public,
 * but a delivery must be signed with the key Pregón set on that phone and be at most 5 minutes
 * old: else 401 and nothing is stored. A signed 'sms:received' is stored (once: sender, text and
 * the phone's time are its key) and matched before the 200, so a failure to store makes the phone
 * deliver it again; other events and unreadable signed bodies are answered 200 and logged.
 * And GET /whatsapp/ventanas/: the 24-hour windows a phone's WhatsApp messages opened.
 */
export function rutasWebhooksEntrada(app: FastifyInstance, ctx: Contexto): void {
  void app.register(async (sub) => {
    sub.removeAllContentTypeParsers();
    sub.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, cuerpo, hecho) =>
      hecho(null, cuerpo),
    );
    sub.post(
      RUTA_WEBHOOK_ANDROID,
      {
        schema: {
          summary: webhookAndroid.resumen,
          tags: [webhookAndroid.etiqueta],
          params: webhookAndroid.params,
        },
      },
      async (req, reply) => {
        const { id_equipo } = req.params as { id_equipo: number };
        const crudo = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const negar = (m: string) => reply.code(401).send({ status: 401, message: m, mensaje: m });
        const clave = await claveWebhookAndroid(ctx.db, id_equipo);
        if (!clave) {
          req.log.warn(
            `webhook de Android para el equipo ${id_equipo}, que no tiene clave de firma: rechazado`,
          );
          return negar(msg('webhookAndroidSinClave', { id: id_equipo }));
        }
        const firma = firmaAndroid(
          crudo,
          cabecera(req.headers['x-timestamp']),
          cabecera(req.headers['x-signature']),
          clave,
          Date.now(),
        );
        if (firma === 'invalida') return negar(msg('webhookAndroidFirmaInvalida'));
        if (firma === 'vencida')
          return negar(msg('webhookAndroidFirmaVencida', { minutos: PLAZO_FIRMA_ANDROID_S / 60 }));
        let cuerpo: unknown;
        try {
          cuerpo = JSON.parse(crudo.toString('utf8'));
        } catch {
          req.log.warn(
            `webhook de Android del equipo ${id_equipo} firmado pero ilegible: se ignora`,
          );
          return { status: 200 };
        }
        const r = respuestaAndroid(id_equipo, cuerpo);
        if (!r) {
          const evento = String((cuerpo as { event?: unknown } | null)?.event ?? '').slice(0, 40);
          req.log.info(
            `webhook de Android del equipo ${id_equipo}: evento '${evento}' sin respuesta que guardar`,
          );
          return { status: 200 };
        }
        await guardarYLeer(ctx.db, r, Date.now());
        return { status: 200 };
      },
    );
  });
  ruta(app, ctx, ventanasWhatsapp, async ({ query }) => ({
    status: 200 as const,
    data: await ventanasDe(ctx.db, query.telefono),
  }));
  ruta(app, ctx, ventanasSeguimiento, async ({ query }) => ({
    status: 200 as const,
    ...(await ventanasDeSeguimiento(ctx, query)),
  }));
}
