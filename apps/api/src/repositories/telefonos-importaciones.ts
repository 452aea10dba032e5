import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB, ImportacionesTable } from '../db/schema.ts';

// SQL of import jobs (table importaciones).

type K = Kysely<DB> | Transaction<DB>;

/** Creates a job 'en_proceso' and returns its id. */
export const crearImportacion = async (k: K, archivo: string, creado_por: number | null) =>
  (
    await k
      .insertInto('importaciones')
      .values({ archivo, estatus: 'en_proceso', creado_por, creado: Date.now() })
      .returning('id_importacion')
      .executeTakeFirstOrThrow()
  ).id_importacion;

/** One job or undefined. */
export const leerImportacion = (k: K, id: number) =>
  k.selectFrom('importaciones').selectAll().where('id_importacion', '=', id).executeTakeFirst();

/** Changes a job. */
export const actualizarImportacion = (k: K, id: number, c: Updateable<ImportacionesTable>) =>
  k.updateTable('importaciones').set(c).where('id_importacion', '=', id).execute();
