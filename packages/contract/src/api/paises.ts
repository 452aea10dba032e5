import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { idSchema, listaIdsSchema, versionSchema } from '../zod-helpers.ts';
import { msg } from '../messages.ts';
import { zonaValida } from '../rules/programacion.ts';
import { IdParamsSchema, OkSchema, texto } from './comun.ts';

// Countries, states and categories (ARCHITECTURE 3, calls the SPEC leaves "not shown").

/** A state as read. */
export const EstadoSchema = z.object({
  id_estado: z.number(),
  estado: z.string(),
  id_pais: z.number(),
  pais: z.string().optional(),
  /** IANA zone overriding the contract's table for calling windows (issue 24.4); null: table's. */
  zona_horaria: z.string().nullable().optional(),
});
/** A state. */
export type Estado = z.infer<typeof EstadoSchema>;

/** A country as read; `estados` only in GET /paises/{id}/. */
export const PaisSchema = z.object({
  id_pais: z.number(),
  pais: z.string(),
  codigo_iso: z.string(),
  prefijo: z.string(),
  /** Issue 48.3: the version its edit form sends back (a stale one is refused with 409). */
  version: z.number(),
  estados: z.array(EstadoSchema).optional(),
});
/** A country. */
export type Pais = z.infer<typeof PaisSchema>;

/** Body of POST /paises/ and PUT /paises/{id}/: ISO 3166-1 alpha-2 code and calling prefix. */
export const PaisBodySchema = z.object({
  pais: texto(100),
  codigo_iso: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'dos letras (ISO 3166-1), por ejemplo MX'),
  prefijo: z
    .string()
    .trim()
    .regex(/^\+?\d{1,4}$/, 'de 1 a 4 dígitos, por ejemplo 52')
    .transform((p) => p.replace(/^\+/, '')),
});
/** A country to create or change. */
export type PaisBody = z.infer<typeof PaisBodySchema>;

/** Body of PUT /paises/{id}/: a country's fields and, issue 48.3, the version the form loaded
 * (absent: saved unchecked). */
export const ModificarPaisBodySchema = PaisBodySchema.extend({ version: versionSchema });
/** A change to a country. */
export type ModificarPaisBody = z.infer<typeof ModificarPaisBodySchema>;

/** Body of POST /estados/ and PUT /estados/{id}/. */
export const EstadoBodySchema = z.object({
  estado: texto(100),
  id_pais: idSchema('id_pais'),
  /** Issue 24.4: the state's IANA time zone when the contract's table is not right for it; blank
   * or null clears it, absent keeps it. */
  zona_horaria: z
    .string()
    .trim()
    .nullable()
    .optional()
    .transform((z) => (z === undefined ? undefined : z || null))
    .refine((z) => !z || zonaValida(z), msg('zonaHorariaInvalida')),
});
/** A state to create or change. */
export type EstadoBody = z.infer<typeof EstadoBodySchema>;

/** A category as read, with how many phones hold it. */
export const CategoriaSchema = z.object({
  id_categoria: z.number(),
  categoria: z.string(),
  telefonos: z.number(),
});
/** A category. */
export type Categoria = z.infer<typeof CategoriaSchema>;

/** Body of POST /categorias/ and PUT /categorias/{id}/. */
export const CategoriaBodySchema = z.object({ categoria: texto(100) });
/** A category to create or change. */
export type CategoriaBody = z.infer<typeof CategoriaBodySchema>;

/** GET /paises/ */
export const listarPaises = endpoint({
  method: 'GET',
  path: '/paises/',
  acceso: 'lectura',
  etiqueta: 'paises',
  resumen: 'Lista los países',
  respuesta: z.object({ status: z.literal(200), data: z.array(PaisSchema) }),
});

/** POST /paises/ */
export const crearPais = endpoint({
  method: 'POST',
  path: '/paises/',
  acceso: 'escritura',
  etiqueta: 'paises',
  resumen: 'Crea un país; nombre y código ISO únicos (409 si ya existen)',
  body: PaisBodySchema,
  respuesta: z.object({ status: z.literal(200), id_pais: z.number() }),
});

/** GET /paises/{id}/ with its states. */
export const leerPais = endpoint({
  method: 'GET',
  path: '/paises/:id/',
  acceso: 'lectura',
  etiqueta: 'paises',
  resumen: 'Un país con sus estados',
  params: IdParamsSchema,
  respuesta: z.object({ status: z.literal(200), data: PaisSchema }),
});

/** PUT /paises/{id}/ */
export const modificarPais = endpoint({
  method: 'PUT',
  path: '/paises/:id/',
  acceso: 'escritura',
  etiqueta: 'paises',
  resumen: 'Modifica un país',
  params: IdParamsSchema,
  body: ModificarPaisBodySchema,
  respuesta: OkSchema,
});

/** DELETE /paises/{id}/: 409 while the country has states. */
export const eliminarPais = endpoint({
  method: 'DELETE',
  path: '/paises/:id/',
  acceso: 'escritura',
  etiqueta: 'paises',
  resumen: 'Elimina un país sin estados (409 si aún tiene estados)',
  params: IdParamsSchema,
  respuesta: OkSchema,
});

/** GET /estados/?id_pais= */
export const listarEstados = endpoint({
  method: 'GET',
  path: '/estados/',
  acceso: 'lectura',
  etiqueta: 'paises',
  resumen: 'Lista los estados, opcionalmente de un país',
  query: z.object({ id_pais: idSchema('id_pais').optional() }),
  respuesta: z.object({ status: z.literal(200), data: z.array(EstadoSchema) }),
});

/** POST /estados/ */
export const crearEstado = endpoint({
  method: 'POST',
  path: '/estados/',
  acceso: 'escritura',
  etiqueta: 'paises',
  resumen: 'Crea un estado de un país; nombre único dentro del país',
  body: EstadoBodySchema,
  respuesta: z.object({ status: z.literal(200), id_estado: z.number() }),
});

/** PUT /estados/{id}/ */
export const modificarEstado = endpoint({
  method: 'PUT',
  path: '/estados/:id/',
  acceso: 'escritura',
  etiqueta: 'paises',
  resumen: 'Modifica un estado',
  params: IdParamsSchema,
  body: EstadoBodySchema,
  respuesta: OkSchema,
});

/** DELETE /estados/{id}/: 409 while phones or exercises use it. */
export const eliminarEstado = endpoint({
  method: 'DELETE',
  path: '/estados/:id/',
  acceso: 'escritura',
  etiqueta: 'paises',
  resumen: 'Elimina un estado sin teléfonos ni ejercicios (409 si está en uso)',
  params: IdParamsSchema,
  respuesta: OkSchema,
});

/** GET /categorias/ with phone counts. */
export const listarCategorias = endpoint({
  method: 'GET',
  path: '/categorias/',
  acceso: 'lectura',
  etiqueta: 'paises',
  resumen: 'Lista las categorías con el número de teléfonos de cada una',
  respuesta: z.object({ status: z.literal(200), data: z.array(CategoriaSchema) }),
});

/** POST /categorias/ */
export const crearCategoria = endpoint({
  method: 'POST',
  path: '/categorias/',
  acceso: 'escritura',
  etiqueta: 'paises',
  resumen: 'Crea una categoría; nombre único',
  body: CategoriaBodySchema,
  respuesta: z.object({ status: z.literal(200), id_categoria: z.number() }),
});

/** PUT /categorias/{id}/ */
export const modificarCategoria = endpoint({
  method: 'PUT',
  path: '/categorias/:id/',
  acceso: 'escritura',
  etiqueta: 'paises',
  resumen: 'Renombra una categoría',
  params: IdParamsSchema,
  body: CategoriaBodySchema,
  respuesta: OkSchema,
});

/** DELETE /categorias/{id}/: 409 while phones or exercises use it. */
export const eliminarCategoria = endpoint({
  method: 'DELETE',
  path: '/categorias/:id/',
  acceso: 'escritura',
  etiqueta: 'paises',
  resumen: 'Elimina una categoría sin teléfonos ni ejercicios (409 si está en uso)',
  params: IdParamsSchema,
  respuesta: OkSchema,
});

/** A country an exercise's recipients are in, and how many (issue 48.1). */
export const PaisContadoSchema = z.object({ id_pais: z.number(), pais: z.string(), n: z.number() });

/** GET /ejercicio/paises/{id}/: the exercise's recipients per country, and the start
 * confirmation's warning when they are in more than one. */
export const paisesDeEjercicio = endpoint({
  method: 'GET',
  path: '/ejercicio/paises/:id/',
  acceso: 'lectura',
  etiqueta: 'ejercicios',
  resumen: 'Los destinatarios del ejercicio por país, y el aviso cuando son de más de uno',
  params: IdParamsSchema,
  respuesta: z.object({
    status: z.literal(200),
    id_ejercicio: z.number(),
    /** Recipients per country, most first (recipients without a state are left out). */
    paises: z.array(PaisContadoSchema),
    /** 'Este ejercicio llegará a 2 países: México: 13, Guatemala: 1'; null for one country. */
    aviso: z.string().nullable(),
  }),
});

/** Query of GET /telefonos/paises/: a selection not saved yet, as the create dialog holds it. */
export const PaisesDeSeleccionQuerySchema = z.object({
  estados: listaIdsSchema('estados'),
  /** Any of these categories; none selects nobody (as GET /telefonos/{estado}/). */
  categorias: listaIdsSchema('categorias').optional(),
});

/** GET /telefonos/paises/?estados=&categorias= (issue 48.1): the recipients a selection not saved
 * yet would reach, per country, and the create dialog's warning when they are in more than one
 * (the same count and text as GET /ejercicio/paises/{id}/ for a saved one). */
export const paisesDeSeleccionTelefonos = endpoint({
  method: 'GET',
  path: '/telefonos/paises/',
  acceso: 'lectura',
  etiqueta: 'telefonos',
  resumen:
    'Los teléfonos de una selección (estados y categorías) por país, y el aviso cuando son de más de uno',
  query: PaisesDeSeleccionQuerySchema,
  respuesta: z.object({
    status: z.literal(200),
    /** Phones per country, most first. */
    paises: z.array(PaisContadoSchema),
    /** 'Este ejercicio llegará a 2 países: México: 13, Guatemala: 1'; null for one country. */
    aviso: z.string().nullable(),
  }),
});
