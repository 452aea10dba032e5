import { TIPO_CUESTIONARIO } from '@pregon/contract/constants';
import {
  DialplanInvalido,
  IDIOMA_DEFECTO,
  dialplanLlamadas,
  dialplanQuiz,
  segundosLlamada,
} from '@pregon/contract/rules/dialplan';
import { error } from '../http/errores.ts';
import * as repoQuiz from '../repositories/quiz.ts';
import { llamadasVigentes } from '../repositories/telefonia.ts';
import { ejercicioOError, type CtxEjercicios } from './ejercicios.ts';

/** GET /call/extensions/: archivo_01, the contexts of every call exercise not yet completed, with
 * the prompts' language `idioma` (PBX_IDIOMA). */
export async function archivoLlamadas(
  ctx: CtxEjercicios,
  idioma: string = IDIOMA_DEFECTO,
): Promise<string> {
  const ejercicios = await llamadasVigentes(ctx.db.kysely);
  return dialplanLlamadas(
    ejercicios.map((e) => ({
      id_ejercicio: e.id_ejercicio,
      audio: e.accion,
      segundos: segundosLlamada(e.tiempo),
    })),
    { idioma },
  );
}

/**
 * GET /quiz/file/{id_ejercicio}/: the questionnaire's context (salida) and id_quiz (its
 * id_cuestionario). 409 naming the question when one has no valid audio or no answers.
 */
export async function archivoQuiz(
  ctx: CtxEjercicios,
  id_ejercicio: number,
  idioma: string = IDIOMA_DEFECTO,
): Promise<{ id_quiz: number; salida: string }> {
  const k = ctx.db.kysely;
  const e = await ejercicioOError(k, ctx, id_ejercicio);
  if (e.id_tipo_ejercicio !== TIPO_CUESTIONARIO)
    throw error(409, 'soloCuestionario', undefined, 'id_ejercicio');
  const c = await repoQuiz.cuestionarioDeEjercicio(k, id_ejercicio);
  if (!c) throw error(409, 'cuestionarioSinPreguntas');
  const [preguntas, respuestas] = await Promise.all([
    repoQuiz.preguntasDe(k, c.id_cuestionario),
    repoQuiz.respuestasDe(k, c.id_cuestionario),
  ]);
  return {
    id_quiz: c.id_cuestionario,
    salida: planQuiz(
      id_ejercicio,
      e.accion,
      preguntas.map((p) => ({
        numero: p.numero,
        audio: p.archivo,
        digitos: respuestas.filter((r) => r.id_pregunta === p.id_pregunta).map((r) => r.digito),
      })),
      idioma,
    ),
  };
}

/** The quiz context of exercise `id_ejercicio` (accion: its minutes) with these questions; 409
 * naming the question when one has no valid audio or no answers. */
export function planQuiz(
  id_ejercicio: number,
  accion: string,
  preguntas: { numero: number; audio: string; digitos: number[] }[],
  idioma: string = IDIOMA_DEFECTO,
): string {
  const minutos = Number(accion);
  try {
    return dialplanQuiz(
      {
        id_ejercicio,
        segundos: Number.isFinite(minutos) && minutos > 0 ? minutos * 60 : 60,
        preguntas,
      },
      { idioma },
    );
  } catch (err) {
    if (!(err instanceof DialplanInvalido)) throw err;
    if (err.motivo === 'audio') throw error(409, 'preguntaSinAudio', { N: err.numero ?? 0 });
    if (err.motivo === 'digitos') throw error(409, 'preguntaSinRespuestas', { N: err.numero ?? 0 });
    throw error(409, 'cuestionarioSinPreguntas');
  }
}
