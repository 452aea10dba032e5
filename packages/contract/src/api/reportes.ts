/**
 * Report calls of the main API (SPEC 3 "Report rows", SPEC 7 "Reports"; ARCHITECTURE 3).
 *
 * Wire decisions:
 * - reporte3 feeds 'Reporte 1' and reporte4 feeds 'Reporte 2'; as the SPEC reads them ("an array
 *   of rows"), both answer a plain JSON list.
 * - reporte4 and reporte2 page on the server with `?limit=&offset=` (defaults of
 *   api/ejercicios.ts: 5000 rows, at most 50000); reporte4 gives the total in `X-Total-Count`.
 * - reporte2 and resumen answer `{status: 200, ejercicio, …}`.
 * - POST /csv/ streams `text/csv` (UTF-8 with BOM, comma separated, CRLF, RFC 4180 quoting,
 *   cells starting with = + - @ prefixed with '), named after the exercise.
 */
import { z } from 'zod';
import { ESTATUS_DESTINATARIO, type Semaforo } from '../constants.ts';
import { msg } from '../messages.ts';
import { idSchema } from '../zod-helpers.ts';
import { IdParamsSchema } from './comun.ts';
import {
  ColumnasRespaldoSchema,
  EjercicioReporteSchema,
  PaginaReporteSchema,
} from './ejercicios.ts';
import { endpoint } from './endpoint.ts';
import { ColumnasRespuestaSchema } from './columnas-respuesta.ts';

/** One row of reporte2: a recipient's call/send detail. duracion (talk) and timbrado (ring) in
 * seconds, causa the call's Q.850 hangup cause. */
export const FilaReporte2Schema = z.object({
  n: z.number(),
  telefono: z.string(),
  nombre: z.string(),
  estatus: z.enum(ESTATUS_DESTINATARIO),
  resultado: z.string(),
  realizado: z.string(),
  intentos: z.number(),
  duracion: z.number().nullable(),
  timbrado: z.number().nullable(),
  causa: z.number().nullable(),
  fecha_envio: z.string(),
  hora_envio: z.string(),
  recibida: z.string(),
  motivo: z.string(),
  ...ColumnasRespaldoSchema.shape,
  /** Issue 46.3, a poll exercise: the person's current answer (api/columnas-respuesta.ts). */
  ...ColumnasRespuestaSchema.shape,
});

/** An audio the exercise played, as fixed when it started (issue 23.1): pregunta null for a
 * call's audio, else the question number; nombre as the operator chose it, archivo as stored,
 * sha256 in full, huella its first 16 hex digits, duracion_s its length. */
export const AudioReporteSchema = z.object({
  pregunta: z.number().nullable(),
  nombre: z.string(),
  archivo: z.string(),
  sha256: z.string(),
  huella: z.string(),
  duracion_s: z.number(),
});
/** One played audio of a report. */
export type AudioReporte = z.infer<typeof AudioReporteSchema>;

/** GET /reportes/reporte2/{id}/ → {status, ejercicio, audios, audios_nota, data, total, limit,
 * offset}: `audios` is what a call or quiz played (empty for other types, or when nothing was
 * recorded, and then `audios_nota` says why; '' otherwise). */
export const reporte2 = endpoint({
  method: 'GET',
  path: '/reportes/reporte2/:id/',
  acceso: 'lectura',
  etiqueta: 'reportes',
  resumen: 'Detalle por destinatario: resultado, duración, intentos (paginado)',
  params: IdParamsSchema,
  query: PaginaReporteSchema,
  respuesta: z.object({
    status: z.literal(200),
    ejercicio: EjercicioReporteSchema,
    audios: z.array(AudioReporteSchema),
    audios_nota: z.string(),
    data: z.array(FilaReporte2Schema),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
});

/**
 * One row of reporte3 ('Reporte 1'): for each question (orden = its number) one row with tipo
 * 'pregunta' (reactivo = question text, total = recipients who answered it), followed by one row
 * per answer with tipo 'respuesta' (reactivo = answer text, total = recipients who pressed its
 * digit, digito = that digit).
 */
export const FilaReporte3Schema = z.object({
  reactivo: z.string(),
  total: z.number(),
  orden: z.number(),
  tipo: z.enum(['pregunta', 'respuesta']),
  digito: z.number().nullable(),
});
/** One reporte3 row. */
export type FilaReporte3 = z.infer<typeof FilaReporte3Schema>;

/** GET /reportes/reporte3/{id}/: a plain list of rows. */
export const reporte3 = endpoint({
  method: 'GET',
  path: '/reportes/reporte3/:id/',
  acceso: 'lectura',
  etiqueta: 'reportes',
  resumen: "Respuestas por pregunta (alimenta 'Reporte 1')",
  params: IdParamsSchema,
  respuesta: z.array(FilaReporte3Schema),
});

/**
 * One row of reporte4 ('Reporte 2'): a recipient who answered the call (or at least one
 * question), resultado how it went ('Respondió todo', 'Respondió N de M', 'Colgó sin responder';
 * rules/alcance.ts), with reactivo_texto_N = the text of the answer chosen for question N ('' when
 * not answered; the pressed digit when it matches no answer).
 */
export const FilaReporte4Schema = z
  .object({
    nombre: z.string(),
    recibida: z.string(),
    telefono: z.string(),
    fecha_envio: z.string(),
    hora_envio: z.string(),
    resultado: z.string(),
  })
  .catchall(z.string());
/** One reporte4 row. */
export type FilaReporte4 = z.infer<typeof FilaReporte4Schema>;

/** GET /reportes/reporte4/{id}/: a plain list of rows (paged; total in X-Total-Count). */
export const reporte4 = endpoint({
  method: 'GET',
  path: '/reportes/reporte4/:id/',
  acceso: 'lectura',
  etiqueta: 'reportes',
  resumen: "Respuestas por destinatario (alimenta 'Reporte 2'; paginado)",
  params: IdParamsSchema,
  query: PaginaReporteSchema,
  respuesta: z.array(FilaReporte4Schema),
});

/** Per-light counts of a group of recipients. */
const ConteoGrupoSchema = z.object({
  total: z.number(),
  verde: z.number(),
  amarillo: z.number(),
  rojo: z.number(),
  cancelado: z.number(),
});

/** GET /reportes/resumen/{id}/: the dashboard summary. minuto is 'YYYY-MM-DD HH:mm' of sending. */
export const ResumenSchema = z.object({
  status: z.literal(200),
  ejercicio: EjercicioReporteSchema,
  semaforo: z.custom<Semaforo>(),
  recibidas: z.number(),
  porEstado: z.array(
    ConteoGrupoSchema.extend({ id_estado: z.number().nullable(), estado: z.string() }),
  ),
  porCategoria: z.array(
    ConteoGrupoSchema.extend({ id_categoria: z.number(), categoria: z.string() }),
  ),
  porMinuto: z.array(z.object({ minuto: z.string(), total: z.number(), recibidas: z.number() })),
});
/** The dashboard summary. */
export type Resumen = z.infer<typeof ResumenSchema>;

/** GET /reportes/resumen/{id}/ */
export const resumen = endpoint({
  method: 'GET',
  path: '/reportes/resumen/:id/',
  acceso: 'lectura',
  etiqueta: 'reportes',
  resumen: 'Resumen del ejercicio: totales, por estado, por categoría y por minuto',
  params: IdParamsSchema,
  respuesta: ResumenSchema,
});

/** What POST /csv/ can export. */
export const TIPOS_CSV = [
  'reporte',
  'reporte2',
  'reporte3',
  'reporte4',
  'resumen',
  'ejercicios',
] as const;

/** Body of POST /csv/: id_ejercicio is required for every tipo but 'ejercicios'. */
export const CsvSchema = z
  .object({
    tipo: z.enum(TIPOS_CSV),
    id_ejercicio: idSchema('id_ejercicio').optional(),
  })
  .superRefine((b, ctx) => {
    if (b.tipo !== 'ejercicios' && b.id_ejercicio === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['id_ejercicio'],
        message: msg('campoObligatorio', { campo: 'id_ejercicio' }),
      });
    }
  });

/** POST /csv/: streams the CSV (text/csv; charset=utf-8, with BOM and Content-Disposition). */
export const exportarCsv = endpoint({
  method: 'POST',
  path: '/csv/',
  acceso: 'lectura',
  etiqueta: 'reportes',
  resumen: 'Exporta un reporte como CSV (UTF-8 con BOM), transmitido por lotes',
  body: CsvSchema,
  respuesta: z.string(),
});
