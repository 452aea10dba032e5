/**
 * Questionnaire calls of the main API (SPEC 3 and 7 "Quiz"; ARCHITECTURE 3).
 *
 * Wire decisions:
 * - GET /quiz/{id_ejercicio}/ answers a plain JSON list, as the SPEC reads it ("list of
 *   {reactivo_text, respuestas}"), not wrapped in {status, data}; [] when the exercise has no
 *   questionnaire yet. Each item also carries numero (slot 1..40), file (stored audio name),
 *   id_cuestionario, and version (issue 48.3: what the dialog's save sends back).
 * - POST /quiz/ creates the exercise's questionnaire, or replaces its questions (and so their
 *   answers) when one exists, keeping its id. Only type-4 exercises, and not once started.
 * - POST /quiz/digitos/fill/ checks that every question has at least one answer and returns the
 *   allowed digits of each question (what the dialplan's digit read accepts). It stores nothing:
 *   the digits are the answers' digits, so they cannot drift from them.
 * - PUT /quiz/completo/ (issue 26.2) saves a whole questionnaire at once: questions, answers and
 *   audio names in one transaction, after the api checked that each audio is on the telephony
 *   agent and the agent accepted the questionnaire's dialplan; on any failure nothing changes.
 *   Creates the questionnaire or replaces it in place (same id_cuestionario) before the start.
 */
import { z } from 'zod';
import { MAX_PREGUNTAS, MAX_RESPUESTAS } from '../constants.ts';
import { msg } from '../messages.ts';
import {
  CuestionarioSlotsSchema,
  MAX_LARGO_AUDIO,
  MAX_LARGO_REACTIVO,
  MAX_LARGO_RESPUESTA,
  RespuestaCuestionarioSchema,
} from '../rules/questionnaire.ts';
import {
  enteroSchema,
  ID_MAXIMO,
  idSchema,
  textoSchema,
  vacioComoAusente,
} from '../zod-helpers.ts';
import { IdEjercicioParamsSchema } from './comun.ts';
import { endpoint } from './endpoint.ts';

/** POST /quiz/: the 40-slot body → {status: 200, id_cuestionario}. */
export const guardarCuestionario = endpoint({
  method: 'POST',
  path: '/quiz/',
  acceso: 'escritura',
  etiqueta: 'cuestionarios',
  resumen: 'Crea el cuestionario del ejercicio o reemplaza sus preguntas (40 espacios)',
  body: CuestionarioSlotsSchema,
  respuesta: z.object({
    status: z.literal(200),
    id_cuestionario: z.number(),
    preguntas: z.number(),
    mensaje: z.string(),
  }),
});

/** One question as GET /quiz/{id_ejercicio}/ reads it back. */
export const PreguntaLeidaSchema = z.object({
  reactivo_text: z.string(),
  respuestas: z.array(z.object({ respuesta: z.string(), digito_respuesta: z.number() })),
  numero: z.number(),
  file: z.string(),
  id_cuestionario: z.number(),
  /** Issue 48.3: the questionnaire's version, which the dialog's save sends back. */
  version: z.number(),
});

/** GET /quiz/{id_ejercicio}/: the questions, as a plain list. */
export const leerCuestionario = endpoint({
  method: 'GET',
  path: '/quiz/:id_ejercicio/',
  acceso: 'lectura',
  etiqueta: 'cuestionarios',
  resumen: 'Preguntas y respuestas del cuestionario del ejercicio',
  params: IdEjercicioParamsSchema,
  respuesta: z.array(PreguntaLeidaSchema),
});

/** POST /quiz/respuesta/: adds one answer (digit unique in the question, at most 10). */
export const agregarRespuesta = endpoint({
  method: 'POST',
  path: '/quiz/respuesta/',
  acceso: 'escritura',
  etiqueta: 'cuestionarios',
  resumen: 'Agrega una respuesta a una pregunta del cuestionario',
  body: RespuestaCuestionarioSchema,
  respuesta: z.object({ status: z.literal(200), id_respuesta: z.number(), mensaje: z.string() }),
});

/** Body of POST /quiz/digitos/fill/. */
export const LlenarDigitosSchema = z.object({ id_cuestionario: idSchema('id_cuestionario') });

/** POST /quiz/digitos/fill/: verifies answers and returns the allowed digits per question. */
export const llenarDigitos = endpoint({
  method: 'POST',
  path: '/quiz/digitos/fill/',
  acceso: 'escritura',
  etiqueta: 'cuestionarios',
  resumen: 'Verifica que cada pregunta tenga respuestas y devuelve sus dígitos permitidos',
  body: LlenarDigitosSchema,
  respuesta: z.object({
    status: z.literal(200),
    id_cuestionario: z.number(),
    preguntas: z.array(z.object({ numero: z.number(), digitos: z.array(z.number()) })),
  }),
});

/** One answer of PUT /quiz/completo/. */
export const RespuestaCompletaSchema = z.object({
  respuesta: textoSchema('Respuesta', { max: MAX_LARGO_RESPUESTA }),
  digito: enteroSchema('Dígito', 1, 9),
});

/** One question of PUT /quiz/completo/: its text, the stored audio name the telephony agent
 * returned (without .gsm) and its answers. Emptiness, repeated digits and the like are checked by
 * the api with the dialog's messages, naming the question. */
export const PreguntaCompletaSchema = z.object({
  reactivo: textoSchema('Pregunta', { max: MAX_LARGO_REACTIVO }),
  file: textoSchema('Archivo de audio (.GSM)', { max: MAX_LARGO_AUDIO }).regex(
    /^[A-Za-z0-9_-]*$/,
    msg('nombreArchivoInvalido'),
  ),
  respuestas: z
    .array(RespuestaCompletaSchema, {
      error: msg('listaMuyLarga', { campo: 'respuestas', max: MAX_RESPUESTAS }),
    })
    .max(MAX_RESPUESTAS, msg('limiteRespuestas')),
});

/** Body of PUT /quiz/completo/: the exercise and its questions in order (1 to 40). */
export const CuestionarioCompletoSchema = z.object({
  id_ejercicio: idSchema('id_ejercicio', msg('faltaIdEjercicio')),
  preguntas: z
    .array(PreguntaCompletaSchema, { error: msg('cuestionarioSinPreguntas') })
    .max(MAX_PREGUNTAS, msg('limitePreguntas')),
  /** Issue 48.3: the version the dialog loaded, 0 for an exercise without questionnaire (absent:
   * saved unchecked); a stale one is refused with 409. */
  version: vacioComoAusente(enteroSchema('version', 0, ID_MAXIMO).optional()),
});

/** A validated PUT /quiz/completo/ body. */
export type CuestionarioCompleto = z.infer<typeof CuestionarioCompletoSchema>;

/**
 * PUT /quiz/completo/: the whole questionnaire in one call, all or nothing. `plan` is the signed
 * dialplan of the saved questionnaire; `escrito` tells whether the api already wrote it to the
 * telephony agent (it does when it knows the agent, PBX_BASE); otherwise the caller writes it
 * (PUT /quizzes/extensions/{id_quiz}/ on the telephony base).
 */
export const guardarCuestionarioCompleto = endpoint({
  method: 'PUT',
  path: '/quiz/completo/',
  acceso: 'escritura',
  etiqueta: 'cuestionarios',
  resumen:
    'Guarda el cuestionario completo (preguntas, respuestas y audios) en una transacción: todo o nada',
  body: CuestionarioCompletoSchema,
  respuesta: z.object({
    status: z.literal(200),
    id_cuestionario: z.number(),
    preguntas: z.number(),
    /** Whether it replaced an existing questionnaire (edit in place). */
    modificado: z.boolean(),
    plan: z.object({
      id_quiz: z.number(),
      contenido: z.string(),
      firma: z.string(),
      escrito: z.boolean(),
    }),
    mensaje: z.string(),
  }),
});
