import { z } from 'zod';
import { ProtocoloSchema } from '../esquemas.ts';
import { msg } from '../messages.ts';
import { problemasEquipo } from '../rules/equipment.ts';
import { endpoint } from './endpoint.ts';
import { IdParamsSchema, OkSchema, texto } from './comun.ts';
import { versionSchema } from '../zod-helpers.ts';

// Devices (ARCHITECTURE 3). Credentials are write-only: stored encrypted, never returned;
// responses say only whether the device has them.

/** Credentials of a device: e.g. {usuario, password} (SMPP, AMI) or {token} (WhatsApp). */
export const CredencialesSchema = z.record(z.string().min(1).max(64), z.string().max(4000));

/** A device as read. `ultimo_contacto` is epoch milliseconds or null. */
export const EquipoSchema = z.object({
  id_equipo: z.number(),
  alias: z.string(),
  serial: z.string(),
  url: z.string(),
  protocolo: ProtocoloSchema,
  puertos: z.number(),
  tasa: z.number(),
  tiene_credenciales: z.boolean(),
  descripcion: z.string().nullable(),
  activo: z.boolean(),
  ultimo_contacto: z.number().nullable(),
  marcado: z.string().nullable(),
  /** Issue 48.3: the version its edit form sends back (a stale one is refused with 409). */
  version: z.number(),
});
/** A device. */
export type EquipoVista = z.infer<typeof EquipoSchema>;

const marcado = z
  .string()
  .trim()
  .max(200)
  .refine((m) => m.includes('{telefono}'), { message: msg('marcadoInvalido') });

/** Body of POST /equipos/. `marcado` applies to 'asterisk' only (default MARCADO_DEFECTO). The
 * url must fit the protocol and the credentials it needs must be there (problemasEquipo: the
 * same rule the web form applies). */
export const CrearEquipoBodySchema = z
  .object({
    alias: texto(100),
    serial: z.string().trim().max(100).default(''),
    url: z.string().trim().max(500).default(''),
    protocolo: ProtocoloSchema,
    puertos: z.number().int().min(1).max(1000).default(1),
    tasa: z.number().positive().max(10000).default(10),
    credenciales: CredencialesSchema.nullish(),
    descripcion: z.string().trim().max(2000).nullish(),
    activo: z.boolean().default(true),
    marcado: marcado.nullish(),
  })
  .superRefine((b, ctx) => {
    for (const p of problemasEquipo(b))
      ctx.addIssue({ code: 'custom', path: p.campo.split('.'), message: p.mensaje });
  });
/** A device to create. */
export type CrearEquipoBody = z.infer<typeof CrearEquipoBodySchema>;

/** Body of PUT /equipos/{id}/: fields present are changed; without `credenciales` the stored
 * ones are kept (cleared instead when `protocolo` or the url's scheme, host or port change:
 * rules/direccion-equipo.ts), with them they are replaced (`null` removes them). When url, protocolo,
 * credenciales or marcado change, the resulting device must pass problemasEquipo (the api
 * checks it against the stored fields), so no protocol is left without what it needs, except
 * for the credentials just cleared by a change of gateway (the answer asks for them again). */
export const ModificarEquipoBodySchema = z.object({
  alias: texto(100).optional(),
  serial: z.string().trim().max(100).optional(),
  url: z.string().trim().max(500).optional(),
  protocolo: ProtocoloSchema.optional(),
  puertos: z.number().int().min(1).max(1000).optional(),
  tasa: z.number().positive().max(10000).optional(),
  credenciales: CredencialesSchema.nullable().optional(),
  descripcion: z.string().trim().max(2000).nullable().optional(),
  activo: z.boolean().optional(),
  marcado: marcado.nullable().optional(),
  /** Issue 48.3: the version the form loaded (absent: saved unchecked). */
  version: versionSchema,
});
/** A change to a device. */
export type ModificarEquipoBody = z.infer<typeof ModificarEquipoBodySchema>;

/** GET /equipos/?q=&protocolo=&activo= */
export const listarEquipos = endpoint({
  method: 'GET',
  path: '/equipos/',
  acceso: 'lectura',
  etiqueta: 'equipos',
  resumen: 'Lista los equipos; q busca en alias, serial y url',
  query: z.object({
    q: z.string().max(200).optional(),
    protocolo: ProtocoloSchema.optional(),
    activo: z.enum(['0', '1']).optional(),
  }),
  respuesta: z.object({ status: z.literal(200), data: z.array(EquipoSchema) }),
});

/** POST /equipos/ */
export const crearEquipo = endpoint({
  method: 'POST',
  path: '/equipos/',
  acceso: 'escritura',
  etiqueta: 'equipos',
  resumen: 'Crea un equipo',
  body: CrearEquipoBodySchema,
  // `aviso_respuestas` (issue 46.1): the device was saved, but its Android phone did not take the
  // replies' webhook; it says why, and that it is retried.
  respuesta: z.object({
    status: z.literal(200),
    id_equipo: z.number(),
    aviso_respuestas: z.string().optional(),
  }),
});

/** GET /equipos/{id}/ */
export const leerEquipo = endpoint({
  method: 'GET',
  path: '/equipos/:id/',
  acceso: 'lectura',
  etiqueta: 'equipos',
  resumen: 'Un equipo (sin credenciales)',
  params: IdParamsSchema,
  respuesta: z.object({ status: z.literal(200), data: EquipoSchema }),
});

/** PUT /equipos/{id}/ */
export const modificarEquipo = endpoint({
  method: 'PUT',
  path: '/equipos/:id/',
  acceso: 'escritura',
  etiqueta: 'equipos',
  resumen:
    'Modifica un equipo; sin credenciales conserva las guardadas, salvo si cambia el protocolo o el esquema, host o puerto de la url',
  params: IdParamsSchema,
  body: ModificarEquipoBodySchema,
  // `credenciales_borradas`: the change moved the device to another gateway without writing its
  // credentials again, so the stored ones were cleared (issue 49.2); `mensaje` says so.
  respuesta: OkSchema.extend({
    credenciales_borradas: z.boolean(),
    aviso_respuestas: z.string().optional(),
  }),
});

/** DELETE /equipos/{id}/: 409 while an exercise uses it. */
export const eliminarEquipo = endpoint({
  method: 'DELETE',
  path: '/equipos/:id/',
  acceso: 'escritura',
  etiqueta: 'equipos',
  resumen: 'Elimina un equipo que ningún ejercicio usa (409 si está en uso)',
  params: IdParamsSchema,
  // `aviso_respuestas` (issue 46.1): deleted, but its Android phone did not remove the replies'
  // webhook; it says why and how to remove it by hand.
  respuesta: OkSchema.extend({ aviso_respuestas: z.string().optional() }),
});

/** How many recent errors GET /equipos/{id}/actividad/ lists. */
export const ERRORES_RECIENTES = 10;

/** One recent failed recipient of a device: its exercise, number, outcome and Spanish reason. */
export const ErrorRecienteSchema = z.object({
  id_ejercicio: z.number(),
  titulo: z.string(),
  telefono: z.string(),
  estatus: z.string(),
  motivo: z.string(),
  fecha_envio: z.string(),
  hora_envio: z.string(),
});
/** One recent failed recipient of a device. */
export type ErrorReciente = z.infer<typeof ErrorRecienteSchema>;

/** GET /equipos/{id}/actividad/: today's sends of the device (by its time zone's date) and their
 * outcomes, and its latest failed recipients with their reasons (the detail page's panel). */
export const actividadEquipo = endpoint({
  method: 'GET',
  path: '/equipos/:id/actividad/',
  acceso: 'lectura',
  etiqueta: 'equipos',
  resumen: 'Envíos de hoy de un equipo por desenlace y sus errores recientes',
  params: IdParamsSchema,
  respuesta: z.object({
    status: z.literal(200),
    hoy: z.object({
      fecha: z.string(),
      total: z.number(),
      por_estatus: z.record(z.string(), z.number()),
    }),
    errores: z.array(ErrorRecienteSchema),
  }),
});
