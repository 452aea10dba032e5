import type { z } from 'zod';
import { MAX_RESPUESTAS, TIPO_CUESTIONARIO } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import {
  leerSlots,
  type CuestionarioSlotsSchema,
  type RespuestaCuestionario,
} from '@pregon/contract/rules/questionnaire';
import { ahora, esViolacionUnica } from '../db/database.ts';
import { error, noEncontrado } from '../http/errores.ts';
import { auditar } from '../repositories/auditoria.ts';
import * as repo from '../repositories/quiz.ts';
import type { Consultor, EjercicioCompleto } from '../repositories/ejercicios.ts';
import { ejercicioOError, type Actor, type CtxEjercicios } from './ejercicios.ts';

/** A questionnaire's questions may change only before its exercise starts (and only for type 4). */
function exigirEditable(e: EjercicioCompleto) {
  if (e.id_tipo_ejercicio !== TIPO_CUESTIONARIO)
    throw error(409, 'soloCuestionario', undefined, 'id_ejercicio');
  if (e.iniciado !== null || e.en_proceso || e.completado) throw error(409, 'cuestionarioEnUso');
}

/**
 * POST /quiz/: creates the exercise's questionnaire, or replaces its questions (and their
 * answers) keeping the same id_cuestionario. Each used slot N becomes question numero N.
 */
export async function guardar(
  ctx: CtxEjercicios,
  actor: Actor,
  cuerpo: z.output<typeof CuestionarioSlotsSchema>,
): Promise<{ id_cuestionario: number; preguntas: number }> {
  const usados = leerSlots(cuerpo);
  if (usados.length === 0) throw error(400, 'cuestionarioSinPreguntas', undefined, 'reactivo_01');
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const e = await ejercicioOError(trx, ctx, cuerpo.id_ejercicio, true);
    exigirEditable(e);
    const existente = await repo.cuestionarioDeEjercicio(trx, e.id_ejercicio);
    const id_cuestionario =
      existente?.id_cuestionario ?? (await repo.crearCuestionario(trx, e.id_ejercicio, ahora()));
    if (existente) await repo.borrarPreguntas(trx, id_cuestionario);
    await repo.insertarPreguntas(
      trx,
      id_cuestionario,
      usados.map((s) => ({ numero: Number(s.slot), reactivo: s.reactivo.trim(), archivo: s.file })),
    );
    await auditar(trx, actor, existente ? 'modificar' : 'crear', 'cuestionario', id_cuestionario, {
      id_ejercicio: e.id_ejercicio,
      preguntas: usados.length,
    });
    return { id_cuestionario, preguntas: usados.length };
  });
}

/** GET /quiz/{id_ejercicio}/: the questions with their answers ([] without a questionnaire). */
export async function leer(ctx: CtxEjercicios, id_ejercicio: number) {
  const k = ctx.db.kysely;
  await ejercicioOError(k, ctx, id_ejercicio);
  const c = await repo.cuestionarioDeEjercicio(k, id_ejercicio);
  if (!c) return [];
  const [preguntas, respuestas] = await Promise.all([
    repo.preguntasDe(k, c.id_cuestionario),
    repo.respuestasDe(k, c.id_cuestionario),
  ]);
  return preguntas.map((p) => ({
    reactivo_text: p.reactivo,
    respuestas: respuestas
      .filter((r) => r.id_pregunta === p.id_pregunta)
      .map((r) => ({ respuesta: r.respuesta, digito_respuesta: r.digito })),
    numero: p.numero,
    file: p.archivo,
    id_cuestionario: c.id_cuestionario,
  }));
}

async function cuestionarioEditable(k: Consultor, ctx: CtxEjercicios, id_cuestionario: number) {
  const c = await repo.obtenerCuestionario(k, id_cuestionario);
  if (!c) throw noEncontrado(`Cuestionario ${id_cuestionario}`);
  const e = await ejercicioOError(k, ctx, c.id_ejercicio, true);
  exigirEditable(e);
  return c;
}

/** POST /quiz/respuesta/: adds an answer; digit unique in its question, at most 10 answers. */
export async function agregarRespuesta(
  ctx: CtxEjercicios,
  actor: Actor,
  b: RespuestaCuestionario,
): Promise<number> {
  const numero = Number(b.reactivo.slice('reactivo_'.length));
  try {
    return await ctx.db.kysely.transaction().execute(async (trx) => {
      await cuestionarioEditable(trx, ctx, b.id_cuestionario);
      const p = await repo.preguntaPorNumero(trx, b.id_cuestionario, numero);
      if (!p) {
        throw error(
          404,
          'preguntaNoExiste',
          { reactivo: b.reactivo, id_cuestionario: b.id_cuestionario },
          'reactivo',
        );
      }
      const actuales = await repo.respuestasDePregunta(trx, p.id_pregunta);
      if (actuales.some((r) => r.digito === b.digito)) {
        throw error(409, 'digitoRepetido', { digito: b.digito, N: numero }, 'digito');
      }
      if (actuales.length >= MAX_RESPUESTAS)
        throw error(409, 'limiteRespuestas', undefined, 'respuesta');
      const id = await repo.insertarRespuesta(trx, {
        id_pregunta: p.id_pregunta,
        respuesta: b.respuesta.trim(),
        digito: b.digito,
      });
      await auditar(trx, actor, 'crear', 'respuesta', id, {
        id_cuestionario: b.id_cuestionario,
        numero,
      });
      return id;
    });
  } catch (err) {
    // Two concurrent requests for the same digit: the unique constraint decides.
    if (esViolacionUnica(err))
      throw error(409, 'digitoRepetido', { digito: b.digito, N: numero }, 'digito');
    throw err;
  }
}

/**
 * POST /quiz/digitos/fill/: checks that every question has at least one answer (409 'La pregunta
 * N no tiene respuestas' otherwise) and returns each question's allowed digits, which the
 * dialplan's digit read accepts. Nothing is stored: the digits are those of the answers.
 */
export async function llenarDigitos(ctx: CtxEjercicios, id_cuestionario: number) {
  const k = ctx.db.kysely;
  const c = await repo.obtenerCuestionario(k, id_cuestionario);
  if (!c) throw noEncontrado(`Cuestionario ${id_cuestionario}`);
  const [preguntas, respuestas] = await Promise.all([
    repo.preguntasDe(k, id_cuestionario),
    repo.respuestasDe(k, id_cuestionario),
  ]);
  if (preguntas.length === 0) throw error(409, 'cuestionarioSinPreguntas');
  const resultado = preguntas.map((p) => ({
    numero: p.numero,
    digitos: respuestas.filter((r) => r.id_pregunta === p.id_pregunta).map((r) => r.digito),
  }));
  const vacia = resultado.find((p) => p.digitos.length === 0);
  if (vacia) throw error(409, 'preguntaSinRespuestas', { N: vacia.numero });
  return { id_cuestionario, preguntas: resultado, mensaje: msg('exito') };
}
