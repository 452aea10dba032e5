import type { FastifyInstance } from 'fastify';
import { pruebaEquipo } from '@pregon/contract/api/prueba';
import { msg } from '@pregon/contract/messages';
import { normalizarTelefono } from '@pregon/contract/rules/phone';
import type { Contexto } from '../contexto.ts';
import { ruta } from '../http/rutas.ts';
import { error } from '../http/errores.ts';
import { enviarPrueba } from '../dispatcher/prueba.ts';
import { rutasWebhookWhatsapp } from '../dispatcher/webhook-whatsapp.ts';

/** POST /equipos/{id}/prueba/ (one test message through the device's adapter) and the WhatsApp
 * status webhook of the dispatcher. */
export function rutasPruebaEquipo(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, pruebaEquipo, async ({ params, body }) => {
    const tel = normalizarTelefono(body.telefono);
    if (!tel.ok)
      throw error(400, 'campoInvalido', { campo: 'telefono', detalle: tel.motivo }, 'telefono');
    const r = await enviarPrueba(ctx, params.id, tel.e164);
    return {
      status: 200 as const,
      mensaje: msg('pruebaEnviada', { telefono: body.telefono.trim() }),
      ...r,
    };
  });
  rutasWebhookWhatsapp(app, ctx);
}
