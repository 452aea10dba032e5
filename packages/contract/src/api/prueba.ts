/**
 * Test send of a device (ARCHITECTURE 7: the device detail's test-send button) and the public
 * WhatsApp status webhook of the dispatcher (ARCHITECTURE 5).
 */
import { z } from 'zod';
import { EstatusDestinatarioSchema } from '../esquemas.ts';
import { idSchema, textoSchema } from '../zod-helpers.ts';
import { endpoint } from './endpoint.ts';

/** Body of POST /equipos/{id}/prueba/: the number that receives the test message. */
export const PruebaEquipoBodySchema = z.object({
  telefono: textoSchema('telefono', { min: 1, max: 30 }),
});

/** Answer of a test send: the outcome as a recipient row would record it. */
export const PruebaEquipoRespuestaSchema = z.object({
  status: z.literal(200),
  mensaje: z.string(),
  estatus: EstatusDestinatarioSchema,
  id_gateway: z.string().nullable(),
});

/** POST /equipos/{id}/prueba/: 400 for a bad number or a device that cannot send messages, 502
 * when the gateway refuses or cannot be reached. */
export const pruebaEquipo = endpoint({
  method: 'POST',
  path: '/equipos/:id/prueba/',
  acceso: 'escritura',
  etiqueta: 'equipos',
  resumen: 'Envía un mensaje de prueba por el adaptador del equipo',
  params: z.object({ id: idSchema('id') }),
  body: PruebaEquipoBodySchema,
  respuesta: PruebaEquipoRespuestaSchema,
});

/** Path of the WhatsApp Cloud API status webhook: GET is the verify-token handshake
 * (hub.mode, hub.verify_token, hub.challenge), POST the statuses, signed with X-Hub-Signature-256. */
export const RUTA_WEBHOOK_WHATSAPP = '/webhooks/whatsapp/';

/** GET of the webhook: Meta's subscription handshake; answers hub.challenge as text when
 * hub.verify_token is a WhatsApp device's verify_token, else 403. */
export const verificarWebhookWhatsapp = endpoint({
  method: 'GET',
  path: RUTA_WEBHOOK_WHATSAPP,
  acceso: 'publico',
  etiqueta: 'equipos',
  resumen:
    'Webhook de WhatsApp (Meta): verificación de la suscripción; responde hub.challenge si hub.verify_token es el de un equipo',
  query: z.object({
    'hub.mode': z.string().max(100).optional(),
    'hub.verify_token': z.string().max(4000).optional(),
    'hub.challenge': z.string().max(4000).optional(),
  }),
  respuesta: z.string(),
});

/** POST of the webhook: Meta's statuses (the body is read as bytes to check X-Hub-Signature-256,
 * the HMAC-SHA256 of the raw body with a device's app_secret; 401 without it, 200 otherwise). */
export const estadosWebhookWhatsapp = endpoint({
  method: 'POST',
  path: RUTA_WEBHOOK_WHATSAPP,
  acceso: 'publico',
  etiqueta: 'equipos',
  resumen:
    'Webhook de WhatsApp (Meta): estados de los mensajes, firmados con X-Hub-Signature-256 (HMAC-SHA256 del cuerpo con el app_secret de un equipo)',
  respuesta: z.object({ status: z.literal(200) }),
});
