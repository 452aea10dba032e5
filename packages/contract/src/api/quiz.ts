/**
 * Questionnaire calls of the main API (SPEC 3 and 7 "Quiz"; ARCHITECTURE 3).
 *
 * Wire decisions:
 * - GET /quiz/{id_ejercicio}/ answers a plain JSON list, as the SPEC reads it ("list of
 *   {reactivo_text, respuestas}"), not wrapped in {status, data}; [] when the exercise has no
 *   questionnaire yet. Each item also carries numero (slot 1..40), file (stored audio name) and
 *   id_cuestionario.
 * - POST /quiz/ creates the exercise's questionnaire, or replaces its questions (and so their
 *   answers) when one exists, keeping its id. Only type-4 exercises, and not once started.
 * - POST /quiz/digitos/fill/ checks that every question has at least one answer and returns the
 *   allowed digits of each question (what the dialplan's digit read accepts). It stores nothing:
 *   the digits are the answers' digits, so they cannot drift from them.
 */
import { z } from 'zod';
import { CuestionarioSlotsSchema, RespuestaCuestionarioSchema } from '../rules/questionnaire.ts';
import { idSchema } from '../zod-helpers.ts';
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
