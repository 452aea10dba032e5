import { z } from 'zod';
import { endpoint, type Endpoint } from './endpoint.ts';
import { IdParamsSchema, OkSchema } from './comun.ts';
import { msg } from '../messages.ts';
import { etiquetaCampo } from '../etiquetas-campo.ts';
import { textoSchema } from '../zod-helpers.ts';

// Issue 47.4: other systems in and out. API keys (service accounts with scopes, sent as
// 'Authorization: Bearer pregon_…') and signed outgoing webhooks, both kept by administrators.

/** What a key may do. None of them approves: approval is a person's (role 'aprobadores'). */
export const ALCANCES_CLAVE = [
  'lectura',
  'crear_simulacros',
  'iniciar_simulacros',
  'solicitar_alertas_reales',
  'cap',
] as const;
export type AlcanceClave = (typeof ALCANCES_CLAVE)[number];

/** How each scope reads on the screen and in /docs. */
export const ETIQUETAS_ALCANCE: Record<AlcanceClave, string> = {
  lectura: 'Lectura',
  crear_simulacros: 'Crear simulacros',
  iniciar_simulacros: 'Iniciar simulacros',
  solicitar_alertas_reales: 'Solicitar alertas reales',
  cap: 'CAP',
};

/** Every key starts with this, so the api tells a key from a session token at a glance. */
export const PREFIJO_CLAVE = 'pregon_';

/** The scope a key needs for each route that accepts keys ('METHOD path'). A GET of level
 * 'lectura' needs 'lectura'; any other route not listed here refuses keys (403): users,
 * devices, settings, keys and webhooks themselves, and any approval. */
export const ALCANCE_POR_RUTA: Readonly<Record<string, AlcanceClave>> = {
  'POST /ejercicio/': 'crear_simulacros',
  'PUT /ejercicio/:id/': 'crear_simulacros',
  'POST /ejercicio/generar/': 'crear_simulacros',
  'POST /ejercicio/ordenar/': 'crear_simulacros',
  'POST /ejercicio/:canal/': 'iniciar_simulacros',
  'POST /ejercicio/programar/': 'iniciar_simulacros',
  'POST /ejercicio/pausa/': 'iniciar_simulacros',
  'POST /quiz/stop/': 'iniciar_simulacros',
  'POST /cap/': 'cap',
  'POST /ejercicio/:id/aprobacion/': 'solicitar_alertas_reales',
};

/** The scope a key needs to call `e`, or null when no key may call it. */
export function alcanceDeRuta(
  e: Pick<Endpoint, 'method' | 'path' | 'acceso'>,
): AlcanceClave | null {
  const listado = ALCANCE_POR_RUTA[`${e.method} ${e.path}`];
  if (listado) return listado;
  return e.method === 'GET' && e.acceso === 'lectura' ? 'lectura' : null;
}

/** Extra scope a request's body asks for: creating an 'Alerta real' needs
 * 'solicitar_alertas_reales' besides the route's. */
export function alcanceDelCuerpo(
  e: Pick<Endpoint, 'method' | 'path'>,
  body: unknown,
): AlcanceClave | null {
  const modo = (body as { modo?: unknown } | null)?.modo;
  return (e.path === '/ejercicio/' || e.path === '/ejercicio/:id/') && modo === 'real'
    ? 'solicitar_alertas_reales'
    : null;
}

/** Requests one key may make per minute (then 429). */
export const LIMITE_CLAVE_POR_MINUTO = 120;

const alcanceSchema = z.enum(ALCANCES_CLAVE, {
  error: msg('alcanceInvalido', { alcances: ALCANCES_CLAVE.join(', ') }),
});

/** A scope list as the form sends it: an array or a comma-separated string. */
const alcancesSchema = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z
    .array(alcanceSchema, { error: msg('campoObligatorio', { campo: etiquetaCampo('alcances') }) })
    .min(1, { error: msg('campoObligatorio', { campo: etiquetaCampo('alcances') }) })
    .transform((a) => [...new Set(a)]),
);

export const CrearClaveSchema = z.object({
  nombre: textoSchema('nombre', { min: 1, max: 100 }).transform((t) => t.trim()),
  alcances: alcancesSchema,
});

export const ClaveApiSchema = z.object({
  id_clave: z.number(),
  nombre: z.string(),
  /** The key's public part ('pregon_ab12cd34…'), enough to recognise it. */
  prefijo: z.string(),
  alcances: z.array(alcanceSchema),
  creada: z.number(),
  creada_por: z.string().nullable(),
  ultimo_uso: z.number().nullable(),
  revocada: z.number().nullable(),
});
export type ClaveApi = z.infer<typeof ClaveApiSchema>;

/** GET /integraciones/claves/ */
export const listarClaves = endpoint({
  method: 'GET',
  path: '/integraciones/claves/',
  acceso: 'admin',
  etiqueta: 'integraciones',
  resumen: 'Claves de API (cuentas de servicio) con sus alcances, último uso y revocación',
  respuesta: z.object({ status: z.literal(200), data: z.array(ClaveApiSchema) }),
});

/** POST /integraciones/claves/ */
export const crearClave = endpoint({
  method: 'POST',
  path: '/integraciones/claves/',
  acceso: 'admin',
  etiqueta: 'integraciones',
  resumen: 'Crea una clave de API; la clave se muestra solo en esta respuesta',
  body: CrearClaveSchema,
  respuesta: z.object({
    status: z.literal(200),
    mensaje: z.string(),
    clave: z.string(),
    data: ClaveApiSchema,
  }),
});

/** DELETE /integraciones/claves/:id/ */
export const revocarClave = endpoint({
  method: 'DELETE',
  path: '/integraciones/claves/:id/',
  acceso: 'admin',
  etiqueta: 'integraciones',
  resumen: 'Revoca una clave de API (deja de aceptarse en la siguiente petición)',
  params: IdParamsSchema,
  respuesta: OkSchema,
});

/** Events a webhook may subscribe to. */
export const EVENTOS_WEBHOOK = [
  'ejercicio.creado',
  'ejercicio.iniciado',
  'ejercicio.pausado',
  'ejercicio.detenido',
  'ejercicio.completado',
  'respuesta.recibida',
  'caso.abierto',
  'aprobacion.solicitada',
  'aprobacion.aprobada',
  'aprobacion.rechazada',
] as const;
export type EventoWebhook = (typeof EVENTOS_WEBHOOK)[number];

/** Headers of every delivery: the signature is HMAC-SHA256 with the subscription's secret over
 * `${X-Pregon-Marca}.${body}`, written 'sha256=<hex>'; the mark is the send's Unix time in
 * seconds (refuse marks more than 5 minutes old to stop replays). */
export const CABECERA_FIRMA = 'X-Pregon-Firma';
export const CABECERA_MARCA = 'X-Pregon-Marca';
export const CABECERA_EVENTO = 'X-Pregon-Evento';
export const CABECERA_ENTREGA = 'X-Pregon-Entrega';

const eventoSchema = z.enum(EVENTOS_WEBHOOK, {
  error: msg('eventoWebhookInvalido', { eventos: EVENTOS_WEBHOOK.join(', ') }),
});

/** A full http(s) address without user or password, at most 2,000 characters: a webhook's
 * target and a CAP feed's address. */
export const UrlHttpSchema = z
  .string({ error: msg('campoObligatorio', { campo: etiquetaCampo('url') }) })
  .trim()
  .max(2000, { error: msg('campoMuyLargo', { campo: etiquetaCampo('url'), max: 2000 }) })
  .refine(
    (u) => {
      try {
        const p = new URL(u);
        return (p.protocol === 'http:' || p.protocol === 'https:') && !p.username && !p.password;
      } catch {
        return false;
      }
    },
    { error: msg('urlWebhookInvalida') },
  );

export const CrearWebhookSchema = z.object({
  url: UrlHttpSchema,
  eventos: z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : v,
    z
      .array(eventoSchema, { error: msg('campoObligatorio', { campo: etiquetaCampo('eventos') }) })
      .min(1, { error: msg('campoObligatorio', { campo: etiquetaCampo('eventos') }) })
      .transform((a) => [...new Set(a)]),
  ),
});

export const WebhookSchema = z.object({
  id_webhook: z.number(),
  url: z.string(),
  eventos: z.array(eventoSchema),
  activo: z.number(),
  creado: z.number(),
  creado_por: z.string().nullable(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

export const EntregaSchema = z.object({
  id_entrega: z.number(),
  id_webhook: z.number(),
  evento: z.string(),
  estado: z.enum(['pendiente', 'entregado', 'fallido']),
  intentos: z.number(),
  creada: z.number(),
  ultimo_intento: z.number().nullable(),
  siguiente_intento: z.number().nullable(),
  /** The receiver's HTTP status of the last attempt (null: no answer) and its first bytes. */
  estado_http: z.number().nullable(),
  respuesta: z.string().nullable(),
  duracion_ms: z.number().nullable(),
  error: z.string().nullable(),
});
export type Entrega = z.infer<typeof EntregaSchema>;

/** GET /integraciones/webhooks/ */
export const listarWebhooks = endpoint({
  method: 'GET',
  path: '/integraciones/webhooks/',
  acceso: 'admin',
  etiqueta: 'integraciones',
  resumen: 'Suscripciones de webhooks salientes',
  respuesta: z.object({ status: z.literal(200), data: z.array(WebhookSchema) }),
});

/** POST /integraciones/webhooks/ */
export const crearWebhook = endpoint({
  method: 'POST',
  path: '/integraciones/webhooks/',
  acceso: 'admin',
  etiqueta: 'integraciones',
  resumen:
    'Suscribe una URL a eventos; el secreto de firma (HMAC-SHA256, cabeceras X-Pregon-Firma y X-Pregon-Marca) se muestra solo en esta respuesta',
  body: CrearWebhookSchema,
  respuesta: z.object({
    status: z.literal(200),
    mensaje: z.string(),
    secreto: z.string(),
    data: WebhookSchema,
  }),
});

/** DELETE /integraciones/webhooks/:id/ */
export const eliminarWebhook = endpoint({
  method: 'DELETE',
  path: '/integraciones/webhooks/:id/',
  acceso: 'admin',
  etiqueta: 'integraciones',
  resumen: 'Elimina una suscripción y su registro de entregas',
  params: IdParamsSchema,
  respuesta: OkSchema,
});

/** GET /integraciones/webhooks/:id/entregas/ */
export const listarEntregas = endpoint({
  method: 'GET',
  path: '/integraciones/webhooks/:id/entregas/',
  acceso: 'admin',
  etiqueta: 'integraciones',
  resumen: 'Registro de entregas de una suscripción (estado, respuesta, hora), las 100 últimas',
  params: IdParamsSchema,
  respuesta: z.object({ status: z.literal(200), data: z.array(EntregaSchema) }),
});

/** POST /integraciones/entregas/:id/reenviar/ */
export const reenviarEntrega = endpoint({
  method: 'POST',
  path: '/integraciones/entregas/:id/reenviar/',
  acceso: 'admin',
  etiqueta: 'integraciones',
  resumen: 'Reenvía una entrega (vuelve a la cola con sus reintentos de 24 h)',
  params: IdParamsSchema,
  respuesta: OkSchema,
});
