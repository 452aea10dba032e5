import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';

// SQL of server-side sessions (issue 22). A session ends by losing its row.

type K = Kysely<DB> | Transaction<DB>;

/** Most ids per `in (…)` list, well under both engines' parameter limits. */
const LOTE = 500;

/** Records a new session. */
export const insertarSesion = (
  k: K,
  s: { id_sesion: string; id_usuario: number; creada: number; expira: number },
) => k.insertInto('sesiones').values(s).execute();

/** The per-request check: the session's user as it is now (active users only), or undefined
 * when the session ended or its user was deactivated or deleted. One indexed lookup. */
export const sesionConUsuario = (k: K, id_sesion: string) =>
  k
    .selectFrom('sesiones as s')
    .innerJoin('usuarios as u', 'u.id_usuario', 's.id_usuario')
    .select(['u.id_usuario', 'u.usuario', 'u.nombre', 'u.roles'])
    .where('s.id_sesion', '=', id_sesion)
    .where('u.activo', '=', 1)
    .executeTakeFirst();

/** Of the given sessions, the ones still open with an active user, and that user's roles. */
export async function sesionesVigentes(
  k: K,
  ids: readonly string[],
): Promise<{ id_sesion: string; id_usuario: number; roles: string }[]> {
  const filas: { id_sesion: string; id_usuario: number; roles: string }[] = [];
  for (let i = 0; i < ids.length; i += LOTE) {
    filas.push(
      ...(await k
        .selectFrom('sesiones as s')
        .innerJoin('usuarios as u', 'u.id_usuario', 's.id_usuario')
        .select(['s.id_sesion', 'u.id_usuario', 'u.roles'])
        .where('s.id_sesion', 'in', ids.slice(i, i + LOTE))
        .where('u.activo', '=', 1)
        .execute()),
    );
  }
  return filas;
}

/** Ends one session. */
export const borrarSesion = (k: K, id_sesion: string) =>
  k.deleteFrom('sesiones').where('id_sesion', '=', id_sesion).execute();

/** Ends every session of a user, but `excepto` when given. */
export const borrarSesionesDeUsuario = (k: K, id_usuario: number, excepto?: string) => {
  let q = k.deleteFrom('sesiones').where('id_usuario', '=', id_usuario);
  if (excepto) q = q.where('id_sesion', '<>', excepto);
  return q.execute();
};

/** Forgets sessions past their expiry (their tokens are refused by their own exp anyway). */
export const purgarSesionesVencidas = (k: K, ahora: number) =>
  k.deleteFrom('sesiones').where('expira', '<', ahora).execute();
