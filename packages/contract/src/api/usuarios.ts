import { z } from 'zod';
import { RolSchema } from '../esquemas.ts';
import { endpoint } from './endpoint.ts';
import { IdParamsSchema, OkSchema, texto } from './comun.ts';
import { versionSchema } from '../zod-helpers.ts';
import { msg } from '../messages.ts';
import { MAX_PASSWORD, MIN_PASSWORD, problemaContrasena } from '../rules/password.ts';

// Users (ARCHITECTURE 3): administrators manage everyone; any user reads and changes their own
// nombre, correo and password. The password is write-only and never returned.

export { MAX_PASSWORD, MIN_PASSWORD };

/** A password as written by a person (rules/password.ts: 8 to 256 characters, not spaces alone,
 * not a common one); its message names the field ('La contraseña es demasiado común…'). */
export const PasswordSchema = z.string().superRefine((p, ctx) => {
  const problema = problemaContrasena(p);
  if (problema)
    ctx.addIssue({
      code: 'custom',
      message: msg(problema.clave, problema.params),
      params: { nombraCampo: true },
    });
});

/** A user as read (never with the password). */
export const UsuarioSchema = z.object({
  id_usuario: z.number(),
  usuario: z.string(),
  nombre: z.string(),
  correo: z.string().nullable(),
  role: z.array(RolSchema),
  activo: z.boolean(),
  creado: z.number(),
  /** Until when repeated wrong passwords hold the user's sign-in back (epoch ms, the latest of
   * their locks); null when nothing holds it. 'Desbloquear' lifts it. */
  bloqueado_hasta: z.number().nullable(),
  /** Issue 48.3: the version its edit form sends back (a stale one is refused with 409). */
  version: z.number(),
});
/** A user. */
export type UsuarioVista = z.infer<typeof UsuarioSchema>;

const correo = z
  .union([z.email().max(200), z.literal('')])
  .nullish()
  .transform((c) => c || null);

/** Body of POST /usuarios/. */
export const CrearUsuarioBodySchema = z.object({
  usuario: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._@-]+$/, 'letras sin acento, dígitos, punto, guion, guion bajo o @'),
  nombre: texto(200),
  correo,
  role: z.array(RolSchema).min(1).max(3),
  activo: z.boolean().default(true),
  password: PasswordSchema,
});
/** A user to create. */
export type CrearUsuarioBody = z.infer<typeof CrearUsuarioBodySchema>;

/** Body of PUT /usuarios/{id}/: every field optional; role and activo only for administrators;
 * a password present is changed. */
export const ModificarUsuarioBodySchema = z.object({
  nombre: texto(200).optional(),
  /** Absent keeps the address; null or '' removes it. */
  correo: z
    .union([z.email().max(200), z.literal('')])
    .nullable()
    .optional(),
  role: z.array(RolSchema).min(1).max(3).optional(),
  activo: z.boolean().optional(),
  password: PasswordSchema.optional(),
  /** Required when users change their own password: the one they have now. */
  password_actual: z.string().max(256).optional(),
  /** Issue 48.3: the version the form loaded (absent: saved unchecked). */
  version: versionSchema,
});
/** A change to a user. */
export type ModificarUsuarioBody = z.infer<typeof ModificarUsuarioBodySchema>;

/** GET /usuarios/ */
export const listarUsuarios = endpoint({
  method: 'GET',
  path: '/usuarios/',
  acceso: 'admin',
  etiqueta: 'usuarios',
  resumen: 'Lista los usuarios (solo administradores)',
  respuesta: z.object({ status: z.literal(200), data: z.array(UsuarioSchema) }),
});

/** POST /usuarios/ */
export const crearUsuario = endpoint({
  method: 'POST',
  path: '/usuarios/',
  acceso: 'admin',
  etiqueta: 'usuarios',
  resumen: 'Crea un usuario (solo administradores); usuario único',
  body: CrearUsuarioBodySchema,
  respuesta: z.object({ status: z.literal(200), id_usuario: z.number() }),
});

/** GET /usuarios/{id}/: an administrator, or the user themself. */
export const leerUsuario = endpoint({
  method: 'GET',
  path: '/usuarios/:id/',
  acceso: 'lectura',
  etiqueta: 'usuarios',
  resumen: 'Un usuario (administradores, o el propio usuario)',
  params: IdParamsSchema,
  respuesta: z.object({ status: z.literal(200), data: UsuarioSchema }),
});

/** PUT /usuarios/{id}/: administrators change anything; a user changes their own nombre, correo
 * and password. The last active administrator cannot be deactivated or demoted (409). */
export const modificarUsuario = endpoint({
  method: 'PUT',
  path: '/usuarios/:id/',
  acceso: 'lectura',
  etiqueta: 'usuarios',
  resumen: 'Modifica un usuario (administradores) o el perfil propio (nombre, correo, contraseña)',
  params: IdParamsSchema,
  body: ModificarUsuarioBodySchema,
  respuesta: OkSchema,
});

/** DELETE /usuarios/{id}/: never the last active administrator (409). */
export const eliminarUsuario = endpoint({
  method: 'DELETE',
  path: '/usuarios/:id/',
  acceso: 'admin',
  etiqueta: 'usuarios',
  resumen: 'Elimina un usuario (solo administradores; nunca el último administrador activo)',
  params: IdParamsSchema,
  respuesta: OkSchema,
});

/** POST /usuarios/{id}/desbloquear/: lifts every sign-in throttle of the user (all addresses),
 * after repeated wrong passwords (issue 17). Administrators only. */
export const desbloquearUsuario = endpoint({
  method: 'POST',
  path: '/usuarios/:id/desbloquear/',
  acceso: 'admin',
  etiqueta: 'usuarios',
  resumen: 'Quita los bloqueos de ingreso de un usuario (solo administradores)',
  params: IdParamsSchema,
  respuesta: OkSchema,
});
