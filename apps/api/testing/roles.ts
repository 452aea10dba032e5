import { hashPassword } from '../src/auth/passwords.ts';
import type { Rol } from '@pregon/contract/constants';
import { ingresar, type ApiDePrueba } from './entorno.ts';

/** Creates a user with the given role directly in the database and returns a token for it. */
export async function tokenConRol(
  api: ApiDePrueba,
  role: Rol,
  usuario: string = `u_${role}`,
): Promise<{ token: string; id: number }> {
  const password = 'Clave-de-prueba-1';
  const fila = await api.ctx.db.kysely
    .insertInto('usuarios')
    .values({
      usuario,
      nombre: `Usuario ${role}`,
      correo: null,
      password_hash: await hashPassword(password),
      roles: role,
      activo: 1,
      creado: Date.now(),
    })
    .returning('id_usuario')
    .executeTakeFirstOrThrow();
  return { token: await ingresar(api, usuario, password), id: fila.id_usuario };
}
