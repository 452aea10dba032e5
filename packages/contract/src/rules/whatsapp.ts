import { z } from 'zod';
import { msg } from '../messages.ts';

// What a type-3 exercise sends over the WhatsApp Cloud API. Its `accion` holds either free text
// (only delivered to recipients inside the 24-hour service window) or, as JSON, the approved
// template to send: {"plantilla": name, "idioma": "es_MX", "parametros": ["…", …]}.

/** The template choice stored in a type-3 exercise's accion. */
export const PlantillaElegidaSchema = z.object({
  plantilla: z.string().min(1).max(512),
  idioma: z.string().min(2).max(15),
  parametros: z.array(z.string().max(1024)).max(50),
});
/** A template choice. */
export type PlantillaElegida = z.infer<typeof PlantillaElegidaSchema>;

/** An approved template as the dialog lists it. */
export const PlantillaWhatsappSchema = z.object({
  nombre: z.string(),
  idioma: z.string(),
  /** The body text with its {{1}}…{{n}} placeholders. */
  cuerpo: z.string(),
  /** How many body parameters it takes. */
  parametros: z.number().int().min(0),
});
/** An approved template. */
export type PlantillaWhatsapp = z.infer<typeof PlantillaWhatsappSchema>;

/** What an accion asks the channel to send. */
export type AccionWhatsapp =
  ({ tipo: 'plantilla' } & PlantillaElegida) | { tipo: 'texto'; texto: string };

/** Reads a type-3 accion: a template choice when it is such a JSON object, else free text. */
export function leerAccionWhatsapp(accion: string): AccionWhatsapp {
  const t = accion.trim();
  if (t.startsWith('{')) {
    try {
      const p = PlantillaElegidaSchema.safeParse(JSON.parse(t));
      if (p.success) return { tipo: 'plantilla', ...p.data };
    } catch {
      // not JSON: free text that starts with a brace
    }
  }
  return { tipo: 'texto', texto: accion };
}

/** The accion text that stores a template choice. */
export function accionDePlantilla(p: PlantillaElegida): string {
  return JSON.stringify({ plantilla: p.plantilla, idioma: p.idioma, parametros: p.parametros });
}

/** An accion as a list cell shows it: a template by name, language and parameters; text as is. */
export function accionVisible(accion: string): string {
  const a = leerAccionWhatsapp(accion);
  if (a.tipo === 'texto') return accion;
  const parametros = a.parametros.length ? `: ${a.parametros.join(', ')}` : '';
  return msg('plantillaEnLista', { plantilla: a.plantilla, idioma: a.idioma, parametros });
}

/** Number of body parameters of a template text (the highest {{n}}). */
export function parametrosDeCuerpo(cuerpo: string): number {
  let n = 0;
  for (const m of cuerpo.matchAll(/\{\{(\d+)\}\}/g)) n = Math.max(n, Number(m[1]));
  return n;
}

/** The text a recipient reads: the template body with its parameters filled in. */
export function textoDePlantilla(cuerpo: string, parametros: readonly string[]): string {
  return cuerpo.replace(/\{\{(\d+)\}\}/g, (marca, n: string) => parametros[Number(n) - 1] ?? marca);
}

/** Graph API version of every Cloud API request (messages and the template list) when the
 * device's credentials name none: the newest in Meta's Graph API changelog (v26.0, introduced
 * 29 July 2026). Meta upgrades a call to a version no longer available to the oldest one that is. */
export const VERSION_API_WHATSAPP = 'v26.0';

/** What a Cloud API error means for a send. */
export type ClaseErrorWhatsapp =
  /** Token or permissions refused: pause the exercise as credentials refused. */
  | 'credenciales'
  /** The business account is restricted, locked or has a payment issue: pause. */
  | 'cuenta'
  /** The device's phone_number_id does not exist for this token or is not registered: pause. */
  | 'telefonoId'
  /** Rate limits: nothing was sent, retry with backoff. */
  | 'limite'
  /** Meta's own trouble (unknown, service unavailable, maintenance): retry. */
  | 'transitorio'
  /** The request as built was refused (a parameter's name or value): not the recipient's fault;
   * the row stays pending and the error counts toward the automatic pause. */
  | 'solicitud'
  /** 24-hour service window closed: permanent for the recipient (free text only). */
  | 'fueraDeVentana'
  /** The number cannot receive WhatsApp messages: permanent for the recipient. */
  | 'noEntregable'
  /** The template does not exist, is not approved, paused or disabled, or its parameters do not fit. */
  | 'plantilla'
  /** Meta withheld this message from this recipient (experiment, marketing limits): permanent. */
  | 'destinatario'
  /** Anything else: decided by the HTTP status. */
  | 'otro';

/** Cloud API error codes by class, from Meta's error-code reference (WhatsApp Business Platform,
 * "Error codes": authorization, throttling, integrity, other and template errors). */
export const CODIGOS_WHATSAPP: Readonly<
  Record<Exclude<ClaseErrorWhatsapp, 'otro'>, readonly number[]>
> = {
  // 0 AuthException, 3 API method (capability), 10 permission denied, 190 access token expired;
  // 200-299 API permission (checked as a range below).
  credenciales: [0, 3, 10, 190],
  // 368 blocked for policy violations, 130497 country restricted, 131031 account locked,
  // 131042 business eligibility payment issue.
  cuenta: [368, 130497, 131031, 131042],
  // 33 the business phone number was deleted, 133010 phone number not registered.
  telefonoId: [33, 133010],
  // 4 app call rate, 80007 WABA rate limit, 130429 throughput, 131048 spam rate limit,
  // 131056 business/consumer pair rate limit.
  limite: [4, 80007, 130429, 131048, 131056],
  // 1 API unknown, 2 API service, 131000 something went wrong, 131016 service unavailable,
  // 131057 account in maintenance mode, 133004 server temporarily unavailable.
  transitorio: [1, 2, 131000, 131016, 131057, 133004],
  // 100 invalid parameter, 131008 required parameter missing, 131009 parameter value not valid,
  // 131051 unsupported message type.
  solicitud: [100, 131008, 131009, 131051],
  fueraDeVentana: [131047],
  // 131026 message undeliverable, 131021 recipient cannot be sender.
  noEntregable: [131026, 131021],
  // 132000 parameter count, 132001 does not exist, 132005 text too long, 132007 format policy,
  // 132012 parameter format, 132015 paused, 132016 disabled.
  plantilla: [132000, 132001, 132005, 132007, 132012, 132015, 132016],
  // 130472 number part of an experiment, 131030 not in the test number's allowed list,
  // 131049 withheld for ecosystem engagement (marketing), 131050 user stopped marketing messages.
  destinatario: [130472, 131030, 131049, 131050],
};

const CLASES = new Map<number, ClaseErrorWhatsapp>(
  Object.entries(CODIGOS_WHATSAPP).flatMap(([clase, codigos]) =>
    codigos.map((c) => [c, clase as ClaseErrorWhatsapp] as const),
  ),
);

/** The class of a Cloud API error code. Code 100 with Graph subcode 33 ("Object with ID … does
 * not exist, cannot be loaded due to missing permissions") names a phone_number_id the token
 * cannot use. */
export function claseErrorWhatsapp(codigo: number, subcodigo?: number): ClaseErrorWhatsapp {
  if (codigo === 100 && subcodigo === 33) return 'telefonoId';
  if (codigo >= 200 && codigo <= 299) return 'credenciales';
  return CLASES.get(codigo) ?? 'otro';
}

/** An error object as the Cloud API writes it: a request's `error`, a failed status's
 * `errors[n]`, a webhook's `value.errors[n]`. */
export interface ErrorMeta {
  code?: number;
  title?: string;
  message?: string;
  error_subcode?: number;
  error_data?: { details?: string };
}

/** Meta's words for an error: 'code: title — details' (the title, or the message without its
 * '(#code)' prefix; the details when they add something). */
export function textoErrorMeta(e: ErrorMeta): string {
  const titulo = (e.title ?? e.message ?? '').replace(/^\(#\d+\)\s*/, '').trim();
  const detalles = e.error_data?.details?.trim();
  const partes = [titulo, detalles && detalles !== titulo ? detalles : ''].filter(Boolean);
  return `${e.code ?? '?'}: ${partes.join(' — ') || 'sin descripción'}`;
}

/** The reason a failed status webhook leaves on its recipient: Spanish, with Meta's code and
 * title (the database keeps 500 characters). */
export function motivoEstadoFallido(e: ErrorMeta | undefined): string {
  if (!e) return msg('whatsappEntregaFallida');
  const clase = claseErrorWhatsapp(e.code ?? -1);
  const base =
    clase === 'noEntregable'
      ? msg('whatsappNoEntregable')
      : clase === 'fueraDeVentana'
        ? msg('whatsappFueraDeVentana')
        : msg('whatsappEntregaFallida');
  return `${base} (${textoErrorMeta(e)})`.slice(0, 500);
}
