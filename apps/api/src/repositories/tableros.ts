import { sql } from 'kysely';
import { ESTATUS_AMARILLO, ESTATUS_ROJO, ESTATUS_VERDE } from '@pregon/contract/constants';
import { resultadoSql, resultadosDe } from './alcance-sql.ts';
import type { Consultor } from './ejercicios.ts';

// Queries of the live dashboards (exercise and general) and of the after-action report.

const lista = (xs: readonly string[]) =>
  sql.join(
    xs.map((x) => sql.lit(x)),
    sql`, `,
  );
const VERDE = lista(ESTATUS_VERDE);
const ROJO = lista(ESTATUS_ROJO);
/** A row in flight or still to do is not processed. */
const NO_PROCESADO = lista([...ESTATUS_AMARILLO.filter((e) => e !== 'incierto'), 'cancelado']);
/** Reached (rules/alcance.ts): a green outcome, an answered call's alcance refining its estatus. */
const ALCANZADO = sql<boolean>`${resultadoSql()} in (${resultadosDe('verde')})`;

/** Per second of sending (fecha_envio, hora_envio): recipients processed and reached. */
export async function porSegundo(k: Consultor, id: number) {
  return (await consultaPorSegundo(id).execute(k)).rows;
}

/** The query of porSegundo. */
export function consultaPorSegundo(id: number) {
  return sql<{
    fecha_envio: string;
    hora_envio: string;
    procesados: number;
    alcanzados: number;
  }>`
    select fecha_envio, hora_envio, count(*) as procesados,
      sum(case when ${ALCANZADO} then 1 else 0 end) as alcanzados
    from ejercicio_detalle
    where id_ejercicio = ${id} and fecha_envio is not null and hora_envio is not null
      and estatus not in (${NO_PROCESADO})
    group by fecha_envio, hora_envio
    order by fecha_envio, hora_envio`;
}

/** Per minute of sending: processed and reached (the report's reach sheet). */
export async function porMinutoAlcance(k: Consultor, id: number) {
  const r = await sql<{ minuto: string; procesados: number; alcanzados: number }>`
    select fecha_envio || ' ' || substr(hora_envio, 1, 5) as minuto, count(*) as procesados,
      sum(case when ${ALCANZADO} then 1 else 0 end) as alcanzados
    from ejercicio_detalle
    where id_ejercicio = ${id} and fecha_envio is not null and hora_envio is not null
      and estatus not in (${NO_PROCESADO})
    group by fecha_envio || ' ' || substr(hora_envio, 1, 5)
    order by 1`.execute(k);
  return r.rows;
}

/** The latest recipients not reached once processed (red, uncertain, or an answered call heard
 * or answered only in part), newest first. */
export async function ultimosFallos(k: Consultor, id: number, n: number) {
  return consultaUltimosFallos(k, id, n).execute();
}

/** The query of ultimosFallos. */
export function consultaUltimosFallos(k: Consultor, id: number, n: number) {
  return k
    .selectFrom('ejercicio_detalle')
    .select([
      'telefono',
      'nombre',
      'estatus',
      'alcance',
      'respondidas',
      'duracion',
      'motivo',
      'fecha_envio',
      'hora_envio',
    ])
    .where('id_ejercicio', '=', id)
    .where(
      sql<boolean>`${resultadoSql()} in (${resultadosDe('rojo')}, ${resultadosDe('amarillo')})`,
    )
    .where('estatus', 'in', [...ESTATUS_ROJO, 'incierto', 'contestado', 'respondido'])
    .orderBy('actualizado', 'desc')
    .orderBy('id_detalle', 'desc')
    .limit(n);
}

/** Running (or paused) exercises that have not completed, newest first. */
export async function ejerciciosActivos(k: Consultor) {
  return (
    k
      .selectFrom('ejercicios as e')
      .innerJoin('equipos as q', 'q.id_equipo', 'e.id_equipo')
      .select([
        'e.id_ejercicio',
        'e.titulo',
        'e.id_tipo_ejercicio',
        'e.en_pausa',
        'e.motivo_pausa',
        'e.en_espera',
        'e.iniciado',
        'e.id_equipo',
        'q.alias',
      ])
      .where('e.completado', '=', 0)
      .where('e.en_proceso', '=', 1)
      // A drill's fallback companion (issue 25.2) runs as part of its drill.
      .where('e.respaldo_de', 'is', null)
      .orderBy('e.id_ejercicio', 'desc')
      .execute()
  );
}

/** Issue 25.2: a drill's fallback rows per estatus, with those whose SMS left (an attempt). */
export async function conteoRespaldo(k: Consultor, id: number) {
  return k
    .selectFrom('ejercicio_detalle as d')
    .innerJoin('ejercicios as r', 'r.id_ejercicio', 'd.id_ejercicio')
    .select([
      'd.estatus',
      (eb) => eb.fn.countAll<number>().as('total'),
      sql<number>`sum(case when d.intentos > 0 then 1 else 0 end)`.as('salieron'),
      sql<number>`sum(case when ${resultadoSql('d.')} = 'leido' then 1 else 0 end)`.as('leidos'),
    ])
    .where('r.respaldo_de', '=', id)
    .groupBy('d.estatus')
    .execute();
}

/** Recipients of an exercise whose outcome was written since `desde` (epoch ms). */
export async function procesadosDesde(k: Consultor, id: number, desde: number): Promise<number> {
  const r = await k
    .selectFrom('ejercicio_detalle')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id_ejercicio', '=', id)
    .where('actualizado', '>=', desde)
    .where(sql<boolean>`estatus not in (${NO_PROCESADO})`)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Ids of the exercises that may have worked since `desde`: started, and running or ended after. */
export async function ejerciciosConActividad(k: Consultor, desde: number): Promise<number[]> {
  const filas = await k
    .selectFrom('ejercicios')
    .select('id_ejercicio')
    .where('iniciado', 'is not', null)
    .where((eb) => eb.or([eb('terminado', 'is', null), eb('terminado', '>=', desde)]))
    .execute();
  return filas.map((f) => f.id_ejercicio);
}

/** Outcomes sent on `fecha` (YYYY-MM-DD) per exercise type and estatus, among `ids`. */
export async function totalesDelDia(k: Consultor, ids: readonly number[], fecha: string) {
  if (ids.length === 0) return [];
  // Counted per exercise first, then joined to the few exercises (see actividadEquipos).
  return k
    .selectFrom(
      k
        .selectFrom('ejercicio_detalle as d')
        .select(['d.id_ejercicio', 'd.estatus', (eb) => eb.fn.countAll<number>().as('total')])
        .where('d.id_ejercicio', 'in', ids)
        .where('d.fecha_envio', '=', fecha)
        .groupBy(['d.id_ejercicio', 'd.estatus'])
        .as('g'),
    )
    .innerJoin('ejercicios as e', 'e.id_ejercicio', 'g.id_ejercicio')
    .select(['e.id_tipo_ejercicio', 'g.estatus', sql<number>`sum(g.total)`.as('total')])
    .groupBy(['e.id_tipo_ejercicio', 'g.estatus'])
    .execute();
}

/** Each row's rank within its group, the latest written first (ties: the higher id): 'orden'. */
const ultimoPrimero = (grupo: string, t: 'd' | 'x') =>
  sql<number>`row_number() over (partition by ${sql.ref(grupo)}
    order by ${sql.ref(`${t}.actualizado`)} desc, ${sql.ref(`${t}.id_detalle`)} desc)`.as('orden');

/**
 * Per device, among `ids`' recipients written since `desde`: sends (green), errors (red, or put
 * back to pending with a gateway error), the time of the last accepted send, and the latest
 * written row's estatus and reason.
 */
export async function actividadEquipos(k: Consultor, ids: readonly number[], desde: number) {
  if (ids.length === 0) return { totales: [], ultimos: [] };
  // The hour's rows are read without a join and reduced per exercise first; only those few
  // results meet ejercicios. Joined before, on PostgreSQL with the statistics generar leaves
  // (taken while every row was pending, `actualizado` and `fecha_envio` all old or null) the
  // planner expected one row of the hour and read ejercicios again for every row: 0.5 s per
  // statement with 58,000 rows in the hour, 1.1 s for totalesDelDia with 150,000 of the day.
  const hora = k
    .selectFrom('ejercicio_detalle as d')
    .where('d.id_ejercicio', 'in', ids)
    .where('d.actualizado', '>=', desde);
  const esError = sql<boolean>`(d.estatus in (${ROJO}) or (d.estatus = 'pendiente' and d.motivo is not null))`;
  const [totales, ultimos] = await Promise.all([
    k
      .selectFrom(
        hora
          .select([
            'd.id_ejercicio',
            sql<number>`sum(case when d.estatus in (${VERDE}) then 1 else 0 end)`.as('envios'),
            sql<number>`sum(case when ${esError} then 1 else 0 end)`.as('errores'),
            sql<number | null>`max(case when d.estatus in (${VERDE}) then d.actualizado end)`.as(
              'ultimo_envio',
            ),
          ])
          .groupBy('d.id_ejercicio')
          .as('g'),
      )
      .innerJoin('ejercicios as e', 'e.id_ejercicio', 'g.id_ejercicio')
      .select([
        'e.id_equipo',
        sql<number>`sum(g.envios)`.as('envios'),
        sql<number>`sum(g.errores)`.as('errores'),
        sql<number | null>`max(g.ultimo_envio)`.as('ultimo_envio'),
      ])
      .groupBy('e.id_equipo')
      .execute(),
    // The latest written row per device (ties broken by id): is it an error? The latest of each
    // exercise, in one pass over the hour's rows numbered per exercise, then the latest of those
    // per device. It used to be a subquery per row (the latest of the device's rows, for each row
    // written since `desde`), which read the whole drill again for every row of the hour:
    // quadratic, 18 ms a row on SQLite at 200,000 recipients; a join to each device's latest
    // time, tried next, was a nested loop over the grouped rows on PostgreSQL (0.6 ms a row).
    k
      .selectFrom(
        k
          .selectFrom(
            hora
              .select([
                'd.id_ejercicio',
                'd.id_detalle',
                'd.estatus',
                'd.motivo',
                'd.actualizado',
                ultimoPrimero('d.id_ejercicio', 'd'),
              ])
              .as('x'),
          )
          .innerJoin('ejercicios as e', 'e.id_ejercicio', 'x.id_ejercicio')
          .where('x.orden', '=', 1)
          .select([
            'e.id_equipo',
            'x.estatus',
            'x.motivo',
            'x.actualizado',
            ultimoPrimero('e.id_equipo', 'x'),
          ])
          .as('u'),
      )
      .select(['u.id_equipo', 'u.estatus', 'u.motivo', 'u.actualizado'])
      .where('u.orden', '=', 1)
      .execute(),
  ]);
  return { totales, ultimos };
}

/** Every device with its last contact. */
export async function equiposSalud(k: Consultor) {
  return k
    .selectFrom('equipos')
    .select(['id_equipo', 'alias', 'protocolo', 'activo', 'ultimo_contacto'])
    .orderBy('alias')
    .execute();
}

/** Exercises paused automatically (a motivo_pausa is kept) per device. */
export async function pausasAutomaticas(k: Consultor) {
  return k
    .selectFrom('ejercicios')
    .select(['id_equipo', 'motivo_pausa'])
    .where('en_pausa', '=', 1)
    .where('completado', '=', 0)
    .where('motivo_pausa', 'is not', null)
    .execute();
}

/** The latest start/pause/stop/complete audit events, with the exercise's title. */
export async function auditoriaReciente(k: Consultor, n: number) {
  return k
    .selectFrom('auditoria as a')
    .leftJoin('ejercicios as e', (j) =>
      j.on(
        sql<boolean>`a.entidad = 'ejercicio' and a.id_entidad = cast(e.id_ejercicio as varchar(20))`,
      ),
    )
    .select(['a.fecha', 'a.usuario', 'a.accion', 'a.entidad', 'a.id_entidad', 'e.titulo'])
    .where('a.accion', 'in', ['iniciar', 'pausar', 'detener', 'completar'])
    .orderBy('a.fecha', 'desc')
    .orderBy('a.id_auditoria', 'desc')
    .limit(n)
    .execute();
}

/** Who started the exercise first and who stopped it (audit log), for the report. */
export async function auditoriaEjercicio(k: Consultor, id: number) {
  return k
    .selectFrom('auditoria')
    .select(['fecha', 'usuario', 'accion', 'detalle'])
    .where('entidad', '=', 'ejercicio')
    .where('id_entidad', '=', String(id))
    .where('accion', 'in', ['iniciar', 'pausar', 'detener', 'completar'])
    .orderBy('fecha')
    .orderBy('id_auditoria')
    .execute();
}

/** Respondents of a quiz exercise who answered each of its `preguntas` questions. */
export async function respondieronTodo(
  k: Consultor,
  id: number,
  preguntas: number,
): Promise<number> {
  if (preguntas <= 0) return 0;
  const r = await consultaRespondieronTodo(id, preguntas).execute(k);
  return Number(r.rows[0]?.n ?? 0);
}

/** The query of respondieronTodo: one row {n}. */
export function consultaRespondieronTodo(id: number, preguntas: number) {
  return sql<{ n: number }>`
    select count(*) as n from (
      select id_detalle from quiz_respuestas where id_ejercicio = ${id}
      group by id_detalle having count(distinct numero) >= ${preguntas}) t`;
}

/** Who stopped the exercise and when: its latest 'detener' audit event, or undefined. */
export async function detencion(k: Consultor, id: number) {
  return k
    .selectFrom('auditoria')
    .select(['fecha', 'usuario'])
    .where('entidad', '=', 'ejercicio')
    .where('id_entidad', '=', String(id))
    .where('accion', '=', 'detener')
    .orderBy('fecha', 'desc')
    .orderBy('id_auditoria', 'desc')
    .limit(1)
    .executeTakeFirst();
}
