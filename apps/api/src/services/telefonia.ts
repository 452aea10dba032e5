import { TIPO_CUESTIONARIO } from '@pregon/contract/constants';
import {
  DialplanInvalido,
  IDIOMA_DEFECTO,
  dialplanLlamadas,
  dialplanQuiz,
  segundosLlamada,
  segundosQuiz,
} from '@pregon/contract/rules/dialplan';
import { error } from '@pregon/servidor/http/errores';
import { audioEnPbx } from '@pregon/despacho';
import type { Contexto } from '../contexto.ts';
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
  try {
    return dialplanQuiz(
      {
        id_ejercicio,
        segundos: segundosQuiz(accion),
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

/** Lengths already read from the agent, by stored name: a stored name carries its content's hash,
 * so its length never changes (a name the agent lacks is not remembered). */
const duraciones = new Map<string, number>();

/**
 * GET /audio/duracion/?nombre= (issue 45.5): an audio's length in seconds. The one recorded when
 * an exercise playing it started (audios_ejercicio), else the agent's (HEAD, x-duracion-s: its
 * GSM file's frames × 20 ms), asked once per name and process; null when it cannot be known.
 */
export async function duracionAudio(
  ctx: Pick<Contexto, 'db' | 'config'>,
  nombre: string,
  token: string | undefined,
): Promise<number | null> {
  const conocida = duraciones.get(nombre);
  if (conocida !== undefined) return conocida;
  const fijada = await ctx.db.kysely
    .selectFrom('audios_ejercicio')
    .select('duracion_s')
    .where('nombre', '=', nombre)
    .limit(1)
    .executeTakeFirst();
  let duracion = fijada ? Number(fijada.duracion_s) : null;
  if (duracion === null && ctx.config.pbxBase) {
    const r = await audioEnPbx(ctx.config.pbxBase, ctx.config.pbx.software, nombre, {
      timeoutMs: ctx.config.comprobacionEquipoMs || 3000,
      token,
    });
    if (typeof r === 'object' && r.huella) duracion = r.huella.duracion_s;
  }
  if (duracion !== null) {
    if (duraciones.size >= 10_000) duraciones.clear();
    duraciones.set(nombre, duracion);
  }
  return duracion;
}
