import { sql } from 'kysely';
import type { Consultor } from './ejercicios.ts';

// Aggregate queries of the dashboard summary (GET /reportes/resumen/{id}/).

/** Recipients per state, estatus and alcance. */
export async function conteoPorEstado(k: Consultor, id: number) {
  return consultaPorEstado(k, id).execute();
}

/** The query of conteoPorEstado (for a snapshot of several queries: db/instantanea.ts). */
export function consultaPorEstado(k: Consultor, id: number) {
  return k
    .selectFrom('ejercicio_detalle as d')
    .leftJoin('estados as s', 's.id_estado', 'd.id_estado')
    .select([
      'd.id_estado',
      's.estado',
      's.zona_horaria',
      'd.estatus',
      'd.alcance',
      (eb) => eb.fn.countAll<number>().as('total'),
    ])
    .where('d.id_ejercicio', '=', id)
    .groupBy(['d.id_estado', 's.estado', 's.zona_horaria', 'd.estatus', 'd.alcance']);
}

/** Recipients per category (among the exercise's categories), estatus and alcance. */
export async function conteoPorCategoria(k: Consultor, id: number, categorias: readonly number[]) {
  if (categorias.length === 0) return [];
  return consultaPorCategoria(k, id, categorias).execute();
}

/** The query of conteoPorCategoria (`categorias` not empty). */
export function consultaPorCategoria(k: Consultor, id: number, categorias: readonly number[]) {
  return k
    .selectFrom('ejercicio_detalle as d')
    .innerJoin('telefono_categoria as tc', 'tc.id_telefono', 'd.id_telefono')
    .innerJoin('categorias as c', 'c.id_categoria', 'tc.id_categoria')
    .select([
      'tc.id_categoria',
      'c.categoria',
      'd.estatus',
      'd.alcance',
      (eb) => eb.fn.countAll<number>().as('total'),
    ])
    .where('d.id_ejercicio', '=', id)
    .where('tc.id_categoria', 'in', categorias)
    .groupBy(['tc.id_categoria', 'c.categoria', 'd.estatus', 'd.alcance']);
}

/** Sends per minute of sending ('YYYY-MM-DD HH:mm') with how many were received. */
export async function conteoPorMinuto(k: Consultor, id: number) {
  const r = await sql<{ fecha_envio: string; hm: string; total: number; recibidas: number }>`
    select fecha_envio, substr(hora_envio, 1, 5) as hm, count(*) as total,
      sum(recibida) as recibidas
    from ejercicio_detalle
    where id_ejercicio = ${id} and fecha_envio is not null and hora_envio is not null
    group by fecha_envio, substr(hora_envio, 1, 5)
    order by fecha_envio, hm`.execute(k);
  return r.rows;
}

/** Recipients with a delivery receipt or an answered call. */
export async function contarRecibidas(k: Consultor, id: number): Promise<number> {
  const fila = await consultaRecibidas(k, id).executeTakeFirstOrThrow();
  return Number(fila.n);
}

/** The query of contarRecibidas: one row {n}. */
export function consultaRecibidas(k: Consultor, id: number) {
  return k
    .selectFrom('ejercicio_detalle')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id_ejercicio', '=', id)
    .where('recibida', '=', 1);
}
