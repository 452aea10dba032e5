import { MAX_ERRORES_IMPORTACION, type ErrorImportacion } from '@pregon/contract/api/telefonos';
import { MAX_LARGO_NOMBRE } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import type { FilaMasiva } from '../repositories/telefonos-masivo.ts';
import { leerCsv, leerXlsx, type FilaLeida } from './importacion-lectores.ts';
import {
  canonizarTelefono,
  paisTelefonico,
  PAIS_DEFECTO,
  type CountryCode,
} from '@pregon/contract/rules/phone';
import { claveNombre } from '@pregon/contract/rules/busqueda';
import type { Codificacion } from '@pregon/contract/rules/codificacion';

// The reading half of the phone import: a file becomes batches of validated rows (normalised
// phone, state, categories) and of bad rows with their number and Spanish reason. It needs no
// database: the catalogue of states and categories comes in. It runs in a worker thread of its own
// (importacion-tarea.ts) for its heap limit (issue 49.1), not for speed: with a row object each,
// copying a million rows between threads cost more CPU than the reading it overlapped, 13.3 s
// against 11.5 s; packed into a few strings and typed arrays per batch (empacarLote), the copy was
// cheap, and on two cores the import was as fast as reading on the api's thread.

/** Kinds of file the import reads. */
export type TipoArchivo = 'csv' | 'xlsx';

/** The states and categories rows may name (by id or by name). */
export interface CatalogoImportacion {
  /** With their country's ISO code, whose numbering rules read the state's numbers. */
  estados: { id_estado: number; estado: string; codigo_iso?: string }[];
  categorias: { id_categoria: number; categoria: string }[];
}

/** What a list of numbers read in the thread needs (the opt-out list's import): only each row's
 * first cell is sent back. */
export interface OrigenPrimeraColumna {
  ruta: string;
  tipo: TipoArchivo;
  primeraColumna: true;
}

/** What the reader needs: the file, the catalogue, the defaults and the batch size. */
export interface OrigenLotes {
  ruta: string;
  tipo: TipoArchivo;
  /** The CSV's encoding as the operator chose it (detected when not given). */
  codificacion?: Codificacion;
  catalogo: CatalogoImportacion;
  /** State of rows without one, and categories of rows without any. */
  porDefecto: { id_estado?: number; categorias: number[] };
  /** Rows read per batch (good and bad). */
  lote: number;
  /** Issue 45.3, 'Agregar categorías a los teléfonos existentes': a row needs only its phone (and
   * its categories); its id_estado is the file's state or SIN_ESTADO, never the default, which
   * the import applies later only to phones that turn out to be new (importacion.ts). */
  estadoOpcional?: boolean;
}

/** The id_estado of a row without a state of its own when `estadoOpcional` (ids start at 1). */
export const SIN_ESTADO = 0;

/** One batch: its valid rows, how many rows it read, and its bad rows (at most
 * MAX_ERRORES_IMPORTACION with their reason; `con_error` counts all of them). */
export interface LoteValidado {
  filas: FilaMasiva[];
  procesadas: number;
  errores: ErrorImportacion[];
  con_error: number;
}

/** The file has no phone column (no header naming one, and the first cell is not a number). */
export class SinColumnaTelefono extends Error {}

/** Lower case, no accents, single spaces: how names of states and categories are compared (the
 * same key that makes them unique in the catalogue: contract rules/busqueda.ts). */
export { claveNombre };

const COLUMNAS: Record<string, 'telefono' | 'nombre' | 'estado' | 'categorias'> = {
  telefono: 'telefono',
  tel: 'telefono',
  numero: 'telefono',
  celular: 'telefono',
  movil: 'telefono',
  nombre: 'nombre',
  estado: 'estado',
  id_estado: 'estado',
  entidad: 'estado',
  categorias: 'categorias',
  categoria: 'categorias',
  id_categoria: 'categorias',
};

type Indices = { telefono: number; nombre: number; estado: number; categorias: number };

/** Column positions from a header row, or undefined when it has no phone column. */
export function leerEncabezado(celdas: string[]): Indices | undefined {
  const idx: Indices = { telefono: -1, nombre: -1, estado: -1, categorias: -1 };
  celdas.forEach((c, i) => {
    const col = COLUMNAS[claveNombre(c).replace(/ /g, '_')];
    if (col && idx[col] === -1) idx[col] = i;
  });
  return idx.telefono === -1 ? undefined : idx;
}

type Resolucion = { ok: true; valor: number } | { ok: false; motivo: string };
type ResolucionLista = { ok: true; valor: number[] } | { ok: false; motivo: string };

/** Resolves state and category cells (names or ids) with per-value caches. */
function crearResolutores(cat: CatalogoImportacion) {
  const estados = new Map<string, number>();
  for (const e of cat.estados) {
    estados.set(String(e.id_estado), e.id_estado);
    if (!estados.has(claveNombre(e.estado))) estados.set(claveNombre(e.estado), e.id_estado);
  }
  const categorias = new Map<string, number>();
  for (const c of cat.categorias) {
    categorias.set(String(c.id_categoria), c.id_categoria);
    if (!categorias.has(claveNombre(c.categoria)))
      categorias.set(claveNombre(c.categoria), c.id_categoria);
  }
  const paises = new Map<number, CountryCode | null>();
  for (const e of cat.estados)
    paises.set(
      e.id_estado,
      e.codigo_iso === undefined ? PAIS_DEFECTO : paisTelefonico(e.codigo_iso),
    );
  const cacheEstado = new Map<string, Resolucion>();
  const cacheCategorias = new Map<string, ResolucionLista>();
  return {
    /** The numbering rules of a state's numbers (Mexico's without a state). */
    pais(idEstado: number | undefined): CountryCode | null {
      return idEstado === undefined ? PAIS_DEFECTO : (paises.get(idEstado) ?? PAIS_DEFECTO);
    },
    estado(texto: string): Resolucion {
      let r = cacheEstado.get(texto);
      if (!r) {
        const id = estados.get(claveNombre(texto));
        r =
          id === undefined
            ? {
                ok: false,
                motivo: msg('estadoDesconocido', { estado: texto.trim().slice(0, 100) }),
              }
            : { ok: true, valor: id };
        if (cacheEstado.size < 10_000) cacheEstado.set(texto, r);
      }
      return r;
    },
    categorias(texto: string): ResolucionLista {
      let r = cacheCategorias.get(texto);
      if (!r) {
        const ids: number[] = [];
        r = { ok: true, valor: ids };
        for (const parte of texto.split(/[;|,]/)) {
          if (parte.trim() === '') continue;
          const id = categorias.get(claveNombre(parte));
          if (id === undefined) {
            r = {
              ok: false,
              motivo: msg('categoriaDesconocida', { categoria: parte.trim().slice(0, 100) }),
            };
            break;
          }
          if (!ids.includes(id)) ids.push(id);
        }
        if (cacheCategorias.size < 10_000) cacheCategorias.set(texto, r);
      }
      return r;
    },
  };
}

type Resolutores = ReturnType<typeof crearResolutores>;

/** Validates one row: the normalised phone with its state and categories, or the reason it fails. */
function validarFila(
  f: FilaLeida,
  idx: Indices,
  resolver: Resolutores,
  porDefecto: OrigenLotes['porDefecto'],
  estadoOpcional = false,
): FilaMasiva | { motivo: string } {
  if (f.error) return { motivo: f.error };
  const celdas = f.celdas;
  let id_estado = porDefecto.id_estado;
  const textoEstado = idx.estado >= 0 ? (celdas[idx.estado] ?? '').trim() : '';
  const estado = textoEstado === '' ? undefined : resolver.estado(textoEstado);
  if (estado?.ok) id_estado = estado.valor;
  // The number is read by the rules of the row's state's country. A leading apostrophe is how our
  // CSV exports keep '+…' from being read as a formula (reportes-csv celdaCsv), and how
  // spreadsheets mark text: the number is what follows it.
  const tel = canonizarTelefono(
    (celdas[idx.telefono] ?? '').trim().replace(/^'/, ''),
    resolver.pais(estado?.ok === false ? undefined : id_estado),
  );
  if (!tel.ok) return { motivo: tel.motivo };
  if (estado && !estado.ok) return { motivo: estado.motivo };
  if (estadoOpcional) id_estado = estado?.ok ? estado.valor : SIN_ESTADO;
  if (id_estado === undefined) return { motivo: msg('estadoObligatorio') };
  let categorias: readonly number[] = porDefecto.categorias;
  const textoCategorias = idx.categorias >= 0 ? (celdas[idx.categorias] ?? '').trim() : '';
  if (textoCategorias !== '') {
    const r = resolver.categorias(textoCategorias);
    if (!r.ok) return { motivo: r.motivo };
    if (r.valor.length > 0) categorias = r.valor;
  }
  const nombre = idx.nombre >= 0 ? (celdas[idx.nombre] ?? '').trim() : '';
  // A long name is refused with its row, never cut mid-word (issue 26.7).
  if (nombre.length > MAX_LARGO_NOMBRE)
    return { motivo: msg('nombreMuyLargo', { n: nombre.length, max: MAX_LARGO_NOMBRE }) };
  return { telefono: tel.telefono, nombre: nombre || null, id_estado, categorias };
}

/** Longest cell a rejected row keeps. */
const MAX_CELDA_ERROR = 200;

/** A rejected row's own cells under the import's column names (those the file has). */
function celdasDe(celdas: string[], idx: Indices): Partial<Record<keyof Indices, string>> {
  const r: Partial<Record<keyof Indices, string>> = {};
  for (const col of ['telefono', 'nombre', 'estado', 'categorias'] as const) {
    const v = idx[col] >= 0 ? celdas[idx[col]] : undefined;
    if (v !== undefined && v !== '') r[col] = v.slice(0, MAX_CELDA_ERROR);
  }
  return r;
}

/** Reads the file into validated batches of `o.lote` rows; the last batch (possibly empty) closes
 * the file. Throws SinColumnaTelefono when the file has no phone column. */
export async function* lotesValidados(o: OrigenLotes): AsyncGenerator<LoteValidado> {
  const resolver = crearResolutores(o.catalogo);
  let idx: Indices | undefined;
  let lote: LoteValidado = { filas: [], procesadas: 0, errores: [], con_error: 0 };
  let detallados = 0;
  const lector = o.tipo === 'csv' ? leerCsv(o.ruta, o.codificacion) : leerXlsx(o.ruta);
  for await (const grupo of lector) {
    for (const f of grupo) {
      if (!idx) {
        if (f.celdas.every((x) => x.trim() === '')) continue;
        idx = leerEncabezado(f.celdas);
        if (idx) continue;
        // No header: the columns are telefono, nombre, estado, categorias, if the first cell is a number.
        const pais = resolver.pais(o.porDefecto.id_estado);
        if (!canonizarTelefono(f.celdas[0]!.trim(), pais).ok) throw new SinColumnaTelefono();
        idx = { telefono: 0, nombre: 1, estado: 2, categorias: 3 };
      }
      lote.procesadas++;
      const fila = validarFila(f, idx, resolver, o.porDefecto, o.estadoOpcional);
      if ('motivo' in fila) {
        lote.con_error++;
        // Only the first reasons are kept by the job: the rest are not carried at all.
        if (detallados < MAX_ERRORES_IMPORTACION) {
          detallados++;
          lote.errores.push({ fila: f.fila, motivo: fila.motivo, ...celdasDe(f.celdas, idx) });
        }
      } else lote.filas.push({ ...fila, fila: f.fila });
      if (lote.procesadas >= o.lote) {
        yield lote;
        lote = { filas: [], procesadas: 0, errores: [], con_error: 0 };
      }
    }
  }
  if (!idx) throw new SinColumnaTelefono();
  yield lote;
}

// Batches cross from the reading thread (importacion-tarea.ts) packed into a few strings and typed
// arrays: copying a row object each cost more than the reading (see the top of this file).

/** A validated batch as it crosses between threads. */
export interface LoteEmpacado {
  telefonos: string;
  /** JSON array of the names (null when none). */
  nombres: string;
  estados: Int32Array;
  filas: Float64Array;
  /** Row i's categories are categorias[inicioCategorias[i] .. inicioCategorias[i + 1]). */
  inicioCategorias: Int32Array;
  categorias: Int32Array;
  procesadas: number;
  errores: ErrorImportacion[];
  con_error: number;
}

/** What the reading thread posts: a batch, the end, or why it stopped. */
export type MensajeHilo =
  | { tipo: 'lote'; lote: LoteEmpacado }
  | { tipo: 'celdas'; filas: FilaLeida[] }
  | { tipo: 'fin' }
  | { tipo: 'error'; status?: number; mensaje: string; sinTelefono?: boolean };

/** Batches the thread may post before the api has taken the first of them. */
export const LOTES_ADELANTADOS = 2;

/** Packs a batch for postMessage (its typed arrays go in the transfer list). */
export function empacarLote(l: LoteValidado): LoteEmpacado {
  const n = l.filas.length;
  const estados = new Int32Array(n);
  const filas = new Float64Array(n);
  const inicioCategorias = new Int32Array(n + 1);
  let total = 0;
  for (const f of l.filas) total += f.categorias.length;
  const categorias = new Int32Array(total);
  const telefonos: string[] = [];
  const nombres: (string | null)[] = [];
  let k = 0;
  l.filas.forEach((f, i) => {
    telefonos.push(f.telefono);
    nombres.push(f.nombre);
    estados[i] = f.id_estado;
    filas[i] = f.fila ?? 0;
    inicioCategorias[i] = k;
    for (const c of f.categorias) categorias[k++] = c;
  });
  inicioCategorias[n] = k;
  return {
    telefonos: telefonos.join('\n'),
    nombres: JSON.stringify(nombres),
    estados,
    filas,
    inicioCategorias,
    categorias,
    procesadas: l.procesadas,
    errores: l.errores,
    con_error: l.con_error,
  };
}

/** Unpacks a batch; consecutive rows with the same categories share one array. */
export function desempacarLote(p: LoteEmpacado): LoteValidado {
  const telefonos = p.telefonos === '' ? [] : p.telefonos.split('\n');
  const nombres = JSON.parse(p.nombres) as (string | null)[];
  const filas: FilaMasiva[] = [];
  let previas: number[] = [];
  for (let i = 0; i < telefonos.length; i++) {
    const a = p.inicioCategorias[i]!;
    const b = p.inicioCategorias[i + 1]!;
    let iguales = b - a === previas.length;
    for (let j = a; iguales && j < b; j++) iguales = p.categorias[j] === previas[j - a];
    if (!iguales) previas = Array.from(p.categorias.subarray(a, b));
    filas.push({
      telefono: telefonos[i]!,
      nombre: nombres[i] ?? null,
      id_estado: p.estados[i]!,
      categorias: previas,
      fila: p.filas[i]!,
    });
  }
  return { filas, procesadas: p.procesadas, errores: p.errores, con_error: p.con_error };
}
