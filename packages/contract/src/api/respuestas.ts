/**
 * Polls' answers, the triage of those who need help, and the inbox (issue 46.2 and 46.3).
 *
 * Wire decisions:
 * - A poll travels in the exercise's create/edit body as `encuesta` (EncuestaSchema, an object or
 *   its JSON text; '' or absent = none) and comes back in its list row with its question.
 * - A reply's classification is `{tipo, digito?, como?}` (rules/respuestas.ts), `como` 'manual'
 *   once an operator classified it.
 * - Cases: estado 'abierto' | 'atendiendo' | 'atendido'; taking one is atomic (409 'Atendiendo:
 *   {usuario}' for the second operator).
 */
import { z } from 'zod';
import { COMOS_RESPUESTA, TIPO_SMS, TIPO_WHATSAPP } from '../constants.ts';
import { msg } from '../messages.ts';
import { OpcionEncuestaSchema } from '../rules/respuestas.ts';
import { banderaSchema, enteroSchema, textoSchema, vacioComoAusente } from '../zod-helpers.ts';
import { IdParamsSchema, OkSchema } from './comun.ts';
import { ClasificacionManualSchema, EncuestaSchema, type Encuesta } from './encuestas.ts';
import { endpoint } from './endpoint.ts';

// ---------------------------------------------------------------- the poll of an exercise

/** The `encuesta` field of the exercise's create/edit body: an object or its JSON text; blank
 * or absent = no poll. */
export const EncuestaCampoSchema = vacioComoAusente(
  z
    .preprocess(
      (v) => {
        if (typeof v !== 'string') return v;
        try {
          return JSON.parse(v) as unknown;
        } catch {
          return v;
        }
      },
      z
        .custom<unknown>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
          error: msg('encuestaInvalida'),
        })
        .pipe(EncuestaSchema),
    )
    .optional(),
);

/** Where a create/edit body's poll does not fit its type: a call or a quiz has no poll, and the
 * instruction is appended only to an SMS (a WhatsApp exercise sends an approved template). */
export function erroresEncuesta(b: {
  tipo_ejercicio: number;
  encuesta?: Encuesta | undefined;
}): { campo: string; mensaje: string }[] {
  if (!b.encuesta) return [];
  if (b.tipo_ejercicio !== TIPO_SMS && b.tipo_ejercicio !== TIPO_WHATSAPP)
    return [{ campo: 'encuesta', mensaje: msg('encuestaSoloMensajes', { campo: 'encuesta' }) }];
  if (b.tipo_ejercicio === TIPO_WHATSAPP && b.encuesta.anexar_opciones)
    return [{ campo: 'encuesta', mensaje: msg('encuestaAnexarWhatsapp') }];
  return [];
}

/** A poll as an exercise's list row gives it back: the question as written, and the options. */
export const EncuestaLeidaSchema = z.object({
  pregunta: z.string(),
  opciones: z.array(z.custom<z.output<typeof OpcionEncuestaSchema>>()),
  anexar_opciones: z.boolean(),
});
/** A stored poll. */
export type EncuestaLeida = z.infer<typeof EncuestaLeidaSchema>;

// ---------------------------------------------------------------- classifications

/** A stored reply's classification on the wire (null: not read yet). */
export const ClasificacionSchema = z
  .object({
    tipo: z.enum(['opcion', 'baja', 'alta', 'no_reconocida']),
    digito: z.number().optional(),
    como: z.enum(COMOS_RESPUESTA).optional(),
  })
  .nullable();
/** One classification. */
export type Clasificacion = z.infer<typeof ClasificacionSchema>;

/** One stored reply as the lists show it. */
export const RespuestaFilaSchema = z.object({
  id_respuesta: z.number(),
  id_ejercicio: z.number().nullable(),
  id_detalle: z.number().nullable(),
  telefono: z.string().nullable(),
  remitente: z.string(),
  nombre: z.string().nullable(),
  canal: z.string(),
  id_equipo: z.number(),
  texto: z.string(),
  fecha_recibida: z.number(),
  clasificacion: ClasificacionSchema,
});
/** One reply row. */
export type RespuestaFila = z.infer<typeof RespuestaFilaSchema>;

// ---------------------------------------------------------------- answers of an exercise

/** GET /ejercicio/{id}/respuestas/: each option's count of people whose current answer it is,
 * its share of those reached, the reached who have not answered, and the unrecognised replies. */
export const respuestasEjercicio = endpoint({
  method: 'GET',
  path: '/ejercicio/:id/respuestas/',
  acceso: 'lectura',
  etiqueta: 'respuestas',
  resumen:
    'Respuestas de la encuesta: conteo por opción (y porcentaje de alcanzados), sin respuesta y no reconocidas',
  params: IdParamsSchema,
  respuesta: z.object({
    status: z.literal(200),
    /** Recipients reached (delivered, or sent when the gateway gives no receipt). */
    alcanzados: z.number(),
    /** Reached people whose current answer is an option. */
    respondieron: z.number(),
    /** Reached people with no answer that is an option. */
    sin_respuesta: z.number(),
    opciones: z.array(
      z.object({
        digito: z.number(),
        texto: z.string(),
        atencion: z.boolean(),
        total: z.number(),
        /** Share of the reached, 0 to 100 with one decimal. */
        porcentaje: z.number(),
      }),
    ),
    /** The latest unrecognised replies (at most 500, newest first)… */
    no_reconocidas: z.array(RespuestaFilaSchema),
    /** …and how many there are in all. */
    total_no_reconocidas: z.number(),
    /** Cases not yet attended (abierto or atendiendo). */
    casos_abiertos: z.number(),
  }),
});

// ---------------------------------------------------------------- cases

/** One case of the triage queue. */
export const CasoFilaSchema = z.object({
  id_caso: z.number(),
  id_ejercicio: z.number(),
  id_detalle: z.number(),
  id_respuesta: z.number().nullable(),
  nombre: z.string().nullable(),
  telefono: z.string(),
  /** The person's state (geographic) and categories. */
  estado: z.string().nullable(),
  categorias: z.string(),
  /** The option chosen, its text, and the reply's text and time (epoch ms). */
  digito: z.number(),
  opcion: z.string(),
  texto: z.string().nullable(),
  fecha: z.number().nullable(),
  /** 'abierto' | 'atendiendo' | 'atendido', and its label ('Abierto', 'Atendiendo: {usuario}',
   * 'Atendido'). */
  estado_caso: z.enum(['abierto', 'atendiendo', 'atendido']),
  etiqueta: z.string(),
  tomado_usuario: z.string().nullable(),
  nota: z.string().nullable(),
  abierto: z.number(),
  tomado: z.number().nullable(),
  cerrado: z.number().nullable(),
});
/** One case row. */
export type CasoFila = z.infer<typeof CasoFilaSchema>;

/** The poll's part of the exercise dashboard (GET /tablero/ejercicio/{id}/ and its live stream):
 * counts per option, unanswered, unrecognised, the pending cases (newest first, the first 50)
 * and until when the poll takes answers (epoch ms). */
export const ResumenEncuestaTableroSchema = z.object({
  alcanzados: z.number(),
  respondieron: z.number(),
  sin_respuesta: z.number(),
  opciones: z.array(
    z.object({
      digito: z.number(),
      texto: z.string(),
      atencion: z.boolean(),
      total: z.number(),
      porcentaje: z.number(),
    }),
  ),
  no_reconocidas: z.number(),
  casos_abiertos: z.number(),
  casos: z.array(CasoFilaSchema),
  abierta_hasta: z.number(),
});
/** The poll's dashboard part. */
export type ResumenEncuestaTablero = z.infer<typeof ResumenEncuestaTableroSchema>;

/** GET /ejercicio/{id}/casos/: the triage queue, newest first (attended ones last). */
export const casosEjercicio = endpoint({
  method: 'GET',
  path: '/ejercicio/:id/casos/',
  acceso: 'lectura',
  etiqueta: 'respuestas',
  resumen: 'Casos que requieren atención (los más recientes primero)',
  params: IdParamsSchema,
  respuesta: z.object({ status: z.literal(200), data: z.array(CasoFilaSchema) }),
});

/** POST /casos/{id}/tomar/: takes an open case ('Atendiendo: {usuario}'); 409 naming whoever
 * took it first. */
export const tomarCaso = endpoint({
  method: 'POST',
  path: '/casos/:id/tomar/',
  acceso: 'escritura',
  etiqueta: 'respuestas',
  resumen: 'Toma un caso (409 si otro operador ya lo atiende)',
  params: IdParamsSchema,
  respuesta: z.object({ status: z.literal(200), mensaje: z.string(), caso: CasoFilaSchema }),
});

/** Body of POST /casos/{id}/nota/ and (optional) /cerrar/. */
export const NotaCasoSchema = z.object({
  nota: textoSchema('nota', { min: 1, max: 2000 }).transform((t) => t.trim()),
});

/** POST /casos/{id}/nota/: the note of a case its operator attends. */
export const notaCaso = endpoint({
  method: 'POST',
  path: '/casos/:id/nota/',
  acceso: 'escritura',
  etiqueta: 'respuestas',
  resumen: 'Agrega la nota de un caso que usted atiende',
  params: IdParamsSchema,
  body: NotaCasoSchema,
  respuesta: z.object({ status: z.literal(200), mensaje: z.string(), caso: CasoFilaSchema }),
});

/** Body of POST /casos/{id}/cerrar/: an optional last note. */
export const CerrarCasoSchema = z.object({
  nota: vacioComoAusente(
    textoSchema('nota', { min: 1, max: 2000 })
      .transform((t) => t.trim())
      .optional(),
  ),
});

/** POST /casos/{id}/cerrar/: 'Atendido' (an open case, or one the caller attends). */
export const cerrarCaso = endpoint({
  method: 'POST',
  path: '/casos/:id/cerrar/',
  acceso: 'escritura',
  etiqueta: 'respuestas',
  resumen: 'Cierra un caso (Atendido)',
  params: IdParamsSchema,
  body: CerrarCasoSchema,
  respuesta: z.object({ status: z.literal(200), mensaje: z.string(), caso: CasoFilaSchema }),
});

// ---------------------------------------------------------------- replies

/** POST /respuestas/{id}/clasificar/: an operator reads an unrecognised reply as an option. */
export const clasificarRespuestaManual = endpoint({
  method: 'POST',
  path: '/respuestas/:id/clasificar/',
  acceso: 'escritura',
  etiqueta: 'respuestas',
  resumen: 'Clasifica a mano una respuesta no reconocida',
  params: IdParamsSchema,
  body: ClasificacionManualSchema,
  respuesta: OkSchema.extend({ respuesta: RespuestaFilaSchema, caso_abierto: z.boolean() }),
});

/** `?limit=&offset=` of the inbox; `incluir_no_reconocidas=1` also lists the replies of a poll
 * read as 'Respuesta no reconocida' (the replies screen, issue 46.3), with the counts of each
 * kind and what classifying them by hand needs (each poll's options, each device's alias). */
export const PaginaBandejaSchema = z.object({
  limit: enteroSchema('limit', 1, 1000).default(200),
  offset: enteroSchema('offset', 0).default(0),
  incluir_no_reconocidas: banderaSchema('incluir_no_reconocidas'),
});

/** GET /respuestas/bandeja/: replies that belong to no poll (unknown numbers, late or
 * unsolicited replies), newest first. */
export const bandejaRespuestas = endpoint({
  method: 'GET',
  path: '/respuestas/bandeja/',
  acceso: 'lectura',
  etiqueta: 'respuestas',
  resumen: 'Bandeja de respuestas sin encuesta (las más recientes primero)',
  query: PaginaBandejaSchema,
  respuesta: z.object({
    status: z.literal(200),
    total: z.number(),
    data: z.array(RespuestaFilaSchema),
    /** With incluir_no_reconocidas: how many replies belong to no poll, and how many of a poll
     * are unrecognised (together, total). */
    sin_encuesta: z.number().optional(),
    no_reconocidas: z.number().optional(),
    /** With incluir_no_reconocidas: the polls of the page's rows (title and options), and the
     * aliases of their devices. */
    encuestas: z
      .array(
        z.object({
          id_ejercicio: z.number(),
          ejercicio: z.string(),
          opciones: z.array(z.object({ digito: z.number(), texto: z.string() })),
        }),
      )
      .optional(),
    equipos: z.array(z.object({ id_equipo: z.number(), alias: z.string() })).optional(),
  }),
});
