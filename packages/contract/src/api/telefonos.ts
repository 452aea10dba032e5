import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { IdParamsSchema, OkSchema } from './comun.ts';
import { msg, type ClaveMensaje } from '../messages.ts';
import { enteroSchema, idSchema, listaIdsSchema, versionSchema } from '../zod-helpers.ts';
import { CODIFICACIONES } from '../rules/codificacion.ts';

// Phones (SPEC 7 "Phones" and ARCHITECTURE 3). Numbers are stored in canonical form (rules/phone:
// 10 national digits for Mexico, E.164 otherwise) and are unique.

/** Most phones `GET /telefonos/{estado}/` returns in one response when no `limit` is given;
 * `X-Total-Count` always carries the full count. */
export const MAX_TELEFONOS_LISTA = 10_000;
/** Largest page of `GET /telefonos/`. */
export const MAX_TAMANO_PAGINA = 500;
/** Largest `page` of `GET /telefonos/` (offset paging; deeper pages are read by cursor). */
export const MAX_PAGINA_TELEFONOS = 1_000_000;
/** `GET /telefonos/` counts at most this many matches (then `total_exacto` is false and `total`
 * is 'more than'); searches (q) and pages starting past it count nothing and only say whether another page follows
 * (an empty page past the last counts every match: its OFFSET read them all already). */
export const TOPE_CONTEO_TELEFONOS = 1000;
/** Largest accepted import file. */
export const MAX_MB_IMPORTACION = 200;
/** Row errors an import keeps (all are counted). */
export const MAX_ERRORES_IMPORTACION = 1000;

/** Issue 25.5: what an import does with a phone the directory already has (or an earlier row of
 * the file): skip it (as before), add the row's categories to it, or update its name and state. */
export const MODOS_DUPLICADOS = [
  'omitir',
  'agregar_categorias',
  'reemplazar_categorias',
  'actualizar',
] as const;
/** One way of handling duplicates. */
export type ModoDuplicados = (typeof MODOS_DUPLICADOS)[number];
/** Catalogue label of each way (the import dialog's options). */
export const ETIQUETA_MODO_DUPLICADOS: Readonly<Record<ModoDuplicados, ClaveMensaje>> = {
  omitir: 'duplicadosOmitir',
  agregar_categorias: 'duplicadosAgregarCategorias',
  reemplazar_categorias: 'duplicadosReemplazarCategorias',
  actualizar: 'duplicadosActualizar',
};
/** What the list of duplicate rows says was done with each, per way. */
export const MOTIVO_DUPLICADO: Readonly<Record<ModoDuplicados, ClaveMensaje>> = {
  omitir: 'duplicadoOmitido',
  agregar_categorias: 'duplicadoCategoriasAgregadas',
  reemplazar_categorias: 'duplicadoCategoriasReemplazadas',
  actualizar: 'duplicadoActualizado',
};
/** Issue 48.6: what was done with a row whose phone an earlier row of the same file added. */
export const ACCION_DUPLICADO: Readonly<Record<ModoDuplicados, ClaveMensaje>> = {
  omitir: 'accionOmitida',
  agregar_categorias: 'accionCategoriasAgregadas',
  reemplazar_categorias: 'accionCategoriasReemplazadas',
  actualizar: 'accionActualizada',
};
/** The import's closing summary, per way. */
export const RESUMEN_IMPORTACION: Readonly<Record<ModoDuplicados, ClaveMensaje>> = {
  omitir: 'importacionTerminada',
  agregar_categorias: 'importacionTerminadaCategorias',
  reemplazar_categorias: 'importacionTerminadaReemplazadas',
  actualizar: 'importacionTerminadaActualizados',
};

/** A list of category ids: an array of ids or the SPEC's comma-separated string ('1,2'). */
export const ListaIdsSchema = listaIdsSchema('categorias');

/** A phone as listed by `GET /telefonos/{estado}/`. */
export const TelefonoSchema = z.object({
  id_telefono: z.number(),
  telefono: z.string(),
  nombre: z.string().nullable(),
  id_estado: z.number().nullable(),
  estado: z.string().nullable().optional(),
});
/** A phone. */
export type Telefono = z.infer<typeof TelefonoSchema>;

/** A phone with its categories, as `GET /telefonos/` pages them. */
export const TelefonoDetalleSchema = TelefonoSchema.extend({
  categorias: z.array(z.object({ id_categoria: z.number(), categoria: z.string() })),
  /** Issue 48.3: the version its edit form sends back (a stale one is refused with 409). */
  version: z.number(),
});
/** A phone with its categories. */
export type TelefonoDetalle = z.infer<typeof TelefonoDetalleSchema>;

/** Body of POST /telefono/: the number as people write it; it is normalised by the server. */
export const CrearTelefonoBodySchema = z.object({
  telefono: z.string().trim().min(1).max(40),
  nombre: z
    .string()
    .trim()
    .max(200)
    .nullish()
    .transform((n) => n || null),
  id_estado: idSchema('id_estado'),
  categorias: ListaIdsSchema.default([]),
});
/** A phone to create. */
export type CrearTelefonoBody = z.infer<typeof CrearTelefonoBodySchema>;

/** Body of PUT /telefono/{id}/: fields present are changed; `categorias` replaces the links. */
export const ModificarTelefonoBodySchema = z.object({
  telefono: z.string().trim().min(1).max(40).optional(),
  nombre: z.string().trim().max(200).nullable().optional(),
  id_estado: idSchema('id_estado').optional(),
  categorias: ListaIdsSchema.optional(),
  /** Issue 48.3: the version the form loaded (absent: saved unchecked, as the SPEC's client). */
  version: versionSchema,
});
/** A change to a phone. */
export type ModificarTelefonoBody = z.infer<typeof ModificarTelefonoBodySchema>;

/** POST /telefono/ */
export const crearTelefono = endpoint({
  method: 'POST',
  path: '/telefono/',
  acceso: 'escritura',
  etiqueta: 'telefonos',
  resumen: 'Registra un teléfono (normalizado, único: 409 si ya existe) con sus categorías',
  body: CrearTelefonoBodySchema,
  respuesta: z.object({ status: z.literal(200), id_telefono: z.number() }),
});

/** POST /telefono/categoria/ (idempotent). */
export const vincularCategoria = endpoint({
  method: 'POST',
  path: '/telefono/categoria/',
  acceso: 'escritura',
  etiqueta: 'telefonos',
  resumen: 'Asigna una categoría a un teléfono (idempotente)',
  body: z.object({ id_telefono: idSchema('id_telefono'), id_categoria: idSchema('id_categoria') }),
  respuesta: OkSchema,
});

/** Query of GET /telefonos/{estado}/. */
export const SeleccionQuerySchema = z.object({
  categorias: listaIdsSchema('categorias').optional(),
  /** Issue 24.5: several states (comma list); when given, the path's estado is one of them. */
  estados: listaIdsSchema('estados').optional(),
  limit: z.coerce.number().int().min(1).max(MAX_TELEFONOS_LISTA).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  q: z.string().max(200).optional(),
});

/** GET /telefonos/{estado}/?categorias=1,2: a LIST of the distinct phones of the state holding any
 * of the categories (none without categories). Total in the X-Total-Count header. */
export const seleccionTelefonos = endpoint({
  method: 'GET',
  path: '/telefonos/:estado/',
  acceso: 'lectura',
  etiqueta: 'telefonos',
  resumen: `Teléfonos de un estado con alguna de las categorías; lista (máximo ${MAX_TELEFONOS_LISTA} sin limit), total en X-Total-Count`,
  params: z.object({ estado: idSchema('estado') }),
  query: SeleccionQuerySchema,
  respuesta: z.array(TelefonoSchema),
});

/** The list's filters (search, state or whole country, category), shared by the page, its
 * count and the CSV export. `pais` (issue 48.1: 'Todo México') keeps the phones whose state is
 * one of that country's. */
const FiltrosTelefonosSchema = z.object({
  q: z.string().max(200).optional(),
  estado: idSchema('estado').optional(),
  pais: idSchema('pais').optional(),
  categoria: idSchema('categoria').optional(),
});

/** The paging parameters of GET /telefonos/ that choose which page: at most one of them. */
export const CURSORES_TELEFONOS = ['despues', 'antes', 'ultima'] as const;

/** Query of GET /telefonos/. Keyset (seek) paging, which reads only the page's rows however deep:
 * `despues=<id>` the page after that phone, `antes=<id>` the page before it, `ultima=1` the last
 * page (always `size` rows unless the filter has fewer). Without a cursor, `page` (offset paging,
 * fine for shallow pages, at most MAX_PAGINA_TELEFONOS) picks the page; a page past the last is
 * empty with the exact total; a cursor cannot be combined with another or with page > 1.
 * The cursor phone need not exist any more (deleted): the page is the one around where it was. */
export const BuscarTelefonosQuerySchema = FiltrosTelefonosSchema.extend({
  page: enteroSchema('page', 1, MAX_PAGINA_TELEFONOS).default(1),
  size: enteroSchema('size', 1, MAX_TAMANO_PAGINA).default(10),
  despues: idSchema('despues').optional(),
  antes: idSchema('antes').optional(),
  ultima: z.literal('1').optional(),
}).superRefine((b, ctx) => {
  const dados = CURSORES_TELEFONOS.filter((c) => b[c] !== undefined);
  if (dados.length > 1) {
    ctx.addIssue({
      code: 'custom',
      path: [dados[1]!],
      message: msg('cursoresExcluyentes', { campos: dados.join(', ') }),
    });
  } else if (dados.length === 1 && b.page > 1) {
    ctx.addIssue({
      code: 'custom',
      path: ['page'],
      message: msg('cursorConPagina', { campo: dados[0]! }),
    });
  }
});
/** What GET /telefonos/ is asked. */
export type BuscarTelefonosQuery = z.infer<typeof BuscarTelefonosQuerySchema>;

/** GET /telefonos/?q=&estado=&pais=&categoria=&(page=|despues=|antes=|ultima=1)&size= : server-side paging. */
export const buscarTelefonos = endpoint({
  method: 'GET',
  path: '/telefonos/',
  acceso: 'lectura',
  etiqueta: 'telefonos',
  resumen: `Busca teléfonos con paginación en el servidor por cursor (despues=<id>, antes=<id>, ultima=1) o por page; cada uno con sus categorías. total cuenta hasta ${TOPE_CONTEO_TELEFONOS} coincidencias (las búsquedas con q no se cuentan); con total_exacto false hay más de total. hay_anterior y hay_siguiente dicen si existen las páginas vecinas`,
  query: BuscarTelefonosQuerySchema,
  respuesta: z.object({
    status: z.literal(200),
    data: z.array(TelefonoDetalleSchema),
    /** Matches counted; when `total_exacto` is false there are more than this. */
    total: z.number(),
    total_exacto: z.boolean(),
    /** Some match comes before this page (ask `antes=<first id>`). */
    hay_anterior: z.boolean(),
    /** Some match comes after this page (ask `despues=<last id>`). */
    hay_siguiente: z.boolean(),
  }),
});

/** Query of GET /telefonos/csv/: the list's filters (no paging: every match). */
export const ExportarTelefonosQuerySchema = FiltrosTelefonosSchema;

/** GET /telefonos/csv/?q=&estado=&pais=&categoria= : every phone of the filter as CSV (UTF-8 with BOM:
 * telefono, nombre, estado, categorias), streamed in batches; the web list offers it when the
 * filter has more phones than the browser exports to .xlsx. */
export const exportarTelefonosCsv = endpoint({
  method: 'GET',
  path: '/telefonos/csv/',
  acceso: 'lectura',
  etiqueta: 'telefonos',
  resumen:
    'Exporta como CSV (UTF-8 con BOM) todos los teléfonos del filtro, transmitidos por lotes',
  query: ExportarTelefonosQuerySchema,
  respuesta: z.string(),
});

/** GET /telefonos/conteo/?q=&estado=&pais=&categoria= (issue 26.7): the exact number of phones of a
 * filter, searches included, asked by the list when its page's bounded count (`total_exacto`
 * false) says only 'more than'. On SQLite it is read by a thread of its own, so counting millions
 * never holds the server. */
export const contarTelefonos = endpoint({
  method: 'GET',
  path: '/telefonos/conteo/',
  acceso: 'lectura',
  etiqueta: 'telefonos',
  resumen:
    'Cuenta exactamente los teléfonos del filtro (también con q); la lista lo pide cuando su página dice solo «Más de»',
  query: FiltrosTelefonosSchema,
  respuesta: z.object({ status: z.literal(200), total: z.number() }),
});

/** PUT /telefono/{id}/ */
export const modificarTelefono = endpoint({
  method: 'PUT',
  path: '/telefono/:id/',
  acceso: 'escritura',
  etiqueta: 'telefonos',
  resumen: 'Modifica un teléfono; categorias reemplaza sus categorías',
  params: IdParamsSchema,
  body: ModificarTelefonoBodySchema,
  respuesta: OkSchema,
});

/** DELETE /telefono/{id}/: exercises keep their own copy of the number and name. */
export const eliminarTelefono = endpoint({
  method: 'DELETE',
  path: '/telefono/:id/',
  acceso: 'escritura',
  etiqueta: 'telefonos',
  resumen: 'Elimina un teléfono del directorio; los ejercicios que ya lo tienen conservan su copia',
  params: IdParamsSchema,
  respuesta: OkSchema,
});

/** Largest page of a phone's history. */
export const MAX_PAGINA_HISTORIAL = 100;

/** Query of GET /telefono/{id}/historial/: page (from 1) and size. */
export const HistorialQuerySchema = z.object({
  page: enteroSchema('page', 1, 1_000_000).default(1),
  size: enteroSchema('size', 1, MAX_PAGINA_HISTORIAL).default(20),
});

/** One thing a phone received (issue 25.4): the exercise, its channel, when, the outcome as the
 * reports word it, and a quiz's answers ('1: Sí · 2: No'). */
export const HistorialFilaSchema = z.object({
  id_ejercicio: z.number(),
  ejercicio: z.string(),
  tipo_ejercicio: z.string(),
  fecha_envio: z.string().nullable(),
  hora_envio: z.string().nullable(),
  estatus: z.string(),
  resultado: z.string(),
  intentos: z.number(),
  respuestas: z.string(),
  /** The send's instant (epoch ms) read from fecha_envio and hora_envio in the product's time
   * zone, so the web can lay sends and replies on one timeline; null when nothing was sent. */
  enviado_en: z.number().nullable(),
});

/** One reply the phone sent (issue 46.3/46.4), as its history shows it beside the sends: the
 * text as received, the channel ('smpp', 'android', 'whatsapp') and its list's label, the
 * classification and its Spanish label (the option's text, 'Respuesta no reconocida', 'Baja',
 * 'Alta', 'Sin clasificar'), and the exercise it matched (null: the inbox). */
export const HistorialRespuestaSchema = z.object({
  id_respuesta: z.number(),
  fecha: z.number(),
  canal: z.string(),
  canal_etiqueta: z.string(),
  texto: z.string(),
  tipo: z.enum(['opcion', 'baja', 'alta', 'no_reconocida', 'pendiente']),
  digito: z.number().nullable(),
  etiqueta: z.string(),
  id_ejercicio: z.number().nullable(),
  ejercicio: z.string().nullable(),
});
/** One reply of a phone's history. */
export type HistorialRespuesta = z.infer<typeof HistorialRespuestaSchema>;

/** A list the phone is on (its opt-out state): channel and label, since when, how ('Respuesta
 * del teléfono', 'Operador', 'Importación'), the message that caused it and who added it. */
export const HistorialBajaSchema = z.object({
  canal: z.enum(['sms', 'whatsapp']),
  canal_etiqueta: z.string(),
  fecha: z.number(),
  origen: z.string(),
  texto: z.string().nullable(),
  usuario: z.string().nullable(),
});
/** One opt-out of a phone's history. */
export type HistorialBaja = z.infer<typeof HistorialBajaSchema>;

/** GET /telefono/{id}/historial/?page=&size=: what the phone received and answered across every
 * exercise, newest exercise first, paged on the server from the (id_telefono, id_ejercicio) index. */
export const historialTelefono = endpoint({
  method: 'GET',
  path: '/telefono/:id/historial/',
  acceso: 'lectura',
  etiqueta: 'telefonos',
  resumen:
    'Historial de un teléfono: lo que recibió y respondió en cada ejercicio, del más reciente al más antiguo, paginado',
  params: IdParamsSchema,
  query: HistorialQuerySchema,
  respuesta: z.object({
    status: z.literal(200),
    telefono: z.string(),
    nombre: z.string().nullable(),
    total: z.number(),
    data: z.array(HistorialFilaSchema),
    /** The phone's replies that fall on this page (newest first, at most
     * MAX_RESPUESTAS_HISTORIAL): those received since the page's earliest send (every older one
     * on the last page) and before the previous page's earliest, so each reply shows on exactly
     * one page. */
    respuestas_recibidas: z.array(HistorialRespuestaSchema),
    /** The lists the phone is on now (empty: it receives drills on every channel). */
    bajas: z.array(HistorialBajaSchema),
  }),
});

/** Most replies one page of a phone's history carries. */
export const MAX_RESPUESTAS_HISTORIAL = 200;

/** Import job states. */
export const ESTATUS_IMPORTACION = ['en_proceso', 'terminada', 'fallida'] as const;

/** A rejected import row: its number in the file, the reason and the row's own cells (so the
 * rejected rows can be downloaded, fixed and imported again). */
export const ErrorImportacionSchema = z.object({
  fila: z.number(),
  motivo: z.string(),
  telefono: z.string().optional(),
  nombre: z.string().optional(),
  estado: z.string().optional(),
  categorias: z.string().optional(),
});
/** A rejected import row. */
export type ErrorImportacion = z.infer<typeof ErrorImportacionSchema>;

/** Progress of an import job. `total` is the estimated number of data rows (CSV) or null. */
export const ImportacionSchema = z.object({
  status: z.literal(200),
  id_importacion: z.number(),
  archivo: z.string(),
  estatus: z.enum(ESTATUS_IMPORTACION),
  total: z.number().nullable(),
  procesadas: z.number(),
  insertadas: z.number(),
  duplicadas: z.number(),
  con_error: z.number(),
  errores: z.array(ErrorImportacionSchema),
  /** Issue 25.5: how duplicates were handled, and the duplicate rows (row number, phone, what
   * was done; the first MAX_ERRORES_IMPORTACION, all counted in `duplicadas`). */
  modo_duplicados: z.enum(MODOS_DUPLICADOS),
  filas_duplicadas: z.array(ErrorImportacionSchema),
  mensaje: z.string().nullable(),
});
/** Progress of an import job. */
export type Importacion = z.infer<typeof ImportacionSchema>;

/** Issue 48.6: one of the last imports, as the phones screen lists them (its whole result is
 * GET /telefonos/importar/{id}/). */
export const ImportacionRecienteSchema = z.object({
  id_importacion: z.number(),
  archivo: z.string(),
  estatus: z.enum(ESTATUS_IMPORTACION),
  procesadas: z.number(),
  insertadas: z.number(),
  duplicadas: z.number(),
  con_error: z.number(),
  creado: z.number(),
  terminado: z.number().nullable(),
  /** Who started it (null: an account since deleted). */
  usuario: z.string().nullable(),
});
/** One of the last imports. */
export type ImportacionReciente = z.infer<typeof ImportacionRecienteSchema>;

/** How many imports GET /telefonos/importaciones/ lists. */
export const MAX_IMPORTACIONES_RECIENTES = 10;

/** GET /telefonos/importaciones/: the last imports, newest first (issue 48.6: a dialog closed
 * while its import ran, or a finished import's result, is found again on the phones screen). */
export const importacionesRecientes = endpoint({
  method: 'GET',
  path: '/telefonos/importaciones/',
  acceso: 'lectura',
  etiqueta: 'telefonos',
  resumen: 'Las últimas importaciones de teléfonos con su resultado',
  respuesta: z.object({ status: z.literal(200), data: z.array(ImportacionRecienteSchema) }),
});

/** POST /telefonos/importar/: multipart, field `file` (.csv or .xlsx, first row: telefono, nombre,
 * estado, categorias); optional fields `id_estado` and `categorias` (comma-separated ids) are the
 * defaults for rows without them, and `codificacion` (utf-8, utf-16le, utf-16be, windows-1252) the
 * CSV's encoding when the operator chose it (detected from the file otherwise). Answers at once; the job runs in the background. */
export const importarTelefonos = endpoint({
  method: 'POST',
  path: '/telefonos/importar/',
  acceso: 'escritura',
  etiqueta: 'telefonos',
  resumen:
    'Importa teléfonos de un CSV o XLSX (multipart, campo file); responde de inmediato con id_importacion',
  respuesta: z.object({ status: z.literal(200), id_importacion: z.number() }),
});

/** Fields of the import form besides the file. */
export const ImportarCamposSchema = z.object({
  id_estado: idSchema('id_estado').optional(),
  categorias: ListaIdsSchema.default([]),
  /** The CSV's encoding, when the operator chose one in the dialog (detected otherwise). */
  codificacion: z.enum(CODIFICACIONES).optional(),
  /** Issue 25.5: what to do with phones that already exist ('omitir' unless chosen). */
  duplicados: z
    .enum(MODOS_DUPLICADOS, {
      error: msg('opcionesAdmitidas', { opciones: MODOS_DUPLICADOS.join(', ') }),
    })
    .default('omitir'),
});

/** GET /telefonos/importar/{id}/ */
export const progresoImportacion = endpoint({
  method: 'GET',
  path: '/telefonos/importar/:id/',
  acceso: 'lectura',
  etiqueta: 'telefonos',
  resumen: 'Progreso de una importación',
  params: IdParamsSchema,
  respuesta: ImportacionSchema,
});
