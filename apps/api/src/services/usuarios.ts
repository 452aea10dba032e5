import type {
  CrearUsuarioBody,
  ModificarUsuarioBody,
  UsuarioVista,
} from '@pregon/contract/api/usuarios';
import { ROL_ADMINISTRADOR } from '@pregon/contract/constants';
import type { Transaction, Updateable } from 'kysely';
import type { Contexto } from '../contexto.ts';
import type { Sesion } from '@pregon/servidor/auth/tokens';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { rolesDe } from '@pregon/servidor/auth/autenticar';
import { terminarSesionesDeUsuario } from '../auth/sesiones.ts';
import { ahora } from '@pregon/db/database';
import type { DB, UsuariosTable } from '@pregon/db/schema';
import { error, noEncontrado, prohibido } from '@pregon/servidor/http/errores';
import { auditar } from '../repositories/auditoria.ts';
import * as repo from '../repositories/usuarios.ts';
import { conConflictos } from './paises.ts';
import { tomarVersion } from '../repositories/versiones.ts';

// Users: administrators manage everyone; anyone manages their own nombre, correo and password.
// The last active administrator always survives. Passwords are hashed and never returned or audited.
// Deactivation, deletion and a new password end the user's sessions (issue 22); a change of
// roles ends none, since every request runs with the account's current roles.

const esAdmin = (s: Sesion) => s.role.includes(ROL_ADMINISTRADOR);

/** Presents a user row on the wire (roles as a list, activo as a boolean, the end of a sign-in
 * lock from `bloqueos`, keyed by lower-case user name). */
export function vista(
  u: {
    id_usuario: number;
    usuario: string;
    nombre: string;
    correo: string | null;
    roles: string;
    activo: number;
    creado: number;
    version: number;
  },
  bloqueos: ReadonlyMap<string, number> = new Map(),
): UsuarioVista {
  const role = rolesDe(u.roles);
  return {
    id_usuario: u.id_usuario,
    usuario: u.usuario,
    nombre: u.nombre,
    correo: u.correo,
    role,
    activo: u.activo === 1,
    creado: Number(u.creado),
    bloqueado_hasta: bloqueos.get(u.usuario.toLowerCase()) ?? null,
    version: Number(u.version),
  };
}

const duplicado = (usuario: string) => () =>
  error(409, 'duplicado', { entidad: 'un usuario', campo: 'usuario', valor: usuario }, 'usuario');

/** Every user with their sign-in locks (administrators only, checked by the route's access level). */
export async function listar(ctx: Contexto): Promise<UsuarioVista[]> {
  const bloqueos = await ctx.limitador.bloqueos();
  return (await repo.listarUsuarios(ctx.db.kysely)).map((u) => vista(u, bloqueos));
}

/** One user: administrators read anyone, others only themselves (403). */
export async function leer(ctx: Contexto, sesion: Sesion, id: number): Promise<UsuarioVista> {
  if (!esAdmin(sesion) && sesion.id_usuario !== id) throw prohibido();
  const u = await repo.leerUsuario(ctx.db.kysely, id);
  if (!u) throw noEncontrado('Usuario');
  return vista(u, await ctx.limitador.bloqueos(u.usuario));
}

/** Creates a user with an argon2id hash of the password. */
export async function crear(ctx: Contexto, sesion: Sesion, b: CrearUsuarioBody): Promise<number> {
  const password_hash = await hashPassword(b.password);
  const roles = [...new Set(b.role)].join(',');
  return conConflictos(
    () =>
      ctx.db.kysely.transaction().execute(async (trx) => {
        const id = await repo.insertarUsuario(trx, {
          usuario: b.usuario,
          nombre: b.nombre,
          correo: b.correo,
          password_hash,
          roles,
          activo: b.activo ? 1 : 0,
          creado: ahora(),
        });
        await auditar(trx, sesion, 'crear', 'usuario', id, {
          usuario: b.usuario,
          role: b.role,
          activo: b.activo,
        });
        return id;
      }),
    duplicado(b.usuario),
  );
}

/** Throws 409 when `id` is the last active administrator and would stop being one. */
async function protegerUltimoAdmin(trx: Transaction<DB>, id: number) {
  const admins = await repo.administradoresActivos(trx);
  if (admins.includes(id) && admins.length === 1) throw error(409, 'ultimoAdministrador');
}

/** Users changing their own password must give the current one (400 naming password_actual). */
async function comprobarActual(ctx: Contexto, id: number, b: ModificarUsuarioBody): Promise<void> {
  if (!b.password_actual)
    throw error(400, 'contrasenaActualObligatoria', undefined, 'password_actual');
  const hash = await repo.hashDe(ctx.db.kysely, id);
  if (!hash || !(await verifyPassword(hash, b.password_actual)))
    throw error(400, 'contrasenaActualIncorrecta', undefined, 'password_actual');
}

/** Changes a user. Non-administrators may change only their own nombre, correo and password.
 * Deactivating a user ends all their sessions; a new password ends all but the session that set
 * it, when the user sets their own (they stay signed in where they changed it). */
export async function modificar(
  ctx: Contexto,
  sesion: Sesion,
  id: number,
  b: ModificarUsuarioBody,
): Promise<void> {
  const admin = esAdmin(sesion);
  if (!admin && (sesion.id_usuario !== id || b.role !== undefined || b.activo !== undefined))
    throw prohibido();
  if (b.password !== undefined && sesion.id_usuario === id) await comprobarActual(ctx, id, b);
  const cambios: Updateable<UsuariosTable> = {};
  if (b.nombre !== undefined) cambios.nombre = b.nombre;
  if (b.correo !== undefined) cambios.correo = b.correo || null;
  if (b.role !== undefined) cambios.roles = [...new Set(b.role)].join(',');
  if (b.activo !== undefined) cambios.activo = b.activo ? 1 : 0;
  if (b.password !== undefined) cambios.password_hash = await hashPassword(b.password);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const actual = await repo.leerUsuario(trx, id);
    if (!actual) throw noEncontrado('Usuario');
    // Issue 48.3: a form loaded before someone else's save gets 409, nothing written.
    await tomarVersion(trx, 'usuarios', id, b.version, sesion);
    const dejaDeSerAdmin =
      b.activo === false || (b.role !== undefined && !b.role.includes(ROL_ADMINISTRADOR));
    if (dejaDeSerAdmin) await protegerUltimoAdmin(trx, id);
    if (Object.keys(cambios).length > 0) await repo.actualizarUsuario(trx, id, cambios);
    if (b.activo === false) await terminarSesionesDeUsuario(trx, id);
    else if (b.password !== undefined)
      await terminarSesionesDeUsuario(trx, id, sesion.id_usuario === id ? sesion.sid : undefined);
    const { password: _omitida, password_actual: _actual, version: _version, ...auditado } = b;
    await auditar(trx, sesion, 'modificar', 'usuario', id, {
      ...auditado,
      ...(b.password !== undefined ? { password_cambiada: true } : {}),
    });
  });
}

/** Deletes a user and ends their sessions; never the last active administrator, never one who
 * created exercises (409). */
export async function eliminar(ctx: Contexto, sesion: Sesion, id: number): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const actual = await repo.leerUsuario(trx, id);
    if (!actual) throw noEncontrado('Usuario');
    await protegerUltimoAdmin(trx, id);
    const n = await repo.ejerciciosCreados(trx, id);
    const enUso = () => error(409, 'usuarioEnUso', { usuario: actual.usuario, n });
    if (n > 0) throw enUso();
    await terminarSesionesDeUsuario(trx, id);
    await conConflictos(() => repo.borrarUsuario(trx, id), enUso, enUso);
    await auditar(trx, sesion, 'eliminar', 'usuario', id, { usuario: actual.usuario });
  });
}

/** Lifts a user's sign-in throttling (administrators only, checked by the route), audited. */
export async function desbloquear(ctx: Contexto, sesion: Sesion, id: number): Promise<void> {
  const u = await repo.leerUsuario(ctx.db.kysely, id);
  if (!u) throw noEncontrado('Usuario');
  const claves = await ctx.limitador.desbloquear(u.usuario);
  await auditar(ctx.db.kysely, sesion, 'desbloquear', 'usuario', id, {
    usuario: u.usuario,
    claves,
  });
}
