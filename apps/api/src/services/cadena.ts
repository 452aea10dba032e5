import type { Cadena, Eslabon } from '@pregon/contract/api/cadena';
import { curvaAlcance, hitosAlcance } from '@pregon/contract/api/tableros';
import { tipoPorId } from '@pregon/contract/constants';
import { esCadena, etiquetaEslabon } from '@pregon/contract/rules/cadena';
import { deCopia, lotesCopia } from '@pregon/db/copia-pg';
import { leerFilas, lotesLectorSqlite } from '../db/lectura.ts';
import * as repo from '../repositories/cadena.ts';
import type { LinkCadena, PersonaCadena } from '../repositories/cadena.ts';
import * as repoQuiz from '../repositories/quiz.ts';
import { ejercicioOError } from './ejercicios.ts';
import { desfaseZona, epochDe, type CtxTableros } from './tableros.ts';

// The follow-up chain of an exercise (issue 25.3): the dashboard's 'Cadena de seguimiento'
// section and the after-action report's chain sheets. The rule of the best outcome per person is
// the contract's (rules/cadena.ts); repositories/cadena.ts holds its SQL.

/** Persons per batch of the report's per-person sheets. */
const LOTE_PERSONAS = 5000;

/** The chain `id` belongs to: the links' ids, root first then by level and id, each drill's
 * fallback companion (issue 25.2) right after it at its level, and each level. A lone exercise
 * without a fallback is a chain of one link. */
export async function idsCadena(ctx: CtxTableros, id: number) {
  const k = ctx.db.kysely;
  const niveles = await repo.nivelesCadena(k, await repo.raizCadena(k, id));
  const drills = [...niveles.keys()].sort((a, b) => niveles.get(a)! - niveles.get(b)! || a - b);
  const respaldos = new Map<number, number[]>();
  for (const r of await repo.respaldosCadena(k, drills)) {
    const de = Number(r.respaldo_de);
    respaldos.set(de, [...(respaldos.get(de) ?? []), r.id_ejercicio]);
    niveles.set(r.id_ejercicio, niveles.get(de) ?? 1);
  }
  const ids = drills.flatMap((d) => [d, ...(respaldos.get(d) ?? [])]);
  return { ids, niveles };
}

/** The links' exercise rows (with device), in the chain's order; a fallback companion carries
 * its drill's name (the drill may have been renamed since). */
export async function filasEslabones(ctx: CtxTableros, ids: readonly number[]) {
  const filas = await repo.ejerciciosCadena(ctx.db.kysely, ids);
  const porId = new Map(filas.map((f) => [f.id_ejercicio, f]));
  return ids.flatMap((id) => {
    const f = porId.get(id);
    if (!f) return [];
    const drill = f.respaldo_de === null ? undefined : porId.get(f.respaldo_de);
    return [drill ? { ...f, titulo: drill.titulo } : f];
  });
}

type FilaEslabon = Awaited<ReturnType<typeof filasEslabones>>[number];

/**
 * The chain's figures in two passes over its attempts: the links with their recipients and those
 * each reached, the persons, those reached by any attempt, and the per-second points of the
 * chain's curve (attempts processed; persons at their first reaching attempt).
 */
export async function figurasCadena(
  ctx: CtxTableros,
  filas: readonly FilaEslabon[],
  niveles: ReadonlyMap<number, number>,
) {
  const k = ctx.db.kysely;
  // Two passes over every attempt of the chain: on SQLite off the api's thread (db/lectura.ts).
  const [porSegundo, personas] = await Promise.all([
    leerFilas(ctx.db, repo.consultaPorEslabonYSegundo(filas).compile(k)),
    leerFilas(ctx.db, repo.consultaPersonasPorPrimerAlcance(filas).compile(k)),
  ]);
  const conteo = new Map<number, { total: number; alcanzados: number }>();
  // Both per-second series on one time line: attempts processed, persons first reached.
  const porMomento = new Map<string, { procesados: number; alcanzados: number }>();
  const en = (m: string) => {
    let p = porMomento.get(m);
    if (!p) porMomento.set(m, (p = { procesados: 0, alcanzados: 0 }));
    return p;
  };
  for (const f of porSegundo) {
    const id = Number(f.id_ejercicio);
    const c = conteo.get(id) ?? { total: 0, alcanzados: 0 };
    c.total += Number(f.total);
    c.alcanzados += Number(f.alcanzados ?? 0);
    conteo.set(id, c);
    if (f.fecha_envio !== null && f.hora_envio !== null && Number(f.procesados ?? 0) > 0)
      en(`${f.fecha_envio} ${f.hora_envio}`).procesados += Number(f.procesados);
  }
  let total = 0;
  let alcanzadas = 0;
  for (const p of personas) {
    total += Number(p.personas);
    if (Number(p.alcanzada) === 1) alcanzadas += Number(p.personas);
    if (p.momento !== null && Number(p.alcanzada) === 1)
      en(p.momento).alcanzados += Number(p.personas);
  }
  const desfase = desfaseZona(ctx.config.tz, Date.now());
  const segundos = [...porMomento]
    .map(([m, v]) => ({ t: epochDe(m.slice(0, 10), m.slice(11), desfase), ...v }))
    .sort((a, b) => a.t - b.t);
  const eslabones: Eslabon[] = filas.map((f) => ({
    id_ejercicio: f.id_ejercicio,
    ejercicio: f.titulo,
    id_tipo_ejercicio: f.id_tipo_ejercicio,
    tipo_ejercicio: etiquetaEslabon(f),
    alias: f.alias ?? '',
    origen_id: f.origen_id,
    respaldo_de: f.respaldo_de,
    nivel: niveles.get(f.id_ejercicio) ?? 1,
    iniciado: f.iniciado === null ? null : Number(f.iniciado),
    terminado: f.terminado === null ? null : Number(f.terminado),
    completado: String(f.completado),
    en_proceso: String(f.en_proceso),
    en_pausa: String(f.en_pausa),
    destinatarios: conteo.get(f.id_ejercicio)?.total ?? 0,
    alcanzados: conteo.get(f.id_ejercicio)?.alcanzados ?? 0,
  }));
  return { eslabones, personas: total, alcanzadas, segundos };
}

/** GET /tablero/cadena/{id}/: the chain of exercise `id` (404 if it does not exist), null when
 * it is alone. */
export async function cadenaDe(ctx: CtxTableros, id: number): Promise<Cadena | null> {
  await ejercicioOError(ctx.db.kysely, ctx, id);
  const { ids, niveles } = await idsCadena(ctx, id);
  if (!esCadena(ids)) return null;
  const f = await figurasCadena(ctx, await filasEslabones(ctx, ids), niveles);
  const curva = curvaAlcance(f.segundos);
  return {
    id_raiz: ids[0]!,
    eslabones: f.eslabones,
    personas: f.personas,
    alcanzadas: f.alcanzadas,
    nunca: f.personas - f.alcanzadas,
    curva,
    hitos: hitosAlcance(curva, f.personas),
    en_marcha: f.eslabones.some(
      (e) => e.en_proceso === '1' && e.en_pausa === '0' && e.completado === '0',
    ),
  };
}

/** Questions of each quiz link ('Respondió N de M' of a person's best attempt). */
export async function preguntasEslabones(ctx: CtxTableros, eslabones: readonly Eslabon[]) {
  const quizzes = eslabones.filter((e) => tipoPorId(e.id_tipo_ejercicio)?.clave === 'cuestionario');
  const n = await Promise.all(
    quizzes.map((e) => repoQuiz.contarPreguntas(ctx.db.kysely, e.id_ejercicio)),
  );
  return new Map(quizzes.map((e, i) => [e.id_ejercicio, n[i]!]));
}

const numeroONulo = (v: string | null) => (v === null ? null : Number(v));

/**
 * The chain's persons with their best attempt, ordered by phone, in batches; the statement is
 * streamed (SQLite: a separate read-only connection iterating it; PostgreSQL: COPY TO), so a
 * chain of a million persons never sits in memory.
 */
export async function* lotesPersonas(
  ctx: CtxTableros,
  links: readonly LinkCadena[],
  soloNoAlcanzadas: boolean,
): AsyncGenerator<PersonaCadena[]> {
  const k = ctx.db.kysely;
  const consulta = repo.consultaPersonas(links, soloNoAlcanzadas).compile(k);
  // Everything in it is an inlined literal: COPY takes no parameters.
  if (consulta.parameters.length > 0) throw new Error('consulta de personas con parámetros');
  const archivo = ctx.db.sqlite?.name;
  if (ctx.db.engine === 'postgres' && ctx.db.pool) {
    yield* lotesCopia(ctx.db.pool, consulta.sql, LOTE_PERSONAS, (c): PersonaCadena => ({
      telefono: deCopia(c[0]!)!,
      nombre: deCopia(c[1]!),
      id_ejercicio: Number(c[2]),
      canal: Number(c[3]),
      estatus: deCopia(c[4]!)!,
      alcance: deCopia(c[5]!),
      duracion: numeroONulo(deCopia(c[6]!)),
      respondidas: numeroONulo(deCopia(c[7]!)),
      fecha_envio: deCopia(c[8]!),
      hora_envio: deCopia(c[9]!),
      intentos_cadena: Number(deCopia(c[10]!) ?? 0),
    }));
    return;
  }
  if (archivo && archivo !== ':memory:') {
    yield* lotesLectorSqlite<PersonaCadena>(archivo, consulta.sql, [], LOTE_PERSONAS);
    return;
  }
  yield (await repo.consultaPersonas(links, soloNoAlcanzadas).execute(k)).rows;
}
