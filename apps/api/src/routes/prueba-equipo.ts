import type { FastifyInstance } from 'fastify';
import { plantillasEquipo } from '@pregon/contract/api/plantillas';
import { pruebaEquipo } from '@pregon/contract/api/prueba';
import { msg } from '@pregon/contract/messages';
import { normalizarTelefono } from '@pregon/contract/rules/phone';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import { error } from '@pregon/servidor/http/errores';
import { plantillasDeEquipo } from '../services/plantillas-whatsapp.ts';
import { enviarPrueba } from '../services/prueba-equipo.ts';
import { rutasWebhookWhatsapp } from '../services/webhook-whatsapp.ts';
import { reintentarWebhookAndroid } from '../services/webhook-android.ts';

/** POST /equipos/{id}/prueba/ (one test message through the device's adapter), GET
 * /equipos/{id}/plantillas/ (a WhatsApp device's approved templates) and the WhatsApp status
 * webhook of the dispatcher. */
export function rutasPruebaEquipo(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, pruebaEquipo, async ({ params, body }) => {
    const tel = normalizarTelefono(body.telefono);
    if (!tel.ok)
      throw error(400, 'campoInvalido', { campo: 'telefono', detalle: tel.motivo }, 'telefono');
    const r = await enviarPrueba(ctx, params.id, tel.e164);
    // Issue 46.1: an Android device whose replies' webhook is not registered yet tries again,
    // after the test's answer is decided (the phone's slowness never delays it).
    void reintentarWebhookAndroid(ctx, params.id).catch(() => undefined);
    return {
      status: 200 as const,
      mensaje: msg('pruebaEnviada', { telefono: body.telefono.trim() }),
      ...r,
    };
  });
  // Confirmed before it runs: it calls the provider's api with the device's credentials.
  ruta(
    app,
    ctx,
    plantillasEquipo,
    async ({ params }) => {
      const data = await plantillasDeEquipo(ctx, params.id);
      return { status: 200 as const, data };
    },
    { confirmarAntes: true },
  );
  rutasWebhookWhatsapp(app, ctx);
}
