/**
 * Questionnaire rules (SPEC 2 'Crear cuestionario', SPEC 3, 4 "Saving a questionnaire", 5, 9):
 * validation, answer digits, limits, and the 40-slot wire form with its schemas.
 */
import { z } from 'zod';
import {
  DIGITOS,
  EXTENSION_AUDIO,
  MAX_PREGUNTAS,
  MAX_RESPUESTAS,
  SLOTS_CUESTIONARIO,
} from '../constants.ts';
import { msg } from '../messages.ts';
import { enteroSchema, idSchema, textoSchema } from '../zod-helpers.ts';

/** One answer of a question as the dialog edits it; digito is null until chosen. */
export interface RespuestaPregunta {
  respuesta: string;
  digito: number | null;
}

/** One question as the dialog edits it; audio is the chosen file's name, extension included. */
export interface Pregunta {
  texto: string;
  audio: string | null;
  respuestas: RespuestaPregunta[];
}

type Cifra = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
/** A slot number with 2-digit zero padding, '01' to '40'. */
export type Slot = `0${Exclude<Cifra, '0'>}` | `${'1' | '2' | '3'}${Cifra}` | '40';
/** Name of a question-text slot, 'reactivo_01' to 'reactivo_40'. */
export type ClaveReactivo = `reactivo_${Slot}`;
/** Name of an audio slot, 'file_01' to 'file_40'. */
export type ClaveFile = `file_${Slot}`;

/** The 40-slot wire form of POST /quiz/: unused slots are ''. */
export type CuestionarioSlots = { id_ejercicio: number } & Record<ClaveFile, string> &
  Record<ClaveReactivo, string>;

/** The 40 slot numbers in order, '01' to '40'. */
export const SLOTS = Array.from({ length: SLOTS_CUESTIONARIO }, (_, i) =>
  String(i + 1).padStart(2, '0'),
) as readonly Slot[];

/** Longest question text accepted in a reactivo slot. */
export const MAX_LARGO_REACTIVO = 500;
/** Longest answer text accepted. */
export const MAX_LARGO_RESPUESTA = 200;
/** Longest audio name the telephony agent accepts (ARCHITECTURE 6). */
export const MAX_LARGO_AUDIO = 64;
/** Audio names the telephony agent accepts: no path can escape its sounds folder. */
export const PATRON_NOMBRE_AUDIO = /^[A-Za-z0-9_-]{1,64}$/;
/** Slot name pattern of an answer's reactivo field. */
export const PATRON_REACTIVO = /^reactivo_(0[1-9]|[1-3][0-9]|40)$/;

const slotDe = (n: number): Slot => {
  if (!Number.isInteger(n) || n < 1 || n > SLOTS_CUESTIONARIO) {
    throw new RangeError(`Slot ${n} fuera de rango: use de 1 a ${SLOTS_CUESTIONARIO}`);
  }
  return String(n).padStart(2, '0') as Slot;
};

/** Question-text slot of question n (1-based): 3 → 'reactivo_03'; throws outside 1..40. */
export function slotReactivo(n: number): ClaveReactivo {
  return `reactivo_${slotDe(n)}`;
}

/** Audio slot of question n (1-based): 3 → 'file_03'; throws outside 1..40. */
export function slotFile(n: number): ClaveFile {
  return `file_${slotDe(n)}`;
}

/** Whether a file name is a .GSM audio: it ends in .gsm (any case) after a non-empty name. */
export function esAudioGsm(nombre: string | null | undefined): boolean {
  const n = (nombre ?? '').trim();
  return n.length > EXTENSION_AUDIO.length && n.toLowerCase().endsWith(EXTENSION_AUDIO);
}

/** The stored audio name: the file name minus its last 4 characters (SPEC 4 and 9). */
export function nombreAudio(nombre: string): string {
  return nombre.slice(0, Math.max(0, nombre.length - 4));
}

/**
 * The audio name as the telephony agent stores it: `nombreAudio`, with accents dropped and any
 * character outside [A-Za-z0-9_-] turned into '_', cut to 64. Web (upload filename), api and pbx
 * use it alike so a questionnaire's file slots name exactly the uploaded files.
 */
export function nombreAudioPbx(nombre: string): string {
  return nombreAudio(nombre)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, MAX_LARGO_AUDIO);
}

/** Digits an answer may choose: 1 to 9 minus those used by the other answers of the question. */
export function digitosDisponibles(
  respuestas: readonly { digito: number | null }[],
  editandoIndice?: number,
): number[] {
  const usados = new Set(respuestas.filter((_, i) => i !== editandoIndice).map((r) => r.digito));
  return DIGITOS.filter((d) => !usados.has(d));
}

/** Whether one more question fits, given how many there are (limit 40). */
export function puedeAgregarPregunta(n: number): boolean {
  return n < MAX_PREGUNTAS;
}

/**
 * Whether an exercise's questionnaire may still be changed in place (issue 26.1): not while it
 * runs or is paused (en_proceso '1'), nor once completed or stopped (completado '1'). The api
 * also refuses once it has started at all (409), which the list's flags may not show yet.
 */
export function cuestionarioEditable(e: { en_proceso: string; completado: string }): boolean {
  return e.en_proceso !== '1' && e.completado !== '1';
}

/** Whether one more answer fits in a question, given how many it has (limit 10). */
export function puedeAgregarRespuesta(n: number): boolean {
  return n < MAX_RESPUESTAS;
}

const esDigito = (d: number | null): boolean =>
  d !== null && (DIGITOS as readonly number[]).includes(d);

/**
 * First problem of question number n (1-based), or null. Order of SPEC 5: text, audio, answers,
 * incomplete answers; then the limits Pregón also checks (10 answers, unique digits).
 */
export function validarPregunta(p: Pregunta, n: number): string | null {
  if (p.texto.trim() === '') return msg('preguntaVacia', { N: n });
  if (!esAudioGsm(p.audio)) return msg('preguntaSinAudio', { N: n });
  if (p.respuestas.length === 0) return msg('preguntaSinRespuestas', { N: n });
  if (p.respuestas.some((r) => r.respuesta.trim() === '' || !esDigito(r.digito))) {
    return msg('respuestasIncompletas', { N: n });
  }
  if (p.respuestas.length > MAX_RESPUESTAS) return msg('limiteRespuestas');
  const vistos = new Set<number | null>();
  for (const r of p.respuestas) {
    if (vistos.has(r.digito)) return msg('digitoRepetido', { digito: r.digito ?? '', N: n });
    vistos.add(r.digito);
  }
  return null;
}

/**
 * First message that blocks saving a questionnaire, or null when it can be saved: 'Falta
 * id_ejercicio', then each question in order (see `validarPregunta`). An empty questionnaire and
 * more than 40 questions are refused too.
 */
export function validarCuestionario(
  id_ejercicio: number | string | null | undefined,
  preguntas: readonly Pregunta[],
): string | null {
  const idNum = Number(id_ejercicio);
  if (id_ejercicio === null || id_ejercicio === undefined || String(id_ejercicio).trim() === '') {
    return msg('faltaIdEjercicio');
  }
  if (!Number.isInteger(idNum) || idNum < 1) return msg('faltaIdEjercicio');
  if (preguntas.length === 0) return msg('cuestionarioSinPreguntas');
  if (preguntas.length > MAX_PREGUNTAS) return msg('limitePreguntas');
  for (const [i, p] of preguntas.entries()) {
    const error = validarPregunta(p, i + 1);
    if (error) return error;
  }
  return null;
}

/** Serialises questions into the 40-slot body of POST /quiz/ (audio names via `nombreAudioPbx`). */
export function slotsCuestionario(
  id_ejercicio: number,
  preguntas: readonly Pregunta[],
): CuestionarioSlots {
  if (preguntas.length > MAX_PREGUNTAS) throw new RangeError(msg('limitePreguntas'));
  const cuerpo: Record<string, string | number> = { id_ejercicio };
  SLOTS.forEach((slot, i) => {
    const p = preguntas[i];
    cuerpo[`file_${slot}`] = p?.audio ? nombreAudioPbx(p.audio) : '';
    cuerpo[`reactivo_${slot}`] = p?.texto ?? '';
  });
  return cuerpo as CuestionarioSlots;
}

/** One used slot of a 40-slot form. */
export interface SlotUsado {
  slot: Slot;
  file: string;
  reactivo: string;
}

/** The used slots of a 40-slot form, in order; a slot is used when its file or text is not empty. */
export function leerSlots(obj: Readonly<Record<string, unknown>>): SlotUsado[] {
  const texto = (v: unknown): string => (typeof v === 'string' ? v : '');
  return SLOTS.map((slot) => ({
    slot,
    file: texto(obj[`file_${slot}`]),
    reactivo: texto(obj[`reactivo_${slot}`]),
  })).filter((s) => s.file !== '' || s.reactivo !== '');
}

/** A question as GET /quiz/{id_ejercicio}/ returns it; `file` is Pregón's addition. */
export interface PreguntaLeida {
  reactivo_text: string;
  respuestas: readonly { respuesta: string; digito_respuesta: number | string | null }[];
  /** Stored audio name (without extension), when the server sends it. */
  file?: string | null;
}

/**
 * Questions read back from the server, as the dialog edits them (clone and edit flows). A stored
 * audio comes back as '<file>.gsm' so it validates and serialises to the same name; without it
 * the question needs a new upload.
 */
export function desdeLectura(lista: readonly PreguntaLeida[]): Pregunta[] {
  return lista.map((q) => ({
    texto: q.reactivo_text ?? '',
    audio: q.file ? `${q.file}${EXTENSION_AUDIO}` : null,
    respuestas: (q.respuestas ?? []).map((r) => {
      const d = Number(r.digito_respuesta);
      return { respuesta: r.respuesta ?? '', digito: esDigito(d) ? d : null };
    }),
  }));
}

const fileSlotSchema = (clave: string) =>
  textoSchema(clave, { max: MAX_LARGO_AUDIO })
    .regex(/^[A-Za-z0-9_-]*$/, msg('nombreArchivoInvalido'))
    .default('');
const reactivoSlotSchema = (clave: string) =>
  textoSchema(clave, { max: MAX_LARGO_REACTIVO }).default('');

const formaSlots = Object.fromEntries(
  SLOTS.flatMap((slot) => [
    [`file_${slot}`, fileSlotSchema(`file_${slot}`)],
    [`reactivo_${slot}`, reactivoSlotSchema(`reactivo_${slot}`)],
  ]),
) as Record<ClaveFile | ClaveReactivo, ReturnType<typeof fileSlotSchema>>;

/**
 * Body of POST /quiz/: id_ejercicio and the 80 slot fields (missing slots read as ''). A slot with
 * text needs its audio and the other way round.
 */
export const CuestionarioSlotsSchema = z
  .object({ id_ejercicio: idSchema('id_ejercicio', msg('faltaIdEjercicio')), ...formaSlots })
  .superRefine((cuerpo, ctx) => {
    SLOTS.forEach((slot, i) => {
      const file = cuerpo[`file_${slot}`];
      const reactivo = cuerpo[`reactivo_${slot}`];
      if (reactivo.trim() !== '' && file === '') {
        ctx.addIssue({
          code: 'custom',
          path: [`file_${slot}`],
          message: msg('preguntaSinAudio', { N: i + 1 }),
        });
      }
      if (file !== '' && reactivo.trim() === '') {
        ctx.addIssue({
          code: 'custom',
          path: [`reactivo_${slot}`],
          message: msg('preguntaVacia', { N: i + 1 }),
        });
      }
    });
  });

/** Body of POST /quiz/respuesta/: one answer of one question slot. */
export const RespuestaCuestionarioSchema = z.object({
  id_cuestionario: idSchema('id_cuestionario'),
  reactivo: z
    .string({ error: msg('campoTexto', { campo: 'reactivo' }) })
    .regex(
      PATRON_REACTIVO,
      msg('campoFormato', { campo: 'reactivo', formato: 'reactivo_01 … reactivo_40' }),
    ),
  respuesta: textoSchema('respuesta', { min: 1, max: MAX_LARGO_RESPUESTA }),
  digito: enteroSchema('digito', 1, 9),
});

/** A validated answer body. */
export type RespuestaCuestionario = z.infer<typeof RespuestaCuestionarioSchema>;
