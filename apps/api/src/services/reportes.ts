import { MOTIVO_DADO_DE_BAJA } from '@pregon/contract/rules/bajas';
import { TIPO_LLAMADA, tipoPorId, type EstatusDestinatario } from '@pregon/contract/constants';
import { segundosLlamada } from '@pregon/contract/rules/dialplan';
import { msg } from '@pregon/contract/messages';
import {
  alcanzado,
  conteoSemaforo,
  LUZ_RESULTADO,
  resultadoDe,
  textoResultado,
} from '@pregon/contract/rules/alcance';
import type { ColumnasRespaldo, FilaReporte } from '@pregon/contract/api/ejercicios';
import type { AudioReporte, FilaReporte3, FilaReporte4 } from '@pregon/contract/api/reportes';
import { huellaCorta, nombreVisibleAudio } from '@pregon/contract/rules/audio';
import * as repo from '../repositories/ejercicios.ts';
import type { Consultor, FilaDetalle } from '../repositories/ejercicios.ts';
import * as repoQuiz from '../repositories/quiz.ts';
import * as repoReportes from '../repositories/reportes.ts';
import { zonaProducto } from '../config.ts';
import { conRespuestas, opcionesDe } from './respuestas-reporte.ts';
import {
  ejercicioOError,
  encabezadoReporte,
  idsCategorias,
  type CtxEjercicios,
} from './ejercicios.ts';

const siNo = (v: boolean) => msg(v ? 'si' : 'no');

/** Whether a recipient was held back at the start because it opted out of the channel. */
const esDadoDeBaja = (d: { estatus: string; motivo?: string | null }) =>
  d.estatus === 'cancelado' && d.motivo === MOTIVO_DADO_DE_BAJA;

/** A call exercise's limit in seconds (its 'Tiempo', the dialplan's TIMEOUT(absolute)); null for
 * other types. */
export const limiteLlamada = (e: { id_tipo_ejercicio: number; tiempo: number | null }) =>
  e.id_tipo_ejercicio === TIPO_LLAMADA ? segundosLlamada(e.tiempo) : null;

/** A recipient's outcome text and whether it was reached (rules/alcance.ts); `preguntas` is the
 * exercise's questionnaire length ('Respondió N de M'), `limite` a call exercise's limit in
 * seconds ('El ejercicio colgó al cumplirse 1 min', issue 45.5). A recipient held back because
 * it opted out (issue 46.4) reads 'Dado de baja'. */
export function resultadoFila(
  d: Pick<FilaDetalle, 'estatus' | 'alcance' | 'duracion' | 'respondidas'> & {
    motivo?: string | null;
  },
  preguntas = 0,
  limite: number | null = null,
) {
  const r = resultadoDe(d.estatus, d.alcance);
  return {
    alcanzado: alcanzado(r),
    texto: esDadoDeBaja(d)
      ? MOTIVO_DADO_DE_BAJA
      : Object.hasOwn(LUZ_RESULTADO, r)
        ? textoResultado(r, {
            duracion: d.duracion,
            respondidas: d.respondidas,
            preguntas,
            limite,
          })
        : d.estatus,
  };
}

/** A send/contact report row (SPEC 3) from a recipient; n is its 1-based place in the report.
 * realizado 'Sí' only when reached; resultado says how ('Colgó a los N s'). */
export function filaReporte(
  d: FilaDetalle,
  n: number,
  preguntas = 0,
  limite: number | null = null,
): FilaReporte {
  const r = resultadoFila(d, preguntas, limite);
  return {
    n,
    telefono: d.telefono,
    nombre: d.nombre ?? '',
    realizado: siNo(r.alcanzado),
    fecha_envio: d.fecha_envio ?? '',
    hora_envio: d.hora_envio ?? '',
    recibida: siNo(Boolean(d.recibida)),
    estatus: d.estatus as EstatusDestinatario,
    resultado: r.texto,
  };
}

/** A reporte2 row: the report row plus attempts, talk and ring seconds, the hangup cause and the
 * failure reason. */
export function filaReporte2(
  d: FilaDetalle,
  n: number,
  preguntas = 0,
  limite: number | null = null,
) {
  const base = filaReporte(d, n, preguntas, limite);
  return {
    n,
    telefono: base.telefono,
    nombre: base.nombre,
    estatus: base.estatus,
    resultado: base.resultado,
    realizado: base.realizado,
    intentos: Number(d.intentos),
    duracion: d.duracion === null ? null : Number(d.duracion),
    timbrado: d.timbrado === null ? null : Number(d.timbrado),
    causa: d.causa === null ? null : Number(d.causa),
    fecha_envio: base.fecha_envio,
    hora_envio: base.hora_envio,
    recibida: base.recibida,
    motivo: d.motivo ?? '',
  };
}

/**
 * The audio a call or quiz played, as fixed at its start (issue 23.1), and a note when nothing was
 * recorded for an exercise that plays audio (started without a known agent, PBX_BASE unset, or
 * before this version): the report never invents a hash.
 */
export async function audiosReporte(
  k: Consultor,
  e: { id_ejercicio: number; id_tipo_ejercicio: number; iniciado: number | null },
): Promise<{ audios: AudioReporte[]; audios_nota: string }> {
  const juega = e.id_tipo_ejercicio === 2 || e.id_tipo_ejercicio === 4;
  const audios = juega
    ? (await repo.audiosFijados(k, e.id_ejercicio)).map((a) => ({
        pregunta: a.pregunta === 0 ? null : a.pregunta,
        nombre: nombreVisibleAudio(a.nombre),
        archivo: a.nombre,
        sha256: a.sha256,
        huella: huellaCorta(a.sha256),
        duracion_s: a.duracion_s,
      }))
    : [];
  const nota = juega && e.iniciado !== null && audios.length === 0 ? msg('audioSinRegistro') : '';
  return { audios, audios_nota: nota };
}

/**
 * A drill's automatic fallback (issue 25.2) as columns of a person's report row, as the .xlsx's
 * 'No alcanzados' shows it: the fallback's channel (the label of its companion's type, read from
 * its row), outcome, send date and time; empty for a person who got none.
 */
export function columnasRespaldo(
  d: Pick<
    FilaDetalle,
    'respaldo_estatus' | 'respaldo_alcance' | 'respaldo_fecha' | 'respaldo_hora'
  >,
  canal: string,
): Required<ColumnasRespaldo> {
  const hay = d.respaldo_estatus !== null;
  return {
    respaldo_canal: hay ? canal : '',
    respaldo_resultado: hay
      ? resultadoFila({
          estatus: d.respaldo_estatus!,
          alcance: d.respaldo_alcance,
          duracion: null,
          respondidas: null,
        }).texto
      : '',
    respaldo_fecha: d.respaldo_fecha ?? '',
    respaldo_hora: d.respaldo_hora ?? '',
  };
}

/** The label of the channel of exercise `id`'s fallback (its companion's type: 'SMS'), null
 * when it has none. */
export async function canalRespaldo(k: Consultor, id: number): Promise<string | null> {
  const companero = await repo.respaldoDe(k, id);
  return companero ? (tipoPorId(companero.id_tipo_ejercicio)?.etiqueta ?? '') : null;
}

/** A report row builder: the recipient, its 1-based place, the questionnaire's length and a call
 * exercise's limit in seconds. */
export type FilaDe<T> = (d: FilaDetalle, n: number, preguntas: number, limite: number | null) => T;

/** The report row builder of exercise `id` with its fallback's columns when it has one. */
export async function conRespaldo<T extends object>(
  k: Consultor,
  id: number,
  fila: FilaDe<T>,
): Promise<{
  fila: FilaDe<T & ColumnasRespaldo>;
  respaldo: boolean;
}> {
  const canal = await canalRespaldo(k, id);
  if (canal === null) return { fila, respaldo: false };
  return {
    fila: (d, n, preguntas, limite) => ({
      ...fila(d, n, preguntas, limite),
      ...columnasRespaldo(d, canal),
    }),
    respaldo: true,
  };
}

/** GET /ejercicio/reporte/{id}/ and GET /reportes/reporte2/{id}/: one page of recipients (with
 * the fallback's columns when the drill has one). */
export async function reportePaginado<T extends object>(
  ctx: CtxEjercicios,
  id: number,
  limit: number,
  offset: number,
  filaBase: FilaDe<T>,
) {
  const k = ctx.db.kysely;
  const e = await ejercicioOError(k, ctx, id);
  const [filas, total, preguntas, { fila }, opciones] = await Promise.all([
    repo.paginaDetalle(k, id, limit, offset),
    repo.contarDestinatarios(k, id),
    repoQuiz.contarPreguntas(k, id),
    conRespaldo(k, id, filaBase),
    opcionesDe(k, id),
  ]);
  const limite = limiteLlamada(e);
  const data = filas.map((d, i) => fila(d, offset + i + 1, preguntas, limite));
  return {
    status: 200 as const,
    ejercicio: encabezadoReporte(e),
    // A poll's answers (issue 46.3): each person's current answer, its time and raw text.
    data: opciones
      ? await conRespuestas(
          k,
          id,
          opciones,
          zonaProducto(),
          data,
          filas.map((d) => Number(d.id_detalle)),
        )
      : data,
    total,
    limit,
    offset,
  };
}

/** GET /reportes/reporte3/{id}/ ('Reporte 1'): per question, then per answer (see the contract). */
export async function reporte3(ctx: CtxEjercicios, id: number): Promise<FilaReporte3[]> {
  const k = ctx.db.kysely;
  await ejercicioOError(k, ctx, id);
  const c = await repoQuiz.cuestionarioDeEjercicio(k, id);
  if (!c) return [];
  const [preguntas, respuestas, conteo] = await Promise.all([
    repoQuiz.preguntasDe(k, c.id_cuestionario),
    repoQuiz.respuestasDe(k, c.id_cuestionario),
    repoQuiz.conteoDigitos(k, id),
  ]);
  return filasReporte3(preguntas, respuestas, conteo);
}

/** reporte3 rows from a questionnaire's questions and answers and the count of each digit. */
export function filasReporte3(
  preguntas: readonly { id_pregunta: number; numero: number; reactivo: string }[],
  respuestas: readonly { id_pregunta: number; respuesta: string; digito: number }[],
  conteo: readonly { numero: number; digito: number; total: number | string }[],
): FilaReporte3[] {
  const cuenta = new Map(conteo.map((r) => [`${r.numero}:${r.digito}`, Number(r.total)]));
  const filas: FilaReporte3[] = [];
  for (const p of preguntas) {
    const total = conteo
      .filter((r) => r.numero === p.numero)
      .reduce((a, r) => a + Number(r.total), 0);
    filas.push({ reactivo: p.reactivo, total, orden: p.numero, tipo: 'pregunta', digito: null });
    for (const r of respuestas.filter((x) => x.id_pregunta === p.id_pregunta)) {
      filas.push({
        reactivo: r.respuesta,
        total: cuenta.get(`${p.numero}:${r.digito}`) ?? 0,
        orden: p.numero,
        tipo: 'respuesta',
        digito: r.digito,
      });
    }
  }
  return filas;
}

/** The questions of an exercise's questionnaire and the answer text of each (numero, digito). */
export async function textosCuestionario(k: Consultor, id: number) {
  const c = await repoQuiz.cuestionarioDeEjercicio(k, id);
  if (!c) return { numeros: [] as number[], texto: new Map<string, string>(), preguntas: 0 };
  const [preguntas, respuestas] = await Promise.all([
    repoQuiz.preguntasDe(k, c.id_cuestionario),
    repoQuiz.respuestasDe(k, c.id_cuestionario),
  ]);
  return {
    numeros: preguntas.map((p) => p.numero),
    texto: new Map(respuestas.map((r) => [`${r.numero}:${r.digito}`, r.respuesta])),
    preguntas: preguntas.length,
  };
}

/** Builds reporte4 rows for a batch of respondents (one query for their digits, and with a
 * fallback of channel `canal` one for its rows). */
export async function filasReporte4(
  k: Consultor,
  textos: Awaited<ReturnType<typeof textosCuestionario>>,
  personas: Awaited<ReturnType<typeof repoQuiz.respondientes>>,
  canal: string | null = null,
): Promise<FilaReporte4[]> {
  const digitos = await repoQuiz.digitosDe(
    k,
    personas.map((p) => Number(p.id_detalle)),
  );
  const porPersona = new Map<number, Map<number, number>>();
  for (const d of digitos) {
    const id = Number(d.id_detalle);
    if (!porPersona.has(id)) porPersona.set(id, new Map());
    porPersona.get(id)!.set(d.numero, d.digito);
  }
  const filas = personas.map((p) => filaReporte4(textos, p, porPersona.get(Number(p.id_detalle))));
  return canal === null ? filas : conRespaldo4(k, personas, filas, canal);
}

/** Reporte 2 rows of a drill with a fallback (issue 25.2): its columns after the answers, from
 * one query for the batch's fallback rows. */
export async function conRespaldo4(
  k: Consultor,
  personas: readonly { id_detalle: number | string }[],
  filas: readonly FilaReporte4[],
  canal: string,
): Promise<FilaReporte4[]> {
  const respaldos = await repo.respaldosDeFilas(
    k,
    personas.map((p) => Number(p.id_detalle)),
  );
  const porFila = new Map(respaldos.map((r) => [Number(r.respaldo_de), r]));
  const ninguno = {
    respaldo_estatus: null,
    respaldo_alcance: null,
    respaldo_fecha: null,
    respaldo_hora: null,
  };
  return filas.map((f, i) => ({
    ...f,
    ...columnasRespaldo(porFila.get(Number(personas[i]!.id_detalle)) ?? ninguno, canal),
  }));
}

/** One reporte4 row: a recipient who answered the call, how it went ('Respondió todo',
 * 'Respondió N de M', 'Colgó sin responder') and the text of the answer they gave to each question
 * (`suyas`: question number → digit pressed). */
export function filaReporte4(
  textos: Awaited<ReturnType<typeof textosCuestionario>>,
  p: Awaited<ReturnType<typeof repoQuiz.respondientes>>[number],
  suyas: ReadonlyMap<number, number> | undefined,
): FilaReporte4 {
  const fila: FilaReporte4 = {
    nombre: p.nombre ?? '',
    recibida: siNo(Boolean(p.recibida)),
    telefono: p.telefono,
    fecha_envio: p.fecha_envio ?? '',
    hora_envio: p.hora_envio ?? '',
    resultado: resultadoFila({ ...p, duracion: null }, textos.preguntas).texto,
  };
  for (const n of textos.numeros) {
    const digito = suyas?.get(n);
    fila[`reactivo_texto_${n}`] =
      digito === undefined ? '' : (textos.texto.get(`${n}:${digito}`) ?? String(digito));
  }
  return fila;
}

/** GET /reportes/reporte4/{id}/ ('Reporte 2'): a page of respondents and the total. */
export async function reporte4(ctx: CtxEjercicios, id: number, limit: number, offset: number) {
  const k = ctx.db.kysely;
  await ejercicioOError(k, ctx, id);
  const [textos, personas, total, canal] = await Promise.all([
    textosCuestionario(k, id),
    repoQuiz.respondientes(k, id, { limit, offset }),
    repoQuiz.contarRespondientes(k, id),
    canalRespaldo(k, id),
  ]);
  return { filas: await filasReporte4(k, textos, personas, canal), total };
}

type Grupo = { total: number; verde: number; amarillo: number; rojo: number; cancelado: number };

function acumular<K>(
  filas: readonly { estatus: string; alcance?: string | null; total: number }[],
  clave: (i: number) => K,
) {
  const grupos = new Map<K, Grupo>();
  filas.forEach((f, i) => {
    const k = clave(i);
    const g = grupos.get(k) ?? { total: 0, verde: 0, amarillo: 0, rojo: 0, cancelado: 0 };
    const n = Number(f.total);
    const r = resultadoDe(f.estatus, f.alcance);
    if (!Object.hasOwn(LUZ_RESULTADO, r)) return;
    g.total += n;
    g[LUZ_RESULTADO[r]] += n;
    grupos.set(k, g);
  });
  return grupos;
}

/** Per-state and per-category light counts of an exercise's recipients. */
export async function desgloses(k: Consultor, e: { id_ejercicio: number; categorias: string }) {
  const [porEstado, porCategoria] = await Promise.all([
    repoReportes.conteoPorEstado(k, e.id_ejercicio),
    repoReportes.conteoPorCategoria(k, e.id_ejercicio, idsCategorias(e.categorias)),
  ]);
  return agruparDesgloses(porEstado, porCategoria);
}

/** The breakdowns from their per-state and per-category count rows. */
export function agruparDesgloses(
  porEstado: Awaited<ReturnType<typeof repoReportes.conteoPorEstado>>,
  porCategoria: Awaited<ReturnType<typeof repoReportes.conteoPorCategoria>>,
) {
  const estados = acumular(porEstado, (i) => porEstado[i]!.id_estado);
  const nombresEstado = new Map(porEstado.map((f) => [f.id_estado, f.estado ?? '']));
  const categorias = acumular(porCategoria, (i) => porCategoria[i]!.id_categoria);
  const nombresCategoria = new Map(porCategoria.map((f) => [f.id_categoria, f.categoria]));
  return {
    porEstado: [...estados].map(([id_estado, g]) => ({
      id_estado,
      estado: nombresEstado.get(id_estado) ?? '',
      ...g,
    })),
    porCategoria: [...categorias].map(([id_categoria, g]) => ({
      id_categoria,
      categoria: nombresCategoria.get(id_categoria) ?? '',
      ...g,
    })),
  };
}

/** GET /reportes/resumen/{id}/: totals, per state, per category and per minute. */
export async function resumen(ctx: CtxEjercicios, id: number) {
  const k = ctx.db.kysely;
  const e = await ejercicioOError(k, ctx, id);
  const [estatus, grupos, porMinuto, recibidas] = await Promise.all([
    repo.conteoPorEstatus(k, id),
    desgloses(k, e),
    repoReportes.conteoPorMinuto(k, id),
    repoReportes.contarRecibidas(k, id),
  ]);
  return {
    status: 200 as const,
    ejercicio: encabezadoReporte(e),
    semaforo: conteoSemaforo(estatus),
    recibidas,
    ...grupos,
    porMinuto: porMinuto.map((m) => ({
      minuto: `${m.fecha_envio} ${m.hm}`,
      total: Number(m.total),
      recibidas: Number(m.recibidas ?? 0),
    })),
  };
}
