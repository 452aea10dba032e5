import type { z } from 'zod';
import { escribirExtensionesQuiz } from '@pregon/contract/api/pbx';
import { rellenarRuta } from '@pregon/contract/api/endpoint';
import type { CuestionarioCompleto } from '@pregon/contract/api/quiz';
import { EXTENSION_AUDIO, MAX_RESPUESTAS, TIPO_CUESTIONARIO } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { mensajeDeRespuesta } from '@pregon/contract/rules/session';
import {
  leerSlots,
  validarPregunta,
  type CuestionarioSlotsSchema,
  type RespuestaCuestionario,
} from '@pregon/contract/rules/questionnaire';
import { archivoDialplanQuiz } from '@pregon/contract/rules/dialplan';
import { ahora, esViolacionUnica } from '@pregon/db/database';
import { audioEnPbx } from '@pregon/despacho';
import { error, HttpError, noEncontrado } from '@pregon/servidor/http/errores';
import { auditar } from '../repositories/auditoria.ts';
import { exigirVersion, tomarVersion } from '../repositories/versiones.ts';
import * as repo from '../repositories/quiz.ts';
import type { Consultor, EjercicioCompleto } from '../repositories/ejercicios.ts';
import { ejercicioOError, type Actor, type CtxEjercicios } from './ejercicios.ts';
import { archivoQuiz, planQuiz } from './telefonia.ts';

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
    // Issue 48.3: the SPEC's step save sends no version, but a dialog opened before is now stale.
    await tomarVersion(trx, 'cuestionarios', id_cuestionario, undefined, actor);
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
    version: c.version,
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
      await tomarVersion(trx, 'cuestionarios', b.id_cuestionario, undefined, actor);
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

// ------------------------------------------------------------ PUT /quiz/completo/ (issue 26.2)

/** What the whole-questionnaire save needs of the telephony agent: its base URL (PBX_BASE; unset:
 * the agent is not asked and the caller writes the dialplan), its software's path segment, the
 * caller's token to ask it with, how long to wait, the prompts' language, and the dialplan
 * signer (the api's private key). */
export interface AgenteCuestionario {
  base?: string;
  software: string;
  token?: string;
  timeoutMs: number;
  idioma: string;
  firmar: (archivo: string, contenido: string) => Promise<string>;
}

/** The saved questionnaire: its id, how many questions, whether it replaced one, its plan. */
export interface CuestionarioGuardado {
  id_cuestionario: number;
  preguntas: number;
  modificado: boolean;
  plan: { id_quiz: number; contenido: string; firma: string; escrito: boolean };
}

/** Saves of one exercise run one after the other in this process: the agent's file and the
 * database then hold the same questionnaire whatever the order two operators pressed Guardar. */
const enCurso = new Map<number, Promise<unknown>>();
function enSerie<T>(id: number, tarea: () => Promise<T>): Promise<T> {
  const antes = enCurso.get(id) ?? Promise.resolve();
  const esta = antes.then(tarea, tarea);
  const cola = esta.catch(() => undefined);
  enCurso.set(id, cola);
  void cola.then(() => {
    if (enCurso.get(id) === cola) enCurso.delete(id);
  });
  return esta;
}

/** The first problem of the questions, with the dialog's own messages, naming the question. */
function exigirValido(cuerpo: CuestionarioCompleto) {
  if (cuerpo.preguntas.length === 0)
    throw error(400, 'cuestionarioSinPreguntas', undefined, 'preguntas');
  for (const [i, p] of cuerpo.preguntas.entries()) {
    const problema = validarPregunta(
      {
        texto: p.reactivo,
        audio: p.file ? `${p.file}${EXTENSION_AUDIO}` : null,
        respuestas: p.respuestas,
      },
      i + 1,
    );
    if (problema) throw new HttpError(400, problema, `preguntas.${i}`);
  }
}

/**
 * Issue 48.3: the version a whole-questionnaire save is checked against. The dialog sends the
 * version it loaded, 0 when the exercise had no questionnaire yet: 0 still matches a questionnaire
 * without questions (the empty row a save creates before writing the agent's plan), so that case
 * is saved unchecked; any questions saved meanwhile make it stale (versions start at 1).
 */
async function versionEsperada(k: Consultor, id_cuestionario: number, version: number | undefined) {
  if (version !== 0) return version;
  return (await repo.preguntasDe(k, id_cuestionario)).length > 0 ? 0 : undefined;
}

/** Before the start only: the clear 409 of an edit refused (issue 26.1). */
function exigirEditableCompleto(e: EjercicioCompleto) {
  if (e.id_tipo_ejercicio !== TIPO_CUESTIONARIO)
    throw error(409, 'soloCuestionario', undefined, 'id_ejercicio');
  if (e.iniciado !== null || e.en_proceso || e.completado)
    throw error(409, 'cuestionarioIniciado', { ejercicio: e.titulo });
}

/** Why the agent could not be reached, as a 502 naming it and its address. */
const agenteCaido = (base: string, motivo: string) =>
  error(502, 'agenteTelefoniaNoResponde', { url: base, detalle: motivo ? ` (${motivo})` : '' });

/** PUT {base}/quizzes/extensions/{id_quiz}/ {contenido, firma} with the caller's token. */
const escribirPlan = (
  agente: AgenteCuestionario & { base: string },
  id_quiz: number,
  contenido: string,
  firma: string,
) =>
  escribirEnAgente(
    agente,
    rellenarRuta(escribirExtensionesQuiz.path, { id_quiz }),
    contenido,
    firma,
  );

/** PUT {base}{ruta} {contenido, firma} with the caller's token: a dialplan file the api rendered
 * and signed (a quiz's, or the calls' pregon-llamadas.conf). A 502 naming the agent when it does
 * not answer or refuses. */
export async function escribirEnAgente(
  agente: Pick<AgenteCuestionario, 'token' | 'timeoutMs'> & { base: string },
  ruta: string,
  contenido: string,
  firma: string,
) {
  const url = agente.base.replace(/\/+$/, '') + ruta;
  let r: Response;
  try {
    r = await fetch(url, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        ...(agente.token ? { authorization: agente.token } : {}),
      },
      body: JSON.stringify({ contenido, firma }),
      // Writing also reloads Asterisk: more time than a HEAD.
      signal: AbortSignal.timeout(Math.max(agente.timeoutMs, 10_000)),
    });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    throw agenteCaido(
      agente.base,
      err.name === 'TimeoutError'
        ? `sin respuesta en ${Math.max(agente.timeoutMs, 10_000)} ms`
        : (err.cause?.code ?? err.message),
    );
  }
  const texto = await r.text();
  if (r.ok) return;
  let cuerpo: unknown = texto;
  try {
    cuerpo = JSON.parse(texto);
  } catch {
    // not JSON: the status says it
  }
  const detalle =
    typeof cuerpo === 'object' && cuerpo ? mensajeDeRespuesta(cuerpo) : `HTTP ${r.status}`;
  throw error(502, 'agenteTelefoniaRechazo', { url: agente.base, detalle });
}

/**
 * PUT /quiz/completo/: the whole questionnaire, all or nothing (issue 26.2). In order, each step
 * able to refuse with nothing changed: (1) the questions are checked with the dialog's messages;
 * (2) the exercise must be a quiz not yet started; (3) every audio must be on the telephony agent
 * (HEAD), a 502 naming the agent and its address when it does not answer; (4) the agent must
 * accept the dialplan rendered from these very questions; (5) one transaction replaces the
 * questions and answers (or creates the questionnaire) and audits it. A new questionnaire's row is
 * created empty before (4), since the agent's file is named by its id; an empty questionnaire reads
 * as none (GET answers []) and is deleted again on any later failure. Should (5) fail after (4),
 * the agent is given back the previous questionnaire's plan.
 */
export function guardarCompleto(
  ctx: CtxEjercicios,
  actor: Actor,
  cuerpo: CuestionarioCompleto,
  agente: AgenteCuestionario,
): Promise<CuestionarioGuardado> {
  exigirValido(cuerpo);
  return enSerie(cuerpo.id_ejercicio, () => guardarCompletoEnSerie(ctx, actor, cuerpo, agente));
}

async function guardarCompletoEnSerie(
  ctx: CtxEjercicios,
  actor: Actor,
  cuerpo: CuestionarioCompleto,
  agente: AgenteCuestionario,
): Promise<CuestionarioGuardado> {
  const k = ctx.db.kysely;
  const id_ejercicio = cuerpo.id_ejercicio;
  const e = await ejercicioOError(k, ctx, id_ejercicio);
  exigirEditableCompleto(e);
  // A dialog loaded before someone else's save is refused before the agent is asked anything.
  const antes = await repo.cuestionarioDeEjercicio(k, id_ejercicio);
  if (antes) {
    const id = antes.id_cuestionario;
    await exigirVersion(k, 'cuestionarios', id, await versionEsperada(k, id, cuerpo.version));
  }

  const base = agente.base?.replace(/\/+$/, '');
  if (base) {
    const vistos = new Set<string>();
    for (const [i, p] of cuerpo.preguntas.entries()) {
      if (vistos.has(p.file)) continue;
      vistos.add(p.file);
      const r = await audioEnPbx(base, agente.software, p.file, {
        timeoutMs: agente.timeoutMs,
        token: agente.token,
      });
      if (r === 'falta')
        throw error(
          409,
          'audioNoEnAgente',
          { archivo: p.file, N: i + 1, url: base },
          `preguntas.${i}.file`,
        );
      if (typeof r === 'string') {
        // An answer that is not 2xx/404 came from the agent itself: it is up but refused.
        if (r.startsWith('HTTP '))
          throw error(502, 'agenteTelefoniaRechazo', { url: base, detalle: r });
        throw agenteCaido(base, r);
      }
    }
  }

  const preguntas = cuerpo.preguntas.map((p, i) => ({
    numero: i + 1,
    reactivo: p.reactivo.trim(),
    archivo: p.file,
    respuestas: p.respuestas.map((r) => ({ respuesta: r.respuesta.trim(), digito: r.digito })),
  }));

  // The questionnaire's id (the agent's file is named by it): the existing one, or a new empty row.
  const previo = await repo.cuestionarioDeEjercicio(k, id_ejercicio);
  const modificado =
    previo !== undefined && (await repo.preguntasDe(k, previo.id_cuestionario)).length > 0;
  let id_cuestionario = previo?.id_cuestionario;
  let creado = false;
  if (id_cuestionario === undefined) {
    try {
      id_cuestionario = await k.transaction().execute(async (trx) => {
        exigirEditableCompleto(await ejercicioOError(trx, ctx, id_ejercicio, true));
        return repo.crearCuestionario(trx, id_ejercicio, ahora());
      });
      creado = true;
    } catch (err) {
      // Another process created it meanwhile: use that one.
      if (!esViolacionUnica(err)) throw err;
      const otro = await repo.cuestionarioDeEjercicio(k, id_ejercicio);
      if (!otro) throw err;
      id_cuestionario = otro.id_cuestionario;
    }
  }
  const id = id_cuestionario;
  const deshacerCreado = async () => {
    if (creado) await k.deleteFrom('cuestionarios').where('id_cuestionario', '=', id).execute();
  };

  let contenido: string;
  let firma: string;
  try {
    contenido = planQuiz(
      id_ejercicio,
      e.accion,
      preguntas.map((p) => ({
        numero: p.numero,
        audio: p.archivo,
        digitos: p.respuestas.map((r) => r.digito).sort((a, b) => a - b),
      })),
      agente.idioma,
    );
    firma = await agente.firmar(archivoDialplanQuiz(id), contenido);
    if (base) await escribirPlan({ ...agente, base }, id, contenido, firma);
  } catch (err) {
    await deshacerCreado();
    throw err;
  }

  try {
    await k.transaction().execute(async (trx) => {
      exigirEditableCompleto(await ejercicioOError(trx, ctx, id_ejercicio, true));
      const actual = await repo.cuestionarioDeEjercicio(trx, id_ejercicio);
      if (actual?.id_cuestionario !== id) throw error(409, 'cuestionarioEnUso');
      // Issue 48.3: stale -> 409 naming who saved and when; nothing written.
      const version = await versionEsperada(trx, id, cuerpo.version);
      await tomarVersion(trx, 'cuestionarios', id, version, actor);
      await repo.borrarPreguntas(trx, id);
      await repo.insertarPreguntas(
        trx,
        id,
        preguntas.map((p) => ({ numero: p.numero, reactivo: p.reactivo, archivo: p.archivo })),
      );
      const ids = new Map(
        (await repo.preguntasDe(trx, id)).map((p) => [p.numero, p.id_pregunta] as const),
      );
      const respuestas = preguntas.flatMap((p) =>
        p.respuestas.map((r) => ({ id_pregunta: ids.get(p.numero)!, ...r })),
      );
      await repo.insertarRespuestas(trx, respuestas);
      await auditar(trx, actor, modificado ? 'modificar' : 'crear', 'cuestionario', id, {
        id_ejercicio,
        preguntas: preguntas.length,
        respuestas: respuestas.length,
        completo: true,
      });
    });
  } catch (err) {
    await deshacerCreado().catch(() => undefined);
    // The agent holds the new plan while the database kept the old questionnaire: give it back.
    if (base && !creado && modificado) {
      try {
        const viejo = await archivoQuiz(ctx, id_ejercicio, agente.idioma);
        await escribirPlan(
          { ...agente, base },
          viejo.id_quiz,
          viejo.salida,
          await agente.firmar(archivoDialplanQuiz(viejo.id_quiz), viejo.salida),
        );
      } catch {
        // Start checks the context again; the save's own error is the one to report.
      }
    }
    throw err;
  }
  return {
    id_cuestionario: id,
    preguntas: preguntas.length,
    modificado,
    plan: { id_quiz: id, contenido, firma, escrito: base !== undefined },
  };
}
