/**
 * Replies from Android and WhatsApp (issue 46.1): the public webhook each Android device's phone
 * posts its received SMS to, and the 24-hour WhatsApp service windows those replies open.
 */
import { z } from 'zod';
import { idSchema, textoSchema } from '../zod-helpers.ts';
import { endpoint } from './endpoint.ts';
import { ListaGruposSchema } from './ejercicios.ts';

/** Path of an Android device's 'sms:received' webhook ('SMS Gateway for Android'): Pregón
 * registers `{URL_WEBHOOKS}/webhooks/android/{id_equipo}/` on the phone when the device is saved. */
export const RUTA_WEBHOOK_ANDROID = '/webhooks/android/:id_equipo/';

/** POST of the Android webhook: the body is read as bytes to check X-Signature (HMAC-SHA256 hex
 * of the raw body followed by X-Timestamp, with the signing key Pregón set on the phone) and
 * X-Timestamp (Unix seconds, at most 5 minutes away); 401 without them, 200 once stored. */
export const webhookAndroid = endpoint({
  method: 'POST',
  path: RUTA_WEBHOOK_ANDROID,
  acceso: 'publico',
  etiqueta: 'equipos',
  resumen:
    'Webhook de SMS Gateway for Android: SMS recibidos (sms:received), firmados con X-Signature y X-Timestamp (HMAC-SHA256 con la clave de firma del equipo)',
  params: z.object({ id_equipo: idSchema('id_equipo') }),
  respuesta: z.object({ status: z.literal(200) }),
});

/** One open (or closed) WhatsApp customer-service window of a phone on a device. */
export const VentanaWhatsappSchema = z.object({
  id_equipo: z.number(),
  alias: z.string(),
  telefono: z.string(),
  /** When the person last wrote (Meta's timestamp, epoch ms). */
  ultima_respuesta: z.number(),
  /** 24 hours after it: free text reaches the person until then (epoch ms). */
  abierta_hasta: z.number(),
  abierta: z.boolean(),
});
/** A window as the wire carries it. */
export type VentanaWhatsapp = z.infer<typeof VentanaWhatsappSchema>;

/** GET /whatsapp/ventanas/?telefono=: the 24-hour windows a phone's WhatsApp messages opened,
 * per device, the latest first. */
export const ventanasWhatsapp = endpoint({
  method: 'GET',
  path: '/whatsapp/ventanas/',
  acceso: 'lectura',
  etiqueta: 'respuestas',
  resumen:
    'Ventanas de 24 horas de WhatsApp que abrieron los mensajes de un teléfono, por equipo (abierta_hasta)',
  query: z.object({ telefono: textoSchema('telefono', { min: 1, max: 30 }) }),
  respuesta: z.object({ status: z.literal(200), data: z.array(VentanaWhatsappSchema) }),
});

/** GET /whatsapp/ventanas/seguimiento/?origen=&resultados=&id_equipo= (issue 48.6): of the
 * recipients a follow-up of `origen`'s sets `resultados` would copy, how many have no 24-hour
 * window open now on the WhatsApp device `id_equipo`: free text does not reach them (Meta refuses
 * it), an approved template does. */
export const ventanasSeguimiento = endpoint({
  method: 'GET',
  path: '/whatsapp/ventanas/seguimiento/',
  acceso: 'lectura',
  etiqueta: 'respuestas',
  resumen:
    'De los destinatarios de un seguimiento, cuántos no tienen abierta ahora la ventana de 24 horas de WhatsApp en el equipo',
  query: z.object({
    origen: idSchema('origen'),
    resultados: ListaGruposSchema,
    id_equipo: idSchema('id_equipo'),
  }),
  respuesta: z.object({
    status: z.literal(200),
    destinatarios: z.number(),
    fuera_de_ventana: z.number(),
  }),
});
