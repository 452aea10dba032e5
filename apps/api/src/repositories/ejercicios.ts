import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Orden } from '@pregon/contract/constants';
import { protocolosDonde } from '@pregon/contract/protocolos';
import type pg from 'pg';
import { abrirCola, enCola } from '@pregon/db/cola';
import { deCopia, enteroCopia, lotesCopia } from '@pregon/db/copia-pg';
import { resultadoSql } from './alcance-sql.ts';
import type { Engine } from '@pregon/db/database';
import type { CambioEjercicio, DB, EjerciciosTable } from '@pregon/db/schema';
import type { Insertable } from 'kysely';

// Every query of exercises and their recipients (ejercicio_detalle). Services hold the rules.

/** A Kysely handle or an open transaction. */
export type Consultor = Kysely<DB>;

/** An exercise joined with its device and type label, as the list and the lifecycle read it. */
export async function listarEjercicios(k: Consultor) {
  // A drill's fallback companion (issue 25.2) is part of its drill, never a row of its own.
  return consultaEjercicio(k)
    .where('e.respaldo_de', 'is', null)
    .orderBy('e.id_ejercicio', 'desc')
    .execute();
}

function consultaEjercicio(k: Consultor) {
  return (
    k
      .selectFrom('ejercicios as e')
      .innerJoin('equipos as q', 'q.id_equipo', 'e.id_equipo')
      .innerJoin('tipos_ejercicio as t', 't.id_tipo_ejercicio', 'e.id_tipo_ejercicio')
      // Issue 25.2: its fallback (device, and by the companion's type an SMS text or a WhatsApp
      // template), from its hidden companion.
      .leftJoin('ejercicios as r', 'r.respaldo_de', 'e.id_ejercicio')
      .selectAll('e')
      .select([
        'r.id_equipo as respaldo_equipo',
        'r.id_tipo_ejercicio as respaldo_tipo',
        'r.accion as respaldo_accion',
        'q.alias',
        'q.serial',
        'q.url',
        'q.protocolo',
        'q.activo as equipo_activo',
        'q.puertos as puertos_equipo',
        'q.tasa as tasa_equipo',
        't.tipo_ejercicio as etiqueta_tipo',
        // Issue 46.2: SMS parts of the acknowledgements sent for its replies (one-off messages
        // the gateway took, despacho/sueltos.ts), by mensajes_sueltos_ejercicio; its `canal`
        // is the device's protocol, an SMS one by its record.
        (eb) =>
          eb
            .selectFrom('mensajes_sueltos as m')
            .select((s) => s.fn.sum<number | string | null>('m.partes').as('n'))
            .whereRef('m.id_ejercicio', '=', 'e.id_ejercicio')
            .where('m.id_gateway', 'is not', null)
            .where(
              'm.canal',
              'in',
              protocolosDonde((d) => d.canal === 'sms'),
            )
            .as('sms_acuses'),
      ])
  );
}

/** Pending recipients of these exercises by state, with the state's name and zone override
 * (calling windows, issue 24.4). */
export function pendientesPorEstado(k: Consultor, ids: readonly number[]) {
  return k
    .selectFrom('ejercicio_detalle as d')
    .leftJoin('estados as s', 's.id_estado', 'd.id_estado')
    .select([
      'd.id_ejercicio',
      's.estado',
      's.zona_horaria',
      (eb) => eb.fn.countAll<number>().as('n'),
    ])
    .where('d.id_ejercicio', 'in', [...ids])
    .where(enCola('pendiente', 'd'))
    .groupBy(['d.id_ejercicio', 'd.id_estado', 's.estado', 's.zona_horaria'])
    .execute();
}

/** An exercise with its device and type label. */
export type EjercicioCompleto = Awaited<ReturnType<typeof listarEjercicios>>[number];

/** One exercise with its device, or undefined; `bloquear` takes a row lock on PostgreSQL. */
export async function obtenerEjercicio(
  k: Consultor,
  engine: Engine,
  id: number,
  bloquear = false,
): Promise<EjercicioCompleto | undefined> {
  let q = consultaEjercicio(k).where('e.id_ejercicio', '=', id);
  if (bloquear && engine === 'postgres') q = q.forUpdate('e');
  return q.executeTakeFirst();
}

/** Ids among `ids` that do not exist in the table (equipos, estados or categorias). */
export async function idsInexistentes(
  k: Consultor,
  tabla: 'equipos' | 'estados' | 'categorias',
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const columna = { equipos: 'id_equipo', estados: 'id_estado', categorias: 'id_categoria' }[tabla];
  const rows = await sql<{ id: number }>`select ${sql.ref(columna)} as id from ${sql.table(tabla)}
    where ${sql.ref(columna)} in (${sql.join(ids)})`.execute(k);
  const existen = new Set(rows.rows.map((r) => Number(r.id)));
  return ids.filter((id) => !existen.has(id));
}

/** The chosen states with their country (issue 48.1: a choice must stay in one country). */
export async function estadosConPais(k: Consultor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await k
    .selectFrom('estados')
    .innerJoin('paises', 'paises.id_pais', 'estados.id_pais')
    .select(['estados.id_estado', 'estados.id_pais', 'paises.pais'])
    .where('estados.id_estado', 'in', [...ids])
    .execute();
  return rows.map((r) => ({
    id_estado: Number(r.id_estado),
    id_pais: Number(r.id_pais),
    pais: r.pais,
  }));
}

/** A device's ports and rate (the exercise's port range must fit them); the device must exist. */
export async function capacidadEquipo(k: Consultor, id_equipo: number) {
  return k
    .selectFrom('equipos')
    .select(['puertos', 'tasa'])
    .where('id_equipo', '=', id_equipo)
    .executeTakeFirstOrThrow();
}

/** Inserts an exercise and returns its id. */
export async function insertarEjercicio(k: Consultor, valores: Insertable<EjerciciosTable>) {
  const fila = await k
    .insertInto('ejercicios')
    .values(valores)
    .returning('id_ejercicio')
    .executeTakeFirstOrThrow();
  return fila.id_ejercicio;
}

/** The lifecycle columns a drill's fallback companion (issue 25.2) always shares with it. */
const CICLO = [
  'en_proceso',
  'en_pausa',
  'completado',
  'detenido',
  'iniciado',
  'terminado',
] as const;

/** Changes columns of one exercise; its lifecycle (start, pause, stop, completion) is its fallback
 * companion's too, in the same transaction, so the dispatcher runs and stops both together. */
export async function actualizarEjercicio(k: Consultor, id: number, cambios: CambioEjercicio) {
  await k.updateTable('ejercicios').set(cambios).where('id_ejercicio', '=', id).execute();
  const ciclo = Object.fromEntries(
    CICLO.filter((c) => c in cambios).map((c) => [c, cambios[c]]),
  ) as CambioEjercicio;
  if (Object.keys(ciclo).length)
    await k.updateTable('ejercicios').set(ciclo).where('respaldo_de', '=', id).execute();
}

/** A device's protocol and alias, to check it can send the fallback's channel; undefined when
 * it does not exist. */
export async function equipoDeRespaldo(k: Consultor, id_equipo: number) {
  return k
    .selectFrom('equipos')
    .select(['protocolo', 'alias'])
    .where('id_equipo', '=', id_equipo)
    .executeTakeFirst();
}

/** The fallback companion of a drill (issue 25.2): its id, type (SMS or WhatsApp), device and
 * what it sends; undefined when the drill has none. */
export async function respaldoDe(k: Consultor, id: number) {
  return k
    .selectFrom('ejercicios')
    .select(['id_ejercicio', 'id_tipo_ejercicio', 'id_equipo', 'accion'])
    .where('respaldo_de', '=', id)
    .executeTakeFirst();
}

/** Deletes an exercise; its recipients, questionnaire, answers and audio records go by cascade
 * (one that never started has no send-budget row in despacho_cupos). */
export async function eliminarEjercicio(k: Consultor, id: number) {
  await k.deleteFrom('ejercicios').where('id_ejercicio', '=', id).execute();
}

/** Whether any recipient of the exercise has left 'pendiente' (the exercise has been worked). */
export async function hayDestinatariosTrabajados(k: Consultor, id: number): Promise<boolean> {
  const fila = await k
    .selectFrom('ejercicio_detalle')
    .select('id_detalle')
    .where('id_ejercicio', '=', id)
    .where('estatus', '!=', 'pendiente')
    .limit(1)
    .executeTakeFirst();
  return fila !== undefined;
}

/** Whether the exercise has a pending recipient (pendiente); cheap (the queue's partial index:
 * detalle_cola on PostgreSQL, detalle_pendiente on SQLite). */
export async function hayPendientes(k: Consultor, id: number): Promise<boolean> {
  const fila = await k
    .selectFrom('ejercicio_detalle')
    .select('id_detalle')
    .where('id_ejercicio', '=', id)
    .where(enCola('pendiente'))
    .limit(1)
    .executeTakeFirst();
  return fila !== undefined;
}

/** Whether the exercise has any recipient (cheap: stops at the first row). */
export async function hayDestinatarios(k: Consultor, id: number): Promise<boolean> {
  const fila = await k
    .selectFrom('ejercicio_detalle')
    .select('id_detalle')
    .where('id_ejercicio', '=', id)
    .limit(1)
    .executeTakeFirst();
  return fila !== undefined;
}

/** Number of recipients of the exercise. */
export async function contarDestinatarios(k: Consultor, id: number): Promise<number> {
  const fila = await k
    .selectFrom('ejercicio_detalle')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id_ejercicio', '=', id)
    .executeTakeFirstOrThrow();
  return Number(fila.n);
}

/** Deletes every recipient of the exercise. */
export async function borrarDestinatarios(k: Consultor, id: number) {
  await k.deleteFrom('ejercicio_detalle').where('id_ejercicio', '=', id).execute();
}

/** The ORDER BY of an order name, over a table alias holding telefono and id_estado. */
function ordenSql(orden: Orden, alias: string): RawBuilder<unknown> {
  const a = (c: string) => sql.ref(`${alias}.${c}`);
  if (orden === 'aleatorio') return sql`random()`;
  if (orden === 'estado') return sql`${a('id_estado')}, ${a('telefono')}`;
  return sql`${a('telefono')}`;
}

/**
 * Writes one recipient per distinct phone of `estado` holding any of `categorias`, numbered in
 * `orden`: a single INSERT…SELECT (IN makes a phone in two categories count once).
 * Returns how many rows were written.
 */
export async function insertarDestinatarios(
  k: Consultor,
  id: number,
  estados: readonly number[],
  categorias: readonly number[],
  orden: Orden,
  engine: Engine,
  /** Issue 47.1, a 'Prueba' exercise: only the phones also in the category of this name (the
   * test list). */
  categoriaPrueba?: string,
): Promise<number> {
  const prueba =
    categoriaPrueba === undefined
      ? sql``
      : sql`and t.id_telefono in (select tp.id_telefono from telefono_categoria tp
          join categorias cp on cp.id_categoria = tp.id_categoria
          where cp.categoria = ${categoriaPrueba})`;
  const r = await sql`insert into ejercicio_detalle
      (id_ejercicio, id_telefono, telefono, nombre, id_estado, posicion)
    select ${id}, t.id_telefono, t.telefono, t.nombre, t.id_estado,
      row_number() over (order by ${ordenSql(orden, 't')})
    from telefonos t
    where t.id_estado in (${sql.join(estados)})
      and t.id_telefono in (select tc.id_telefono from telefono_categoria tc
        where tc.id_categoria in (${sql.join(categorias)})) ${prueba}`.execute(k);
  await abrirCola(k, engine, id, 0);
  return Number(r.numAffectedRows ?? 0);
}

const listaLit = (xs: readonly string[]) => sql.join(xs.map((x) => sql.lit(x)));

/**
 * 'Reenviar a no alcanzados' (issue 25.1): writes into `id` one recipient per row of `origen` whose
 * outcome (rules/alcance.ts resultadoDe, in SQL) is one of `propios`, as it stands now, numbered
 * in `orden`: a single INSERT…SELECT. With a fallback (issue 25.2; contract rules/seguimiento.ts
 * copiaSeguimiento) each row is joined to its fallback row (unique index on respaldo_de): a row
 * whose fallback outcome is in `entregados` is left out, and one whose fallback outcome is in
 * `noEntregados` is copied too. A drill without a fallback runs the statement without the join.
 * Returns how many rows were written.
 */
/** A follow-up's selection of its source's rows (copiarDestinatarios): the FROM … WHERE over
 * `ejercicio_detalle d` (with its fallback row `r`), or null when nothing is chosen. */
function filasSeleccion(
  origen: number,
  seleccion: {
    propios: readonly string[];
    respaldo: { entregados: readonly string[]; noEntregados: readonly string[] } | null;
  },
  otras: readonly RawBuilder<unknown>[],
): RawBuilder<unknown> | null {
  const { propios, respaldo } = seleccion;
  const condiciones: RawBuilder<unknown>[] = [...otras];
  if (respaldo === null) {
    if (propios.length) condiciones.push(sql`${resultadoSql('d.')} in (${listaLit(propios)})`);
  } else {
    if (propios.length)
      condiciones.push(sql`(${resultadoSql('d.')} in (${listaLit(propios)})
        and (r.id_detalle is null or ${resultadoSql('r.')} not in (${listaLit(respaldo.entregados)})))`);
    if (respaldo.noEntregados.length)
      condiciones.push(sql`${resultadoSql('r.')} in (${listaLit(respaldo.noEntregados)})`);
  }
  if (condiciones.length === 0) return null;
  return sql`from ejercicio_detalle d
    ${respaldo === null ? sql`` : sql`left join ejercicio_detalle r on r.respaldo_de = d.id_detalle`}
    where d.id_ejercicio = ${origen}
      and (${sql.join(condiciones, sql` or `)})`;
}

/** Issue 48.6: of the rows a follow-up would copy (filasSeleccion), how many, and how many have
 * no WhatsApp 24-hour window open on device `id_equipo` at `ahora` (ventanas_whatsapp: free text
 * does not reach them, Meta refuses it; only an approved template does). */
export async function fueraDeVentana(
  k: Consultor,
  origen: number,
  seleccion: Parameters<typeof filasSeleccion>[1],
  otras: readonly RawBuilder<unknown>[],
  id_equipo: number,
  ahora: number,
): Promise<{ destinatarios: number; fuera: number }> {
  const f = filasSeleccion(origen, seleccion, otras);
  if (!f) return { destinatarios: 0, fuera: 0 };
  const r = await sql<{ n: number | string; fuera: number | string | null }>`select count(*) as n,
      sum(case when exists (select 1 from ventanas_whatsapp v where v.id_equipo = ${id_equipo}
        and v.telefono = d.telefono and v.abierta_hasta > ${ahora}) then 0 else 1 end) as fuera
    ${f}`.execute(k);
  const fila = r.rows[0];
  return { destinatarios: Number(fila?.n ?? 0), fuera: Number(fila?.fuera ?? 0) };
}

export async function copiarDestinatarios(
  k: Consultor,
  id: number,
  origen: number,
  seleccion: {
    propios: readonly string[];
    respaldo: { entregados: readonly string[]; noEntregados: readonly string[] } | null;
  },
  orden: Orden,
  engine: Engine,
  /** More rows to copy (a poll's sets by answer, issue 46.2), OR-ed with the outcomes'. */
  otras: readonly RawBuilder<unknown>[] = [],
): Promise<number> {
  const f = filasSeleccion(origen, seleccion, otras);
  if (!f) return 0;
  const r = await sql`insert into ejercicio_detalle
      (id_ejercicio, id_telefono, telefono, nombre, id_estado, posicion)
    select ${id}, d.id_telefono, d.telefono, d.nombre, d.id_estado,
      row_number() over (order by ${ordenSql(orden, 'd')})
    ${f}`.execute(k);
  await abrirCola(k, engine, id, 0);
  return Number(r.numAffectedRows ?? 0);
}

/** Issue 47.2, 'Enviar corrección' / 'Cancelar alerta': every recipient row of `origen` copied
 * once to exercise `id`, in the original's order (one INSERT…SELECT; its own fallback rows live in
 * a companion exercise and are not copied). Returns how many. */
export async function copiarTodosLosDestinatarios(
  k: Consultor,
  id: number,
  origen: number,
  engine: Engine,
): Promise<number> {
  const r = await sql`insert into ejercicio_detalle
      (id_ejercicio, id_telefono, telefono, nombre, id_estado, posicion)
    select ${id}, d.id_telefono, d.telefono, d.nombre, d.id_estado,
      row_number() over (order by d.posicion, d.id_detalle)
    from ejercicio_detalle d where d.id_ejercicio = ${origen}`.execute(k);
  await abrirCola(k, engine, id, 0);
  return Number(r.numAffectedRows ?? 0);
}

/** The fallback rows (issue 25.2) standing for these recipient rows (unique index on
 * respaldo_de): outcome (estatus and alcance), date and time, by the row they stand for. */
export async function respaldosDeFilas(k: Consultor, ids_detalle: readonly number[]) {
  if (ids_detalle.length === 0) return [];
  return k
    .selectFrom('ejercicio_detalle')
    .select([
      'respaldo_de',
      'estatus as respaldo_estatus',
      'alcance as respaldo_alcance',
      'fecha_envio as respaldo_fecha',
      'hora_envio as respaldo_hora',
    ])
    .where('respaldo_de', 'in', ids_detalle)
    .execute();
}

/** Recipients per outcome of their own and of their fallback row (issue 25.2; null columns when
 * none), for the follow-up sets (contract rules/seguimiento.ts conteoGrupos). Without a fallback
 * the same as conteoPorEstatus. */
export async function conteoSeguimiento(k: Consultor, id: number, conRespaldo: boolean) {
  if (!conRespaldo) return conteoPorEstatus(k, id);
  return k
    .selectFrom('ejercicio_detalle as d')
    .leftJoin('ejercicio_detalle as r', 'r.respaldo_de', 'd.id_detalle')
    .select([
      'd.estatus',
      'd.alcance',
      'r.estatus as respaldo_estatus',
      'r.alcance as respaldo_alcance',
      (eb) => eb.fn.countAll<number>().as('total'),
    ])
    .where('d.id_ejercicio', '=', id)
    .groupBy(['d.estatus', 'd.alcance', 'r.estatus', 'r.alcance'])
    .execute();
}

/**
 * Refreshes the planner statistics of ejercicio_detalle (PostgreSQL only). After a list of a
 * million rows is written, stale statistics (a table "known" to be empty) make the batched
 * reads choose a bitmap scan plus sort per batch, quadratic over an export; ANALYZE samples a
 * fixed number of rows, so it costs the same for any size.
 */
export async function analizarDestinatarios(k: Consultor, engine: Engine) {
  if (engine === 'postgres') await sql`analyze ejercicio_detalle`.execute(k);
}

/** Renumbers the pending recipients 1..n in `orden`; returns how many were renumbered. A row a
 * dispatcher claims meanwhile keeps its position (the claim's frontier, migration 0031, must
 * stay at or past every row in flight): the update checks the row it finds is still pending.
 * The pending rows take positions from 1, below the claim's floor (db/cola.ts abrirCola): in a
 * transaction it comes down first, and the exercise's claims wait for the commit (a claim must
 * not hold the lock while it waits for a row renumbered here); outside one, the rows are
 * committed first and it comes down after. */
export async function renumerarPendientes(
  k: Consultor,
  id: number,
  orden: Orden,
  engine: Engine,
): Promise<number> {
  await abrirCola(k, engine, id, 0);
  const r = await sql`update ejercicio_detalle set posicion = s.rn
    from (select id_detalle, row_number() over (order by ${ordenSql(orden, 'x')}) as rn
          from ejercicio_detalle x
          where x.id_ejercicio = ${id} and ${enCola('pendiente', 'x')}) s
    where ejercicio_detalle.id_detalle = s.id_detalle
      and ejercicio_detalle.estatus = 'pendiente'`.execute(k);
  await abrirCola(k, engine, id, 0);
  return Number(r.numAffectedRows ?? 0);
}

/** Turns the pending recipients into 'cancelado'; returns how many. */
export async function cancelarPendientes(k: Consultor, id: number, ahora: number): Promise<number> {
  const r = await k
    .updateTable('ejercicio_detalle')
    .set({ estatus: 'cancelado', actualizado: ahora })
    .where('id_ejercicio', '=', id)
    .where(enCola('pendiente'))
    .executeTakeFirst();
  // A stop covers the fallback too (issue 25.2): its waiting SMS are cancelled, not counted.
  const companero = await respaldoDe(k, id);
  if (companero)
    await k
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'cancelado', actualizado: ahora })
      .where('id_ejercicio', '=', companero.id_ejercicio)
      .where(enCola('pendiente'))
      .execute();
  return Number(r.numUpdatedRows);
}

/** Recipients per estatus and alcance (how an answered call went), for conteoSemaforo. */
export async function conteoPorEstatus(k: Consultor, id: number) {
  return k
    .selectFrom('ejercicio_detalle')
    .select(['estatus', 'alcance', (eb) => eb.fn.countAll<number>().as('total')])
    .where('id_ejercicio', '=', id)
    .groupBy(['estatus', 'alcance'])
    .execute();
}

/** The report columns of a recipient. */
const COLUMNAS_DETALLE = [
  'id_detalle',
  'telefono',
  'nombre',
  'estatus',
  'intentos',
  'fecha_envio',
  'hora_envio',
  'recibida',
  'motivo',
  'duracion',
  'timbrado',
  'causa',
  'alcance',
  'respondidas',
] as const;

/** A recipient as the reports read it. */
export interface FilaDetalle {
  id_detalle: number;
  telefono: string;
  nombre: string | null;
  estatus: string;
  intentos: number;
  fecha_envio: string | null;
  hora_envio: string | null;
  recibida: number;
  motivo: string | null;
  duracion: number | null;
  /** Calls: seconds the phone rang and the hangup cause. */
  timbrado: number | null;
  causa: number | null;
  /** An answered call: how it went (rules/alcance.ts); a quiz: the questions answered. */
  alcance: string | null;
  respondidas: number | null;
  /** Issue 25.2: the fallback SMS sent to this recipient (its row in the drill's companion):
   * estatus, alcance (a WhatsApp fallback read: 'leido'), date and time; null when none was sent. */
  respaldo_estatus: string | null;
  respaldo_alcance: string | null;
  respaldo_fecha: string | null;
  respaldo_hora: string | null;
}

/** The fallback's columns (issue 25.2), from its row `r` joined by respaldo_de (unique index). */
const COLUMNAS_RESPALDO = [
  'r.estatus as respaldo_estatus',
  'r.alcance as respaldo_alcance',
  'r.fecha_envio as respaldo_fecha',
  'r.hora_envio as respaldo_hora',
] as const;

/** The recipients' columns and their fallback's, from `d` left-joined to `r`. */
const SELECT_DETALLE = `select ${COLUMNAS_DETALLE.map((c) => `d.${c}`).join(', ')}, ${COLUMNAS_RESPALDO.join(', ')}
  from ejercicio_detalle d left join ejercicio_detalle r on r.respaldo_de = d.id_detalle`;

/** One page of recipients in generation order (id_detalle). */
export async function paginaDetalle(
  k: Consultor,
  id: number,
  limit: number,
  offset: number,
): Promise<FilaDetalle[]> {
  return k
    .selectFrom('ejercicio_detalle as d')
    .leftJoin('ejercicio_detalle as r', 'r.respaldo_de', 'd.id_detalle')
    .select(COLUMNAS_DETALLE.map((c) => `d.${c}` as const))
    .select(COLUMNAS_RESPALDO)
    .where('d.id_ejercicio', '=', id)
    .orderBy('d.id_detalle')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Position of each column of COLUMNAS_DETALLE in a line of COPY output. */
const POSICION_DETALLE = Object.fromEntries(
  [
    ...COLUMNAS_DETALLE,
    'respaldo_estatus',
    'respaldo_alcance',
    'respaldo_fecha',
    'respaldo_hora',
  ].map((c, i) => [c, i]),
) as Record<
  | (typeof COLUMNAS_DETALLE)[number]
  | 'respaldo_estatus'
  | 'respaldo_alcance'
  | 'respaldo_fecha'
  | 'respaldo_hora',
  number
>;

/** The recipients of exercise `id` in generation order, in batches of `tamano`, read on PostgreSQL
 * with COPY TO (one statement, raw text: see db/copia-pg.ts). */
export async function* detallePorCopia(
  pool: pg.Pool,
  id: number,
  tamano: number,
): AsyncGenerator<FilaDetalle[]> {
  const consulta = `${SELECT_DETALLE}
    where d.id_ejercicio = ${enteroCopia(id)} order by d.id_detalle`;
  const i = POSICION_DETALLE;
  yield* lotesCopia(pool, consulta, tamano, (c): FilaDetalle => {
    const duracion = deCopia(c[i.duracion]!);
    const timbrado = deCopia(c[i.timbrado]!);
    const causa = deCopia(c[i.causa]!);
    const respondidas = deCopia(c[i.respondidas]!);
    return {
      id_detalle: Number(c[i.id_detalle]),
      telefono: deCopia(c[i.telefono]!)!,
      nombre: deCopia(c[i.nombre]!),
      estatus: deCopia(c[i.estatus]!)!,
      intentos: Number(c[i.intentos]),
      fecha_envio: deCopia(c[i.fecha_envio]!),
      hora_envio: deCopia(c[i.hora_envio]!),
      recibida: Number(c[i.recibida]),
      motivo: deCopia(c[i.motivo]!),
      duracion: duracion === null ? null : Number(duracion),
      timbrado: timbrado === null ? null : Number(timbrado),
      causa: causa === null ? null : Number(causa),
      alcance: deCopia(c[i.alcance]!),
      respondidas: respondidas === null ? null : Number(respondidas),
      respaldo_estatus: deCopia(c[i.respaldo_estatus]!),
      respaldo_alcance: deCopia(c[i.respaldo_alcance]!),
      respaldo_fecha: deCopia(c[i.respaldo_fecha]!),
      respaldo_hora: deCopia(c[i.respaldo_hora]!),
    };
  });
}

/** SQL of the SQLite streaming read (better-sqlite3 `.iterate()`): the same columns, one exercise. */
export const SQL_DETALLE_SQLITE = `${SELECT_DETALLE}
  where d.id_ejercicio = ? order by d.id_detalle`;

/** An audio an exercise plays, as fixed at its start: slot (0 = a call's audio, N = question N),
 * stored name, SHA-256 (hex) and seconds. */
export interface AudioFijado {
  pregunta: number;
  nombre: string;
  sha256: string;
  duracion_s: number;
}

/** Records the audio an exercise plays; a slot already recorded keeps its first record. */
export async function fijarAudios(
  k: Consultor,
  id: number,
  audios: readonly AudioFijado[],
  momento: number,
): Promise<void> {
  if (!audios.length) return;
  const ya = new Set(
    (
      await k
        .selectFrom('audios_ejercicio')
        .select('pregunta')
        .where('id_ejercicio', '=', id)
        .execute()
    ).map((r) => r.pregunta),
  );
  const nuevos = audios.filter((a) => !ya.has(a.pregunta));
  if (!nuevos.length) return;
  await k
    .insertInto('audios_ejercicio')
    .values(nuevos.map((a) => ({ id_ejercicio: id, ...a, registrado: momento })))
    .execute();
}

/** The audio recorded for an exercise, by slot. */
export async function audiosFijados(k: Consultor, id: number): Promise<AudioFijado[]> {
  const filas = await k
    .selectFrom('audios_ejercicio')
    .select(['pregunta', 'nombre', 'sha256', 'duracion_s'])
    .where('id_ejercicio', '=', id)
    .orderBy('pregunta')
    .execute();
  return filas.map((f) => ({
    ...f,
    pregunta: Number(f.pregunta),
    duracion_s: Number(f.duracion_s),
  }));
}
