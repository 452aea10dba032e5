import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB, ImportacionesTable } from '@pregon/db/schema';

// SQL of import jobs (table importaciones).

type K = Kysely<DB> | Transaction<DB>;

/** Creates a job 'en_proceso' and returns its id. */
export const crearImportacion = async (
  k: K,
  archivo: string,
  creado_por: number | null,
  modo_duplicados = 'omitir',
) =>
  (
    await k
      .insertInto('importaciones')
      .values({ archivo, estatus: 'en_proceso', creado_por, creado: Date.now(), modo_duplicados })
      .returning('id_importacion')
      .executeTakeFirstOrThrow()
  ).id_importacion;

/** One job or undefined. */
export const leerImportacion = (k: K, id: number) =>
  k.selectFrom('importaciones').selectAll().where('id_importacion', '=', id).executeTakeFirst();

/** The last `n` jobs, newest first, with who started them (issue 48.6). */
export const listarRecientes = (k: K, n: number) =>
  k
    .selectFrom('importaciones as i')
    .leftJoin('usuarios as u', 'u.id_usuario', 'i.creado_por')
    .select([
      'i.id_importacion',
      'i.archivo',
      'i.estatus',
      'i.procesadas',
      'i.insertadas',
      'i.duplicadas',
      'i.con_error',
      'i.creado',
      'i.terminado',
      'u.usuario',
    ])
    .orderBy('i.id_importacion', 'desc')
    .limit(n)
    .execute();

/** Changes a job. */
export const actualizarImportacion = (k: K, id: number, c: Updateable<ImportacionesTable>) =>
  k.updateTable('importaciones').set(c).where('id_importacion', '=', id).execute();

/** Marks job `id` 'fallida' with `mensaje` if it is still 'en_proceso' and wrote nothing since
 * `antesDe` (epoch ms); true when it did. The condition is checked by the UPDATE itself, so a job
 * another process is still running (and just advanced) is left alone. */
export async function marcarSinAvance(k: K, id: number, antesDe: number, mensaje: string) {
  const r = await k
    .updateTable('importaciones')
    .set({ estatus: 'fallida', mensaje, terminado: Date.now() })
    .where('id_importacion', '=', id)
    .where('estatus', '=', 'en_proceso')
    .where((eb) => eb(eb.fn.coalesce('actualizado', 'creado'), '<', antesDe))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
