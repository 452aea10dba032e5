import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB, NuevoUsuario, UsuariosTable } from '@pregon/db/schema';

// SQL of users. The password hash is read only where a service needs it, never listed.

type K = Kysely<DB> | Transaction<DB>;

const COLUMNAS = [
  'id_usuario',
  'usuario',
  'nombre',
  'correo',
  'roles',
  'activo',
  'creado',
  'version',
] as const;

/** The user signing in as `usuario`, with its password hash (sign-in only). */
export const usuarioParaIngreso = (k: K, usuario: string) =>
  k.selectFrom('usuarios').selectAll().where('usuario', '=', usuario).executeTakeFirst();

/** Every user (without the hash), by user name. */
export const listarUsuarios = (k: K) =>
  k.selectFrom('usuarios').select(COLUMNAS).orderBy('usuario').execute();

/** One user (without the hash) or undefined. */
export const leerUsuario = (k: K, id: number) =>
  k.selectFrom('usuarios').select(COLUMNAS).where('id_usuario', '=', id).executeTakeFirst();

/** The password hash of a user, or undefined. */
export const hashDe = async (k: K, id: number) =>
  (
    await k
      .selectFrom('usuarios')
      .select('password_hash')
      .where('id_usuario', '=', id)
      .executeTakeFirst()
  )?.password_hash;

/** Inserts a user and returns its id. */
export const insertarUsuario = async (k: K, u: NuevoUsuario) =>
  (await k.insertInto('usuarios').values(u).returning('id_usuario').executeTakeFirstOrThrow())
    .id_usuario;

/** Changes a user. */
export const actualizarUsuario = (k: K, id: number, cambios: Updateable<UsuariosTable>) =>
  k.updateTable('usuarios').set(cambios).where('id_usuario', '=', id).execute();

/** Deletes a user. */
export const borrarUsuario = (k: K, id: number) =>
  k.deleteFrom('usuarios').where('id_usuario', '=', id).execute();

/** Ids of the active users holding the administrators role. */
export async function administradoresActivos(k: K): Promise<number[]> {
  const filas = await k
    .selectFrom('usuarios')
    .select(['id_usuario', 'roles'])
    .where('activo', '=', 1)
    .execute();
  return filas
    .filter((f) => f.roles.split(',').some((r) => r.trim() === 'administradores'))
    .map((f) => f.id_usuario);
}

/** How many exercises a user created. */
export const ejerciciosCreados = async (k: K, id: number) =>
  Number(
    (
      await k
        .selectFrom('ejercicios')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('creado_por', '=', id)
        .executeTakeFirstOrThrow()
    ).n,
  );
