import { sql, type RawBuilder } from 'kysely';
import { ESTATUS_AMARILLO } from '@pregon/contract/constants';
import { RESULTADOS } from '@pregon/contract/rules/alcance';
import { rangoResultado, RANGO_LUZ } from '@pregon/contract/rules/cadena';
import { enteroCopia } from '@pregon/db/copia-pg';
import { resultadoSql, resultadosDe } from './alcance-sql.ts';
import type { Consultor } from './ejercicios.ts';

// The follow-up chain (issue 25.3; contract rules/cadena.ts): its links, and per person (phone)
// the best outcome over every attempt of every link. Every statement reads the links' recipients
// through `id_ejercicio in (…)` (the (id_ejercicio, id_detalle) index), once: no statement per
// link or per person.

const lista = (xs: readonly string[]) =>
  sql.join(
    xs.map((x) => sql.lit(x)),
    sql`, `,
  );

/** The link ids inlined as literals (validated integers): the per-person statement is also run
 * through PostgreSQL's COPY, which takes no bound parameters. */
const idsSql = (ids: readonly number[]) => sql.raw(ids.map(enteroCopia).join(', '));

/** A link as the statements need it: its id and type (the channel of its recipient rows). */
export interface LinkCadena {
  id_ejercicio: number;
  id_tipo_ejercicio: number;
}

/**
 * Every attempt of the chain's links: one row per attempt with its link, channel, person
 * (telefono), outcome columns and send time. An attempt is a recipient row, its channel the
 * link's type (inlined: no join per row). A drill's automatic fallback (issue 25.2) is a link of
 * its own (its hidden companion, `respaldosCadena`): its rows are the fallback attempts with their
 * own channel (the companion's type) and time, read by the same `in (…)`, so every figure of the
 * chain counts them.
 */
export function intentosSql(links: readonly LinkCadena[]): RawBuilder<unknown> {
  const canal = sql.join(
    links.map(
      (l) =>
        sql`when ${sql.raw(enteroCopia(l.id_ejercicio))} then ${sql.raw(enteroCopia(l.id_tipo_ejercicio))}`,
    ),
    sql` `,
  );
  return sql`select d.id_ejercicio, (case d.id_ejercicio ${canal} end) as canal, d.telefono,
      d.nombre, d.estatus, d.alcance, d.duracion, d.respondidas, d.intentos, d.fecha_envio,
      d.hora_envio
    from ejercicio_detalle d
    where d.id_ejercicio in (${idsSql(links.map((l) => l.id_ejercicio))})`;
}

/** Reached (rules/alcance.ts) for an attempt row aliased `i`. */
const ALCANZADO = sql<boolean>`${resultadoSql('i.')} in (${resultadosDe('verde')})`;
/** Rank of an attempt's outcome (rules/cadena.ts rangoResultado). */
const RANGO = sql<number>`(case ${resultadoSql('i.')} ${sql.join(
  RESULTADOS.map((r) => sql`when ${sql.lit(r)} then ${sql.lit(rangoResultado(r))}`),
  sql` `,
)} else 0 end)`;
/** Local send time 'YYYY-MM-DD HH:mm:ss', '' while never sent. */
const MOMENTO = sql<string>`coalesce(i.fecha_envio || ' ' || i.hora_envio, '')`;
/** A row in flight or still to do is not processed (as the exercise dashboard counts). */
const NO_PROCESADO = lista([...ESTATUS_AMARILLO.filter((e) => e !== 'incierto'), 'cancelado']);

/** The root of the chain `id` belongs to: origen_id walked up while the source exists. */
export async function raizCadena(k: Consultor, id: number): Promise<number> {
  let raiz = id;
  const vistos = new Set([id]);
  for (;;) {
    const f = await k
      .selectFrom('ejercicios as e')
      .innerJoin('ejercicios as o', 'o.id_ejercicio', 'e.origen_id')
      .select('o.id_ejercicio')
      .where('e.id_ejercicio', '=', raiz)
      .executeTakeFirst();
    if (!f || vistos.has(f.id_ejercicio)) return raiz;
    raiz = f.id_ejercicio;
    vistos.add(raiz);
  }
}

/** The chain's exercise ids from its root, level by level (ejercicios_origen_idx), with the
 * level of each (1 for the root). */
export async function nivelesCadena(k: Consultor, raiz: number): Promise<Map<number, number>> {
  const niveles = new Map([[raiz, 1]]);
  let frontera = [raiz];
  for (let nivel = 2; frontera.length > 0; nivel++) {
    const hijos = await k
      .selectFrom('ejercicios')
      .select('id_ejercicio')
      .where('origen_id', 'in', frontera)
      // A fallback companion is its drill's link, never a follow-up (see respaldosCadena).
      .where('respaldo_de', 'is', null)
      .orderBy('id_ejercicio')
      .execute();
    frontera = hijos.map((h) => h.id_ejercicio).filter((h) => !niveles.has(h));
    for (const h of frontera) niveles.set(h, nivel);
  }
  return niveles;
}

/** The fallback companions (issue 25.2) of these drills: their id and their drill's, by id. */
export async function respaldosCadena(k: Consultor, ids: readonly number[]) {
  return k
    .selectFrom('ejercicios')
    .select(['id_ejercicio', 'respaldo_de'])
    .where('respaldo_de', 'in', ids)
    .orderBy('id_ejercicio')
    .execute();
}

/** The links' exercise rows with their device. */
export async function ejerciciosCadena(k: Consultor, ids: readonly number[]) {
  return k
    .selectFrom('ejercicios as e')
    .leftJoin('equipos as q', 'q.id_equipo', 'e.id_equipo')
    .select([
      'e.id_ejercicio',
      'e.titulo',
      'e.id_tipo_ejercicio',
      'e.origen_id',
      'e.respaldo_de',
      'e.iniciado',
      'e.terminado',
      'e.completado',
      'e.en_proceso',
      'e.en_pausa',
      'q.alias',
    ])
    .where('e.id_ejercicio', 'in', ids)
    .execute();
}

/**
 * One pass over the links' attempts, per link and second of sending: attempts, those that
 * reached, and those processed (the dashboard's links and the curve's processed line).
 */
export async function porEslabonYSegundo(k: Consultor, links: readonly LinkCadena[]) {
  return (await consultaPorEslabonYSegundo(links).execute(k)).rows;
}

/** The statement of porEslabonYSegundo. */
export function consultaPorEslabonYSegundo(links: readonly LinkCadena[]) {
  return sql<{
    id_ejercicio: number;
    fecha_envio: string | null;
    hora_envio: string | null;
    total: number;
    alcanzados: number | null;
    procesados: number | null;
  }>`
    select i.id_ejercicio, i.fecha_envio, i.hora_envio, count(*) as total,
      sum(case when ${ALCANZADO} then 1 else 0 end) as alcanzados,
      sum(case when i.estatus not in (${NO_PROCESADO}) then 1 else 0 end) as procesados
    from (${intentosSql(links)}) i
    group by i.id_ejercicio, i.fecha_envio, i.hora_envio`;
}

/**
 * One pass over the persons (phones): per second of their FIRST reaching attempt, how many
 * persons (momento null: never reached, or reached by an attempt without a send time), and
 * whether they were reached. Its sum is the chain's persons.
 */
export async function personasPorPrimerAlcance(k: Consultor, links: readonly LinkCadena[]) {
  return (await consultaPersonasPorPrimerAlcance(links).execute(k)).rows;
}

/** The statement of personasPorPrimerAlcance. */
export function consultaPersonasPorPrimerAlcance(links: readonly LinkCadena[]) {
  return sql<{ momento: string | null; alcanzada: number; personas: number }>`
    select t.momento, t.alcanzada, count(*) as personas from (
      select i.telefono, max(case when ${ALCANZADO} then 1 else 0 end) as alcanzada,
        min(case when ${ALCANZADO} then i.fecha_envio || ' ' || i.hora_envio end) as momento
      from (${intentosSql(links)}) i
      group by i.telefono) t
    group by t.momento, t.alcanzada`;
}

/** Columns of a person's best attempt, in the order of the per-person statement. */
export const COLUMNAS_PERSONA = [
  'telefono',
  'nombre',
  'id_ejercicio',
  'canal',
  'estatus',
  'alcance',
  'duracion',
  'respondidas',
  'fecha_envio',
  'hora_envio',
  'intentos_cadena',
] as const;

/** A person of the chain with their best attempt (rules/cadena.ts) and attempts over the chain. */
export interface PersonaCadena {
  telefono: string;
  nombre: string | null;
  id_ejercicio: number;
  canal: number;
  estatus: string;
  alcance: string | null;
  duracion: number | null;
  respondidas: number | null;
  fecha_envio: string | null;
  hora_envio: string | null;
  intentos_cadena: number;
}

/**
 * One row per person (phone), ordered by phone: the best attempt by the contract's order (rank
 * of its light; among reaching attempts the first, among the others the latest; then the later
 * link), with the sum of the recipient rows' attempts over the chain. `soloNoAlcanzadas` keeps
 * those whose best attempt did not reach them: never reached by any attempt.
 */
export function consultaPersonas(links: readonly LinkCadena[], soloNoAlcanzadas: boolean) {
  return sql<PersonaCadena>`
    select ${sql.raw(COLUMNAS_PERSONA.join(', '))} from (
      select i.*, ${RANGO} as rango,
        row_number() over (partition by i.telefono order by ${RANGO} desc,
          case when ${RANGO} = ${sql.lit(RANGO_LUZ.verde)} then ${MOMENTO} else '' end,
          ${MOMENTO} desc, i.id_ejercicio desc) as n,
        sum(i.intentos) over (partition by i.telefono) as intentos_cadena
      from (${intentosSql(links)}) i) m
    where m.n = 1 ${soloNoAlcanzadas ? sql`and m.rango < ${sql.lit(RANGO_LUZ.verde)}` : sql``}
    order by m.telefono`;
}
