import { sql, type Kysely, type Transaction, type Insertable, type Updateable } from 'kysely';
import { coincidenTerminos } from '@pregon/contract/rules/busqueda';
import type { DB, EquiposTable } from '@pregon/db/schema';

// SQL of devices. Credentials are read only as "present or not" here, except by leerParaCanal
// (the server-side call that talks to the device's gateway).

type K = Kysely<DB> | Transaction<DB>;

const COLUMNAS = [
  'id_equipo',
  'alias',
  'serial',
  'url',
  'protocolo',
  'puertos',
  'tasa',
  'descripcion',
  'activo',
  'ultimo_contacto',
  'marcado',
  'version',
] as const;

/** Devices matching the filters, by alias, with `tiene` = 1 when credentials are stored. The
 * search `q` compares alias, serial and URL ignoring case and accents (contract rules/busqueda.ts):
 * devices are a handful, so the folding runs here on the rows read rather than in SQL. */
export async function listarEquipos(
  k: K,
  f: { q?: string; protocolo?: string; activo?: number; id?: number } = {},
) {
  let q = k
    .selectFrom('equipos')
    .select(COLUMNAS)
    .select(sql<number>`case when credenciales is null then 0 else 1 end`.as('tiene'))
    .orderBy('alias')
    .orderBy('id_equipo');
  if (f.id !== undefined) q = q.where('id_equipo', '=', f.id);
  if (f.protocolo) q = q.where('protocolo', '=', f.protocolo);
  if (f.activo !== undefined) q = q.where('activo', '=', f.activo);
  const filas = await q.execute();
  return filas.filter((e) => coincidenTerminos([e.alias, e.serial, e.url], f.q));
}

/** Inserts a device and returns its id. */
export const insertarEquipo = async (k: K, e: Insertable<EquiposTable>) =>
  (await k.insertInto('equipos').values(e).returning('id_equipo').executeTakeFirstOrThrow())
    .id_equipo;

/** Changes a device; returns how many rows changed. */
export const actualizarEquipo = async (k: K, id: number, e: Updateable<EquiposTable>) =>
  Number(
    (await k.updateTable('equipos').set(e).where('id_equipo', '=', id).executeTakeFirst())
      .numUpdatedRows,
  );

/** Protocol and dial template of one device, or undefined. */
export const leerBasico = (k: K, id: number) =>
  k
    .selectFrom('equipos')
    .select(['id_equipo', 'alias', 'protocolo', 'marcado', 'url', 'credenciales'])
    .where('id_equipo', '=', id)
    .executeTakeFirst();

/** The fields a channel needs to talk to the device's gateway, credentials included, or undefined. */
export const leerParaCanal = (k: K, id: number) =>
  k
    .selectFrom('equipos')
    .select(['id_equipo', 'alias', 'url', 'protocolo', 'credenciales'])
    .where('id_equipo', '=', id)
    .executeTakeFirst();

/** Deletes a device. */
export const borrarEquipo = (k: K, id: number) =>
  k.deleteFrom('equipos').where('id_equipo', '=', id).execute();

/** How many exercises use a device. */
export const ejerciciosDeEquipo = async (k: K, id: number) =>
  Number(
    (
      await k
        .selectFrom('ejercicios')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('id_equipo', '=', id)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Exercises of device `id` that may have sent since `desde` (epoch ms): started, and not ended
 * before it. Bounds the activity queries to the exercises that matter. */
const ejerciciosRecientes = (k: K, id: number, desde: number) =>
  k
    .selectFrom('ejercicios')
    .select('id_ejercicio')
    .where('id_equipo', '=', id)
    .where('iniciado', 'is not', null)
    .where((eb) => eb.or([eb('terminado', 'is', null), eb('terminado', '>=', desde)]));

/** Recipients of device `id` sent on `fecha` (YYYY-MM-DD), by estatus. */
export function enviosDelDia(k: K, id: number, fecha: string, desde: number) {
  return k
    .selectFrom('ejercicio_detalle')
    .select(['estatus', (eb) => eb.fn.countAll<number>().as('n')])
    .where('id_ejercicio', 'in', ejerciciosRecientes(k, id, desde))
    .where('fecha_envio', '=', fecha)
    .groupBy('estatus')
    .execute();
}

/** The latest `n` recipients of device `id` that failed with a reason. */
export function erroresRecientes(k: K, id: number, desde: number, n: number) {
  return k
    .selectFrom('ejercicio_detalle as d')
    .innerJoin('ejercicios as j', 'j.id_ejercicio', 'd.id_ejercicio')
    .select([
      'd.id_ejercicio',
      'j.titulo',
      'd.telefono',
      'd.estatus',
      'd.motivo',
      'd.fecha_envio',
      'd.hora_envio',
    ])
    .where('d.id_ejercicio', 'in', ejerciciosRecientes(k, id, desde))
    .where('d.estatus', 'in', ['fallido', 'invalido', 'incierto'])
    .where('d.motivo', 'is not', null)
    .where('d.fecha_envio', 'is not', null)
    .orderBy('d.fecha_envio', 'desc')
    .orderBy('d.hora_envio', 'desc')
    .orderBy('d.id_detalle', 'desc')
    .limit(n)
    .execute();
}
