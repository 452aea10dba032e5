import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { IdParamsSchema, OkSchema } from './comun.ts';
import { UrlHttpSchema } from './integraciones.ts';
import { msg, type ClaveMensaje } from '../messages.ts';
import { SEVERIDADES_REGLA } from '../rules/cap-fuentes.ts';
import {
  enteroSchema,
  idSchema,
  listaIdsSchema,
  textoSchema,
  vacioComoAusente,
} from '../zod-helpers.ts';

// Issue 47.4: CAP 1.2 (OASIS Common Alerting Protocol) in and out.

/** Largest CAP document POST /cap/ reads (bytes); a larger body is refused with 413. */
export const LIMITE_CUERPO_CAP = 256 * 1024;

/** The media types POST /cap/ reads as CAP XML. */
export const TIPOS_CONTENIDO_CAP = ['application/xml', 'text/xml', 'application/cap+xml'] as const;

/** GET /ejercicio/{id}/cap.xml: the exercise as a CAP 1.2 alert (application/cap+xml). */
export const exportarCap = endpoint({
  method: 'GET',
  path: '/ejercicio/:id/cap.xml',
  acceso: 'lectura',
  etiqueta: 'cap',
  resumen:
    'Exporta un ejercicio como alerta CAP 1.2 (status por modo: Simulacro→Exercise, Prueba→Test, Alerta real→Actual)',
  params: IdParamsSchema,
  respuesta: z.string(),
});

/** What POST /cap/ did with the alert. */
export const ACCIONES_CAP = ['creado', 'actualizado', 'detenido'] as const;

/** POST /cap/: a CAP 1.2 alert (XML body). Alert creates an exercise (never started), Update
 * edits the one its references name, Cancel stops it. */
export const recibirCap = endpoint({
  method: 'POST',
  path: '/cap/',
  acceso: 'escritura',
  etiqueta: 'cap',
  resumen:
    'Recibe una alerta CAP 1.2 (XML): Alert crea el ejercicio sin iniciarlo, Update lo edita, Cancel lo detiene',
  body: z.string({ error: msg('capCuerpoNoXml') }),
  respuesta: z.object({
    status: z.literal(200),
    mensaje: z.string(),
    id_ejercicio: z.number(),
    accion: z.enum(ACCIONES_CAP),
    /** As in POST /ejercicio/'s answer: the drill marker was added to the text. */
    aviso_marca: z.string().optional(),
  }),
});

// CAP feeds (issue 47.4): Atom/RSS feeds of CAP alerts an administrator subscribes to.

/** How often a feed may be read, in minutes. */
export const INTERVALO_FUENTE_MIN = { min: 1, max: 1440, defecto: 5 } as const;
/** Most words a rule's event list may hold. */
export const MAX_EVENTOS_REGLA = 20;

/** What a feed did with one alert. */
export const RESULTADOS_FUENTE = [
  'creado',
  'actualizado',
  'detenido',
  'no_coincide',
  'rechazada',
  'ya_recibida',
] as const;
export type ResultadoFuente = (typeof RESULTADOS_FUENTE)[number];
/** The catalogue label of each. */
export const ETIQUETA_RESULTADO_FUENTE: Readonly<Record<ResultadoFuente, ClaveMensaje>> = {
  creado: 'resultadoFuenteCreado',
  actualizado: 'resultadoFuenteActualizado',
  detenido: 'detenido',
  no_coincide: 'resultadoFuenteNoCoincide',
  rechazada: 'aprobacionEstadoRechazada',
  ya_recibida: 'resultadoFuenteYaRecibida',
};

export const CrearFuenteCapSchema = z.object({
  nombre: textoSchema('nombre', { min: 1, max: 100 }).transform((s) => s.trim()),
  url: UrlHttpSchema,
  intervalo_min: vacioComoAusente(
    enteroSchema('intervalo_min', INTERVALO_FUENTE_MIN.min, INTERVALO_FUENTE_MIN.max).optional(),
  ).transform((v) => v ?? INTERVALO_FUENTE_MIN.defecto),
  /** Words (a comma-separated string or an array); none: any event. */
  eventos: z
    .preprocess(
      (v) => (v === undefined || v === null ? [] : typeof v === 'string' ? v.split(',') : v),
      z.array(textoSchema('eventos', { max: 60 })).max(MAX_EVENTOS_REGLA, {
        error: msg('listaMuyLarga', { campo: 'eventos', max: MAX_EVENTOS_REGLA }),
      }),
    )
    .transform((a) => [...new Set(a.map((s) => s.trim()).filter(Boolean))]),
  severidad_minima: vacioComoAusente(
    z
      .enum(SEVERIDADES_REGLA, {
        error: msg('capValorInvalido', {
          elemento: 'severidad_minima',
          valor: '',
          validos: SEVERIDADES_REGLA.join(', '),
        }),
      })
      .optional(),
  ).transform((v) => v ?? null),
  /** State ids (none: any state). */
  estados: vacioComoAusente(listaIdsSchema('estados').optional()).transform((v) => v ?? []),
  /** The device its drafts use (none: CAP_EQUIPO or the first SMS device, as POST /cap/). */
  id_equipo: vacioComoAusente(idSchema('id_equipo').optional()).transform((v) => v ?? null),
});
export type CrearFuenteCap = z.infer<typeof CrearFuenteCapSchema>;

export const FuenteCapSchema = z.object({
  id_fuente: z.number(),
  nombre: z.string(),
  url: z.string(),
  intervalo_min: z.number(),
  activo: z.number(),
  eventos: z.array(z.string()),
  severidad_minima: z.enum(SEVERIDADES_REGLA).nullable(),
  estados: z.array(z.object({ id_estado: z.number(), estado: z.string() })),
  id_equipo: z.number().nullable(),
  creado: z.number(),
  creado_por: z.string().nullable(),
  ultima_consulta: z.number().nullable(),
  /** Where the last read ended: null (never read), 'ok' or the error's Spanish text. */
  ultimo_error: z.string().nullable(),
  proxima_consulta: z.number(),
});
export type FuenteCap = z.infer<typeof FuenteCapSchema>;

export const RegistroFuenteSchema = z.object({
  id_registro: z.number(),
  remitente: z.string(),
  identificador: z.string(),
  enviado: z.string(),
  tipo_mensaje: z.string(),
  evento: z.string().nullable(),
  resultado: z.enum(RESULTADOS_FUENTE),
  mensaje: z.string(),
  id_ejercicio: z.number().nullable(),
  visto: z.number(),
});
export type RegistroFuente = z.infer<typeof RegistroFuenteSchema>;

/** GET /cap/fuentes/ */
export const listarFuentesCap = endpoint({
  method: 'GET',
  path: '/cap/fuentes/',
  acceso: 'admin',
  etiqueta: 'cap',
  resumen: 'Fuentes CAP (feeds Atom/RSS) suscritas, con su regla y su última consulta',
  respuesta: z.object({ status: z.literal(200), data: z.array(FuenteCapSchema) }),
});

/** POST /cap/fuentes/ */
export const crearFuenteCap = endpoint({
  method: 'POST',
  path: '/cap/fuentes/',
  acceso: 'admin',
  etiqueta: 'cap',
  resumen:
    'Suscribe un feed Atom/RSS de alertas CAP 1.2; las alertas nuevas que cumplen la regla (eventos, severidad mínima, estados) crean borradores sin iniciar',
  body: CrearFuenteCapSchema,
  respuesta: z.object({ status: z.literal(200), mensaje: z.string(), data: FuenteCapSchema }),
});

/** DELETE /cap/fuentes/:id/ */
export const eliminarFuenteCap = endpoint({
  method: 'DELETE',
  path: '/cap/fuentes/:id/',
  acceso: 'admin',
  etiqueta: 'cap',
  resumen: 'Elimina una fuente CAP y su registro (los ejercicios que creó se quedan)',
  params: IdParamsSchema,
  respuesta: OkSchema,
});

/** POST /cap/fuentes/:id/consultar/ */
export const consultarFuenteCap = endpoint({
  method: 'POST',
  path: '/cap/fuentes/:id/consultar/',
  acceso: 'admin',
  etiqueta: 'cap',
  resumen: 'Consulta una fuente CAP ahora (sin esperar su intervalo)',
  params: IdParamsSchema,
  respuesta: z.object({
    status: z.literal(200),
    mensaje: z.string(),
    nuevas: z.number(),
    borradores: z.number(),
  }),
});

/** GET /cap/fuentes/:id/registro/ */
export const registroFuenteCap = endpoint({
  method: 'GET',
  path: '/cap/fuentes/:id/registro/',
  acceso: 'admin',
  etiqueta: 'cap',
  resumen: 'Lo que una fuente CAP hizo con cada alerta que trajo, las 200 últimas',
  params: IdParamsSchema,
  respuesta: z.object({ status: z.literal(200), data: z.array(RegistroFuenteSchema) }),
});
