import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setImmediate as ceder } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import {
  ImportarCamposSchema,
  MAX_ERRORES_IMPORTACION,
  MAX_IMPORTACIONES_RECIENTES,
  MAX_MB_IMPORTACION,
  ACCION_DUPLICADO,
  MOTIVO_DUPLICADO,
  RESUMEN_IMPORTACION,
  type ErrorImportacion,
  type Importacion,
  type ImportacionReciente,
  type ModoDuplicados,
} from '@pregon/contract/api/telefonos';
import { msg } from '@pregon/contract/messages';
import type { Codificacion } from '@pregon/contract/rules/codificacion';
import type { Contexto } from '../contexto.ts';
import type { Sesion } from '@pregon/servidor/auth/tokens';
import { error, HttpError } from '@pregon/servidor/http/errores';
import { auditar } from '../repositories/auditoria.ts';
import { catalogoImportacion } from '../repositories/paises.ts';
import * as jobs from '../repositories/telefonos-importaciones.ts';
import {
  abrirEscritor,
  type EscritorMasivo,
  type FilaMasiva,
} from '../repositories/telefonos-masivo.ts';
import {
  SIN_ESTADO,
  SinColumnaTelefono,
  type CatalogoImportacion,
  type LoteValidado,
  type OrigenLotes,
  type TipoArchivo,
} from './importacion-filas.ts';
import { borrarCopias, lotesEnHilo } from './importacion-hilo.ts';
import { contarLineas } from './importacion-lectores.ts';
import { exigirEstadoYCategorias } from './paises.ts';
import { LimiteImportacion, revisarZip } from './xlsx-lector.ts';

export type { TipoArchivo } from './importacion-filas.ts';

// Bulk phone import (ARCHITECTURE 3): the upload is written to a temp file under DATA_DIR, the
// request is answered with the job id, and the file is read as a stream in the background in
// batches of LOTE rows, each batch one transaction, yielding to the event loop between batches.
// The reading runs in a thread with its own heap limit, and what a file may expand to is bounded
// (issue 49.1: importacion-hilo.ts, xlsx-lector.ts, contract constants.ts).
// On SQLite a large import's WAL is checkpointed from another thread (db/checkpoints.ts).

/** Rows per batch (one transaction each) on SQLite, where a batch holds the only connection: each
 * commit rewrites every index page the batch touched (the phone number index is touched all over),
 * so larger batches write less. 50,000 rows: ~0.37 s per batch into a million-phone directory
 * (20,000: ~0.15 s, but ~10 % fewer rows per second). */
export const LOTE = 50_000;
/** Files from this size on get SQLite's checkpoints in a thread (starting one costs ~0.2 s). */
export const CHECKPOINTS_EN_HILO_DESDE_BYTES = 4 << 20;
/** On PostgreSQL, a job that has written no batch for this long is taken as stopped (its api
 * process died); a batch takes about a second. */
export const IMPORTACION_SIN_AVANCE_MS = 5 * 60_000;
/** Rows per batch on PostgreSQL, where a batch runs on its own connection and the others serve. */
export const LOTE_POSTGRES = 20_000;
/** Where and what to import. */
export interface TrabajoImportacion {
  id_importacion: number;
  ruta: string;
  tipo: TipoArchivo;
  /** The CSV's encoding as the operator chose it (detected from the file when not given). */
  codificacion?: Codificacion;
  /** State of rows without one. */
  id_estado?: number;
  /** Categories of rows without any. */
  categorias: number[];
  /** Issue 25.5: what to do with phones that exist ('omitir' when absent). */
  duplicados?: ModoDuplicados;
  quien: { id_usuario: number; usuario: string } | null;
  /** Delete the file when done (the uploaded temp file). */
  borrarAlTerminar?: boolean;
}

// Estimated data rows of the jobs running in this process (CSV only), for the progress bar.
const totales = new Map<number, number>();
// Jobs running in this process.
const enCurso = new Set<number>();

/** Counters of a job. */
interface Cuenta {
  procesadas: number;
  insertadas: number;
  duplicadas: number;
  con_error: number;
  errores: ErrorImportacion[];
  erroresCambiaron: boolean;
  /** The first MAX_ERRORES_IMPORTACION duplicate rows, with what was done to each. */
  filasDuplicadas: ErrorImportacion[];
}

function mensajeProgreso(c: Cuenta, total: number | undefined) {
  return total === undefined
    ? msg('importacionEnCursoSinTotal', { procesados: c.procesadas })
    : msg('importacionEnCurso', { procesados: c.procesadas, total: Math.max(total, c.procesadas) });
}

/** Runs an import job to the end: reads, validates, writes batches, records progress and outcome.
 * Never throws: a failure marks the job 'fallida' with a Spanish reason. */
export async function ejecutarImportacion(ctx: Contexto, t: TrabajoImportacion): Promise<void> {
  const c: Cuenta = {
    procesadas: 0,
    insertadas: 0,
    duplicadas: 0,
    con_error: 0,
    errores: [],
    erroresCambiaron: false,
    filasDuplicadas: [],
  };
  const modo = t.duplicados ?? 'omitir';
  const motivoDuplicado = msg(MOTIVO_DUPLICADO[modo]);
  const k = ctx.db.kysely;
  // Issue 48.6: a phone this job inserted (creado from now on) that comes again is a repeat
  // inside the file, not a phone that already existed.
  const inicio = Date.now();
  let escritor: Awaited<ReturnType<typeof abrirEscritor>> | undefined;
  enCurso.add(t.id_importacion);
  try {
    const total = t.tipo === 'csv' ? await contarLineas(t.ruta) : undefined;
    if (total !== undefined) totales.set(t.id_importacion, total);
    const catalogo = await catalogoImportacion(k);
    // For a large file SQLite's checkpoints run in their own thread meanwhile (db/checkpoints.ts).
    const grande = (await fs.promises.stat(t.ruta)).size >= CHECKPOINTS_EN_HILO_DESDE_BYTES;
    escritor = await abrirEscritor(ctx.db, t.id_importacion, {
      checkpointsEnHilo: grande,
      duplicados: modo,
    });
    const origen: OrigenLotes = {
      ruta: t.ruta,
      tipo: t.tipo,
      codificacion: t.codificacion,
      catalogo,
      porDefecto: { id_estado: t.id_estado, categorias: t.categorias },
      lote: ctx.db.engine === 'postgres' ? LOTE_POSTGRES : LOTE,
      estadoOpcional: modo === 'agregar_categorias' || modo === 'reemplazar_categorias',
    };
    const nombreEstado = new Map(catalogo.estados.map((e) => [e.id_estado, e.estado] as const));
    const nombreCategoria = new Map(
      catalogo.categorias.map((x) => [x.id_categoria, x.categoria] as const),
    );
    for await (const l of lotesEnHilo(origen)) {
      // Issue 45.3: a row of an existing phone needs no state; a new one needs the file's or the default.
      const motivos =
        modo === 'agregar_categorias' || modo === 'reemplazar_categorias'
          ? await estadosAlAgregar(k, l, t.id_estado, catalogo, c.errores.length, modo)
          : undefined;
      // Issue 48.6: 'Actualizar nombre y estado' says so only of phones it changed; their values
      // before the batch, while duplicate rows are still being listed.
      const previos =
        modo === 'actualizar' && c.filasDuplicadas.length < MAX_ERRORES_IMPORTACION
          ? await leerExistentes(
              k,
              l.filas.map((f) => f.telefono),
            )
          : undefined;
      const listadas: { d: ErrorImportacion; f: FilaMasiva; propio: boolean }[] = [];
      // lotesValidados already keeps only the first MAX_ERRORES_IMPORTACION reasons of the file.
      c.con_error += l.con_error;
      if (l.errores.length > 0) {
        c.errores.push(...l.errores);
        c.erroresCambiaron = true;
      }
      await escribirLote(escritor, l.filas, (r) => {
        c.procesadas += l.procesadas;
        c.insertadas += r.insertadas;
        c.duplicadas += r.duplicadas;
        for (const i of r.indicesDuplicados) {
          if (c.filasDuplicadas.length >= MAX_ERRORES_IMPORTACION) break;
          const f = l.filas[i]!;
          // Issue 48.6: the row keeps its state and categories, so the file can be imported again.
          const estado = nombreEstado.get(f.id_estado);
          const categorias = f.categorias.map((x) => nombreCategoria.get(x) ?? String(x));
          const d: ErrorImportacion = {
            fila: f.fila ?? 0,
            motivo: motivos?.get(i) ?? motivoDuplicado,
            telefono: f.telefono,
            ...(f.nombre ? { nombre: f.nombre } : {}),
            ...(estado ? { estado } : {}),
            ...(categorias.length ? { categorias: categorias.join(',') } : {}),
          };
          c.filasDuplicadas.push(d);
          listadas.push({ d, f, propio: motivos?.has(i) ?? false });
        }
        const errores = c.erroresCambiaron ? JSON.stringify(c.errores) : null;
        c.erroresCambiaron = false;
        return { ...c, errores, mensaje: mensajeProgreso(c, total) };
      });
      await precisarDuplicados(k, listadas, inicio, modo, previos);
      // The upload's date says it is in use (limpiarImportaciones leaves it alone).
      if (t.borrarAlTerminar)
        await fs.promises.utimes(t.ruta, new Date(), new Date()).catch(() => {});
      await ceder();
    }
    // The temp file goes before the job reads 'terminada', so whoever sees the end sees it gone.
    await borrarArchivo(t);
    totales.delete(t.id_importacion);
    const mensaje = msg(RESUMEN_IMPORTACION[modo], {
      insertados: c.insertadas,
      duplicados: c.duplicadas,
      errores: c.con_error,
    });
    await k.transaction().execute(async (trx) => {
      await jobs.actualizarImportacion(trx, t.id_importacion, {
        estatus: 'terminada',
        procesadas: c.procesadas,
        insertadas: c.insertadas,
        duplicadas: c.duplicadas,
        con_error: c.con_error,
        errores: JSON.stringify(c.errores),
        filas_duplicadas: JSON.stringify(c.filasDuplicadas),
        mensaje,
        terminado: Date.now(),
      });
      await auditar(trx, t.quien, 'importar', 'importacion', t.id_importacion, {
        estatus: 'terminada',
        procesadas: c.procesadas,
        insertadas: c.insertadas,
        duplicadas: c.duplicadas,
        con_error: c.con_error,
      });
    });
  } catch (falla) {
    let e = falla;
    totales.delete(t.id_importacion);
    await borrarArchivo(t).catch(() => {});
    if (e instanceof SinColumnaTelefono) e = error(400, 'importacionSinTelefono');
    const detalle =
      e instanceof HttpError
        ? e.message
        : e instanceof ErrorEscritura
          ? msg('errorInterno')
          : msg('archivoIlegible', { tipo: t.tipo.toUpperCase() });
    if (!(e instanceof HttpError)) console.error(`importación ${t.id_importacion} falló:`, e);
    await k
      .transaction()
      .execute(async (trx) => {
        await jobs.actualizarImportacion(trx, t.id_importacion, {
          estatus: 'fallida',
          mensaje: msg('importacionFallida', { detalle }).slice(0, 500),
          errores: JSON.stringify(c.errores),
          filas_duplicadas: JSON.stringify(c.filasDuplicadas),
          terminado: Date.now(),
        });
        await auditar(trx, t.quien, 'importar', 'importacion', t.id_importacion, {
          estatus: 'fallida',
          detalle,
        });
      })
      .catch((e2) => console.error('no se pudo marcar la importación como fallida:', e2));
  } finally {
    enCurso.delete(t.id_importacion);
    await escritor?.cerrar().catch(() => {});
    await borrarArchivo(t).catch(() => {});
  }
}

/** Phones an import looks up per statement (SQLite's limit of bound values is far above). */
const TELEFONOS_POR_CONSULTA = 500;

/** A phone of the directory as the import looks it up. */
interface Existente {
  nombre: string | null;
  id_estado: number | null;
  creado: number;
}

/** The phones of `numeros` that exist, by number (one statement per TELEFONOS_POR_CONSULTA). */
async function leerExistentes(k: Contexto['db']['kysely'], numeros: Iterable<string>) {
  const lista = [...new Set(numeros)];
  const r = new Map<string, Existente>();
  for (let i = 0; i < lista.length; i += TELEFONOS_POR_CONSULTA) {
    const filas = await k
      .selectFrom('telefonos')
      .select(['telefono', 'nombre', 'id_estado', 'creado'])
      .where('telefono', 'in', lista.slice(i, i + TELEFONOS_POR_CONSULTA))
      .execute();
    for (const f of filas)
      r.set(f.telefono, { nombre: f.nombre, id_estado: f.id_estado, creado: Number(f.creado) });
  }
  return r;
}

/**
 * Issue 48.6: what the list of duplicates says of each row the batch listed. A phone created since
 * the job began (`inicio`: this import inserted it from an earlier row) is a repeat inside the
 * file, not 'ya existía'; with 'Actualizar nombre y estado', a phone whose name and state were
 * already the row's (`previos`) is said to be unchanged. Rows with a reason of their own (a state
 * not applied, issue 45.3) keep it. Only the listed rows are looked up.
 */
async function precisarDuplicados(
  k: Contexto['db']['kysely'],
  listadas: readonly { d: ErrorImportacion; f: FilaMasiva; propio: boolean }[],
  inicio: number,
  modo: ModoDuplicados,
  previos: Map<string, Existente> | undefined,
) {
  const sinMotivo = listadas.filter((x) => !x.propio);
  if (sinMotivo.length === 0) return;
  const ahora = await leerExistentes(
    k,
    sinMotivo.map((x) => x.f.telefono),
  );
  for (const { d, f } of sinMotivo) {
    const previo = previos?.get(f.telefono);
    const enArchivo = (ahora.get(f.telefono)?.creado ?? 0) >= inicio;
    if (enArchivo) d.motivo = msg('duplicadoEnArchivo', { accion: msg(ACCION_DUPLICADO[modo]) });
    else if (
      modo === 'actualizar' &&
      previo &&
      // A row without a name leaves the name as it is (the writer's rule).
      (!f.nombre || previo.nombre === f.nombre) &&
      previo.id_estado === f.id_estado
    )
      d.motivo = msg('duplicadoSinCambios');
  }
}

/**
 * Issue 45.3, 'Agregar categorías a los teléfonos existentes': the rows came with the file's state
 * or SIN_ESTADO (importacion-filas estadoOpcional). A row whose phone exists (in the directory, or
 * as a new phone of an earlier row of the batch) needs no state: it gets the phone's own, which
 * the write leaves as it is; when the file names another state, the row's entry in the list of
 * duplicates says so (returned by the row's index in `l.filas`), nothing is silently applied. A
 * row whose phone is new takes the file's state, else the form's, else it is rejected as
 * 'Estado obligatorio' (counted and listed like the reader's errors, up to
 * MAX_ERRORES_IMPORTACION with `detallados` already listed). A phone deleted between this look-up
 * and the batch's write is inserted with the state it had.
 */
async function estadosAlAgregar(
  k: Contexto['db']['kysely'],
  l: LoteValidado,
  porDefecto: number | undefined,
  catalogo: CatalogoImportacion,
  detallados: number,
  modo: ModoDuplicados,
): Promise<Map<number, string>> {
  const existentes = new Map<string, number | null>();
  for (const [telefono, f] of await leerExistentes(
    k,
    l.filas.map((x) => x.telefono),
  ))
    existentes.set(telefono, f.id_estado);
  const nombre = new Map(catalogo.estados.map((e) => [e.id_estado, e.estado] as const));
  // Any state of the catalogue: the id a row of an existing phone without a state carries (the
  // write never applies it, but checks that it exists).
  const cualquiera = porDefecto ?? catalogo.estados[0]?.id_estado ?? SIN_ESTADO;
  const motivos = new Map<number, string>();
  const quedan: typeof l.filas = [];
  const errores: ErrorImportacion[] = [];
  for (const f of l.filas) {
    if (existentes.has(f.telefono)) {
      const actual = existentes.get(f.telefono) ?? null;
      if (f.id_estado !== SIN_ESTADO && f.id_estado !== actual)
        motivos.set(
          quedan.length,
          msg(
            modo === 'reemplazar_categorias'
              ? 'duplicadoEstadoNoAplicadoReemplazo'
              : 'duplicadoEstadoNoAplicado',
            {
              estado: nombre.get(f.id_estado) ?? String(f.id_estado),
              actual: actual === null ? msg('sinEstado') : (nombre.get(actual) ?? String(actual)),
            },
          ),
        );
      f.id_estado = actual ?? (f.id_estado !== SIN_ESTADO ? f.id_estado : cualquiera);
      quedan.push(f);
      continue;
    }
    const id = f.id_estado !== SIN_ESTADO ? f.id_estado : porDefecto;
    if (id === undefined) {
      l.con_error++;
      if (detallados + l.errores.length + errores.length < MAX_ERRORES_IMPORTACION)
        errores.push({
          fila: f.fila ?? 0,
          motivo: msg('estadoObligatorio'),
          telefono: f.telefono,
          ...(f.nombre ? { nombre: f.nombre } : {}),
        });
      continue;
    }
    f.id_estado = id;
    // A later row of the same new phone is a duplicate of this one.
    existentes.set(f.telefono, id);
    quedan.push(f);
  }
  if (errores.length) {
    l.errores.push(...errores);
    l.errores.sort((a, b) => a.fila - b.fila);
  }
  l.filas = quedan;
  return motivos;
}

/** Deletes the job's uploaded temp file (never a file the caller owns) and the copies of its
 * sheets a stopped reading thread may have left. */
async function borrarArchivo(t: TrabajoImportacion) {
  if (t.borrarAlTerminar) await fs.promises.rm(t.ruta, { force: true });
  await borrarCopias(t.ruta);
}

/** Removes what imports left under DATA_DIR/importaciones when the api stopped mid-import (a
 * crash, a kill): run at the api's start. On SQLite one api process runs every job, so all of it
 * goes; on PostgreSQL other processes may share DATA_DIR, so only files untouched for
 * IMPORTACION_SIN_AVANCE_MS (a running job touches its upload at every batch). */
export async function limpiarImportaciones(ctx: Contexto): Promise<number> {
  const dir = path.join(ctx.config.dataDir, 'importaciones');
  const nombres = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const antesDe =
    ctx.db.engine === 'sqlite' ? Number.POSITIVE_INFINITY : Date.now() - IMPORTACION_SIN_AVANCE_MS;
  let borrados = 0;
  for (const n of nombres) {
    const ruta = path.join(dir, n);
    const st = await fs.promises.stat(ruta).catch(() => undefined);
    if (!st || st.mtimeMs >= antesDe) continue;
    await fs.promises.rm(ruta, { recursive: true, force: true });
    borrados++;
  }
  return borrados;
}

/** A failure of the database while writing a batch (not of the file). */
class ErrorEscritura extends Error {}

/** Writes a batch; a database failure is tagged so the job does not blame the file. */
async function escribirLote(
  escritor: EscritorMasivo,
  filas: readonly FilaMasiva[],
  progreso: Parameters<EscritorMasivo['escribir']>[1],
) {
  try {
    return await escritor.escribir(filas, progreso);
  } catch (e) {
    throw new ErrorEscritura(String(e), { cause: e });
  }
}

/** Checks the defaults of an import form (400 naming the field). */
async function validarCampos(ctx: Contexto, campos: Record<string, string>) {
  const r = ImportarCamposSchema.safeParse(campos);
  if (!r.success) {
    const campo = String(r.error.issues[0]?.path[0] ?? 'cuerpo');
    throw error(400, 'campoInvalido', { campo, detalle: r.error.issues[0]?.message ?? '' }, campo);
  }
  const { id_estado, categorias, codificacion, duplicados } = r.data;
  await exigirEstadoYCategorias(ctx.db.kysely, id_estado, categorias);
  return { id_estado, categorias: [...new Set(categorias)], codificacion, duplicados };
}

/** Creates the job row (audited) and starts it in the background; returns its id. */
export async function iniciarImportacion(
  ctx: Contexto,
  sesion: Sesion | null,
  a: {
    ruta: string;
    archivo: string;
    tipo: TipoArchivo;
    codificacion?: Codificacion;
    id_estado?: number;
    categorias: number[];
    duplicados?: ModoDuplicados;
    borrarAlTerminar?: boolean;
  },
): Promise<{ id_importacion: number; terminada: Promise<void> }> {
  const quien =
    sesion && sesion.id_usuario > 0
      ? { id_usuario: sesion.id_usuario, usuario: sesion.usuario }
      : null;
  const id_importacion = await ctx.db.kysely.transaction().execute(async (trx) => {
    const id = await jobs.crearImportacion(
      trx,
      a.archivo.slice(0, 255),
      quien?.id_usuario ?? null,
      a.duplicados ?? 'omitir',
    );
    await auditar(trx, quien, 'importar', 'importacion', id, {
      archivo: a.archivo,
      estatus: 'en_proceso',
      duplicados: a.duplicados ?? 'omitir',
    });
    return id;
  });
  const terminada = ejecutarImportacion(ctx, { id_importacion, quien, ...a });
  return { id_importacion, terminada };
}

/** A file an operator uploaded: where it was saved, its own name and kind, and the form's other
 * fields. */
export interface ArchivoRecibido {
  ruta: string;
  nombre: string;
  tipo: TipoArchivo;
  campos: Record<string, string>;
}

/** Saves the multipart field `file` (.csv, .txt or .xlsx) under `dir` with the form's other fields,
 * and checks what an .xlsx declares it expands to before anything is inflated (issue 49.1; reading
 * checks it again as it inflates, in case the declaration lies). Every failure is the Spanish
 * 400/413 naming `file` (`mb`: the upload limit its route set), and removes what was saved. */
export async function recibirArchivo(
  req: FastifyRequest,
  dir: string,
  mb: number,
): Promise<ArchivoRecibido> {
  if (!req.isMultipart()) throw error(400, 'archivoObligatorio', undefined, 'file');
  let archivo: Omit<ArchivoRecibido, 'campos'> | undefined;
  const campos: Record<string, string> = {};
  try {
    for await (const parte of req.parts()) {
      if (parte.type !== 'file') {
        campos[parte.fieldname] = String(parte.value);
        continue;
      }
      if (parte.fieldname !== 'file' || archivo) {
        parte.file.resume();
        continue;
      }
      const ext = path.extname(parte.filename ?? '').toLowerCase();
      const tipo: TipoArchivo | undefined =
        ext === '.csv' || ext === '.txt' ? 'csv' : ext === '.xlsx' ? 'xlsx' : undefined;
      if (!tipo) {
        parte.file.resume();
        throw error(400, 'formatoImportacion', undefined, 'file');
      }
      archivo = {
        ruta: path.join(dir, `${crypto.randomUUID()}${ext}`),
        nombre: parte.filename,
        tipo,
      };
      // A body cut short inside this part may have destroyed its stream before we read it
      // (when the whole body arrived first); pipeline would then wait forever.
      if (parte.file.destroyed) throw error(400, 'archivoObligatorio', undefined, 'file');
      await pipeline(parte.file, fs.createWriteStream(archivo.ruta));
      if (parte.file.truncated) throw error(413, 'archivoDemasiadoGrande', { mb }, 'file');
      if (tipo === 'xlsx') await revisarZip(archivo.ruta);
    }
    if (!archivo) throw error(400, 'archivoObligatorio', undefined, 'file');
    return { ...archivo, campos };
  } catch (e) {
    if (archivo) await fs.promises.rm(archivo.ruta, { force: true });
    if (e instanceof LimiteImportacion) throw new HttpError(e.status, e.message, 'file');
    const codigo = (e as { code?: string }).code;
    if (codigo === 'FST_REQ_FILE_TOO_LARGE')
      throw error(413, 'archivoDemasiadoGrande', { mb }, 'file');
    if (
      codigo === 'FST_FILES_LIMIT' ||
      codigo === 'FST_PARTS_LIMIT' ||
      codigo === 'FST_FIELDS_LIMIT'
    ) {
      throw error(400, 'peticionInvalida');
    }
    // A body the multipart parser cannot read (no boundary, cut short, a malformed part) is the
    // caller's fault, not the server's (it answered 500 before).
    if (
      e instanceof Error &&
      /^(Multipart: |Unexpected end of form|Malformed part header|Part terminated early)/.test(
        e.message,
      )
    )
      throw error(400, 'archivoObligatorio', undefined, 'file');
    throw e;
  }
}

/** Receives a multipart upload (field `file`, optional `id_estado` and `categorias`), writes the
 * file under DATA_DIR/importaciones and starts the job. */
export async function recibirImportacion(
  ctx: Contexto,
  sesion: Sesion,
  req: FastifyRequest,
): Promise<number> {
  const dir = path.join(ctx.config.dataDir, 'importaciones');
  await fs.promises.mkdir(dir, { recursive: true });
  const archivo = await recibirArchivo(req, dir, MAX_MB_IMPORTACION);
  try {
    const defectos = await validarCampos(ctx, archivo.campos);
    const { id_importacion } = await iniciarImportacion(ctx, sesion, {
      ruta: archivo.ruta,
      archivo: archivo.nombre,
      tipo: archivo.tipo,
      ...defectos,
      borrarAlTerminar: true,
    });
    return id_importacion;
  } catch (e) {
    await fs.promises.rm(archivo.ruta, { force: true });
    throw e;
  }
}

/** The last imports, newest first (issue 48.6). A job 'en_proceso' that no process runs any
 * more reads as its own progress says once asked (GET /telefonos/importar/{id}/). */
export async function recientes(ctx: Contexto): Promise<ImportacionReciente[]> {
  const filas = await jobs.listarRecientes(ctx.db.kysely, MAX_IMPORTACIONES_RECIENTES);
  return filas.map((j) => ({
    id_importacion: j.id_importacion,
    archivo: j.archivo,
    estatus: j.estatus === 'terminada' || j.estatus === 'fallida' ? j.estatus : 'en_proceso',
    procesadas: Number(j.procesadas),
    insertadas: Number(j.insertadas),
    duplicadas: Number(j.duplicadas),
    con_error: Number(j.con_error),
    creado: Number(j.creado),
    terminado: j.terminado === null ? null : Number(j.terminado),
    usuario: j.usuario ?? null,
  }));
}

/** The progress of a job, or 404. */
export async function progreso(ctx: Contexto, id: number): Promise<Importacion> {
  let j = await jobs.leerImportacion(ctx.db.kysely, id);
  if (!j) throw error(404, 'noEncontrada', { entidad: 'Importación' });
  // A job 'en_proceso' that this process is not running: on SQLite one api process runs every
  // job, so the process that ran it stopped; on PostgreSQL another api process may be running it,
  // so it counts as stopped only after IMPORTACION_SIN_AVANCE_MS without writing a batch.
  if (j.estatus === 'en_proceso' && !enCurso.has(id)) {
    const antesDe =
      ctx.db.engine === 'sqlite' ? Number.MAX_SAFE_INTEGER : Date.now() - IMPORTACION_SIN_AVANCE_MS;
    if (await jobs.marcarSinAvance(ctx.db.kysely, id, antesDe, msg('importacionInterrumpida')))
      j = (await jobs.leerImportacion(ctx.db.kysely, id))!;
  }
  const estatus = j.estatus === 'terminada' || j.estatus === 'fallida' ? j.estatus : 'en_proceso';
  return {
    status: 200,
    id_importacion: j.id_importacion,
    archivo: j.archivo,
    estatus,
    total: estatus === 'en_proceso' ? (totales.get(id) ?? null) : Number(j.procesadas),
    procesadas: Number(j.procesadas),
    insertadas: Number(j.insertadas),
    duplicadas: Number(j.duplicadas),
    con_error: Number(j.con_error),
    errores: j.errores ? (JSON.parse(j.errores) as Importacion['errores']) : [],
    modo_duplicados: (j.modo_duplicados ?? 'omitir') as ModoDuplicados,
    filas_duplicadas: j.filas_duplicadas
      ? (JSON.parse(j.filas_duplicadas) as Importacion['filas_duplicadas'])
      : [],
    mensaje: j.mensaje,
  };
}
