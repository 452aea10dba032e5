import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type ExcelJS from 'exceljs';
import {
  MAX_CADENAS_XLSX,
  MAX_CARACTERES_CAMPO_IMPORTACION,
  MAX_MB_PARTE_XLSX,
  MAX_MB_XLSX_DESCOMPRIMIDO,
  MAX_MCARACTERES_CADENAS_XLSX,
  MAX_PARTES_XLSX,
  MAX_RAZON_XLSX,
} from '@pregon/contract/constants';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';

// exceljs's streaming WorkbookReader walks the zip's entries with its own iterateStream helper,
// which under load sometimes loses entries (exceljs issue #683, fix proposed in PR #2915, not
// released in 4.4.0): measured here with 4 busy cores, a 4-row file read 400 times in a row lost
// xl/workbook.xml ("Cannot read properties of undefined (reading 'sheets')") or
// xl/sharedStrings.xml (every text cell read as {sharedString: n}, so the header 'telefono' was
// not found and the import failed with nothing processed, as CI saw once).
//
// This reader keeps exceljs's own parsers for each part (relationships, workbook, shared strings,
// worksheet rows) and replaces only the walk: the parts the zip's central directory lists are read
// in order, each inflated by Node's zlib with back-pressure, and every worksheet is first copied
// to a file beside the upload (they usually come before the shared strings in the archive, Excel's
// own files included), then parsed once everything else has been read.
//
// Issue 49.1: an 8.9 MB .xlsx whose shared strings inflated to 3.5 GB took the api down. The
// central directory's declared sizes are checked before anything is inflated (revisarZip); every
// part read is counted again while it inflates (its size, all parts' size, and its ratio to the
// compressed bytes the inflater has taken so far, so a bomb is cut after a few MB), and so are the
// shared strings (how many, how many characters). unzipper's streaming walk was dropped for this:
// it hands a whole part's compressed bytes to its inflater at once, so what a part had used could
// not be known while it inflated.

/** An import refused by one of its limits: status (413 size, 400 shape) and the Spanish reason. */
export class LimiteImportacion extends Error {
  constructor(
    readonly status: 413 | 400,
    clave: ClaveMensaje,
    params: Record<string, string | number>,
  ) {
    super(msg(clave, params));
  }
}

/** The limits of an .xlsx (contract constants; tests pass smaller ones to reach each quickly). */
export interface LimitesXlsx {
  bytesParte: number;
  bytesTotal: number;
  razon: number;
  partes: number;
  cadenas: number;
  caracteresCadenas: number;
  caracteresCampo: number;
}

/** The product's limits (contract constants.ts). */
export const LIMITES_XLSX: LimitesXlsx = {
  bytesParte: MAX_MB_PARTE_XLSX * 2 ** 20,
  bytesTotal: MAX_MB_XLSX_DESCOMPRIMIDO * 2 ** 20,
  razon: MAX_RAZON_XLSX,
  partes: MAX_PARTES_XLSX,
  cadenas: MAX_CADENAS_XLSX,
  caracteresCadenas: MAX_MCARACTERES_CADENAS_XLSX * 1_000_000,
  caracteresCampo: MAX_CARACTERES_CAMPO_IMPORTACION,
};

/** A part inflates freely up to this size before its ratio is checked: small parts compress
 * well (a 40 KB styles.xml of repeated tags), and a real sheet may begin with a run of near
 * identical rows. A 1000:1 bomb is cut when it reaches it. */
const GRACIA_RAZON = 8 << 20;

/** Bytes of XML a text of `caracteresCampo` characters may take: 4 bytes a character in UTF-8,
 * and escapes such as '&quot;' take 6 (a run longer than this, with no tag, is too long a text). */
const BYTES_POR_CARACTER = 8;

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const nombreParte = (p: string) => p.slice(0, 100);

/** The refusal of a part of `bytes` inflated bytes from `comprimido`, or undefined if it is fine. */
function excesoParte(
  parte: string,
  bytes: number,
  comprimido: number,
  lim: LimitesXlsx,
): LimiteImportacion | undefined {
  if (bytes > lim.bytesParte)
    return new LimiteImportacion(413, 'importacionParteXlsxGrande', {
      mb: mb(lim.bytesParte),
      parte: nombreParte(parte),
    });
  if (bytes > GRACIA_RAZON && bytes > lim.razon * comprimido)
    return new LimiteImportacion(413, 'importacionRazonXlsx', {
      razon: lim.razon,
      parte: nombreParte(parte),
    });
  return undefined;
}

/** One part as the central directory declares it. */
interface ParteDeclarada {
  nombre: string;
  comprimido: number;
  descomprimido: number;
  /** 0 stored, 8 deflated (the only two an .xlsx uses). */
  metodo: number;
  /** Where its local header begins. */
  desplazamiento: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Reads the zip's central directory (its list of parts with their sizes) and refuses the file,
 * before anything is inflated, when it declares too many parts or parts that expand past the
 * limits. Returns the parts in the archive's order (sizes as declared; reading checks them again
 * as it inflates), or undefined when the file is not a zip (reading then fails as an unreadable
 * file). A zip64 marker (0xFFFF parts, 0xFFFFFFFF bytes) is past every limit: refused as such. */
export async function revisarZip(
  ruta: string,
  lim: LimitesXlsx = LIMITES_XLSX,
): Promise<ParteDeclarada[] | undefined> {
  const f = await fs.promises.open(ruta, 'r');
  try {
    const tamano = (await f.stat()).size;
    const cola = Buffer.alloc(Math.min(tamano, 22 + 0xffff));
    await f.read(cola, 0, cola.length, tamano - cola.length);
    let fin = -1;
    for (let i = cola.length - 22; i >= 0; i--)
      if (cola.readUInt32LE(i) === EOCD) {
        fin = i;
        break;
      }
    if (fin === -1) return undefined;
    const cuantas = cola.readUInt16LE(fin + 10);
    const largo = cola.readUInt32LE(fin + 12);
    const inicio = cola.readUInt32LE(fin + 16);
    if (cuantas > lim.partes || cuantas === 0xffff)
      throw new LimiteImportacion(413, 'importacionPartesXlsx', { max: lim.partes });
    if (inicio + largo > tamano) return undefined;
    const cd = Buffer.alloc(largo);
    await f.read(cd, 0, largo, inicio);
    const partes: ParteDeclarada[] = [];
    let total = 0;
    for (let i = 0; i + 46 <= cd.length && cd.readUInt32LE(i) === CENTRAL;) {
      const metodo = cd.readUInt16LE(i + 10);
      const comprimido = cd.readUInt32LE(i + 20);
      const descomprimido = cd.readUInt32LE(i + 24);
      const n = cd.readUInt16LE(i + 28);
      const desplazamiento = cd.readUInt32LE(i + 42);
      const nombre = cd.toString('utf8', i + 46, i + 46 + n);
      i += 46 + n + cd.readUInt16LE(i + 30) + cd.readUInt16LE(i + 32);
      if (partes.length >= lim.partes)
        throw new LimiteImportacion(413, 'importacionPartesXlsx', { max: lim.partes });
      const exceso = excesoParte(nombre, descomprimido, comprimido, lim);
      if (exceso) throw exceso;
      total += descomprimido;
      if (total > lim.bytesTotal)
        throw new LimiteImportacion(413, 'importacionXlsxGrande', { mb: mb(lim.bytesTotal) });
      partes.push({ nombre, comprimido, descomprimido, metodo, desplazamiento });
    }
    return partes.sort((a, b) => a.desplazamiento - b.desplazamiento);
  } finally {
    await f.close();
  }
}

/** The internals of exceljs's WorkbookReader this reader drives (lib/stream/xlsx/workbook-reader.js). */
interface Internos {
  sharedStrings?: unknown[];
  _parseRels(entrada: NodeJS.ReadableStream): Promise<void>;
  _parseWorkbook(entrada: NodeJS.ReadableStream): Promise<void>;
  _parseSharedStrings(
    entrada: NodeJS.ReadableStream,
  ): AsyncGenerator<{ index: number; text: string | { richText: { text?: string }[] } | null }>;
  _parseWorksheet(
    iterador: AsyncIterable<unknown>,
    hoja: string,
  ): Generator<{ eventType: string; value: unknown }>;
}

const HOJA_RE = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/** The characters of a shared string (plain or rich text). */
const caracteres = (t: string | { richText: { text?: string }[] } | null) =>
  t === null
    ? 0
    : typeof t === 'string'
      ? t.length
      : t.richText.reduce((n, r) => n + (r.text?.length ?? 0), 0);

/** The data of one part: its local header gives where it begins; stored or deflated. */
async function abrirParte(
  ruta: string,
  p: ParteDeclarada,
  tamano: number,
): Promise<{
  datos: NodeJS.ReadableStream & AsyncIterable<Buffer>;
  comprimidoLeido: () => number;
  cerrar: () => void;
}> {
  const f = await fs.promises.open(ruta, 'r');
  const cabecera = Buffer.alloc(30);
  try {
    await f.read(cabecera, 0, 30, p.desplazamiento);
  } finally {
    await f.close();
  }
  if (cabecera.readUInt32LE(0) !== LOCAL) throw new Error(`parte ${p.nombre} sin cabecera local`);
  const inicio = p.desplazamiento + 30 + cabecera.readUInt16LE(26) + cabecera.readUInt16LE(28);
  if (inicio + p.comprimido > tamano) throw new Error(`parte ${p.nombre} cortada`);
  const crudo =
    p.comprimido === 0
      ? Readable.from([])
      : fs.createReadStream(ruta, { start: inicio, end: inicio + p.comprimido - 1 });
  if (p.metodo === 0) {
    let leido = 0;
    crudo.on('data', (b: Buffer) => (leido += b.length));
    return { datos: crudo, comprimidoLeido: () => leido, cerrar: () => crudo.destroy() };
  }
  if (p.metodo !== 8) throw new Error(`parte ${p.nombre}: compresión ${p.metodo} desconocida`);
  const inflador = zlib.createInflateRaw();
  crudo.on('error', (e: Error) => inflador.destroy(e));
  crudo.pipe(inflador);
  return {
    datos: inflador,
    comprimidoLeido: () => inflador.bytesWritten,
    cerrar: () => (crudo.destroy(), inflador.destroy()),
  };
}

/** The worksheets of the .xlsx at `ruta`, in the archive's order, as exceljs WorksheetReaders.
 * Temporary copies of the sheets go to `${ruta}.hoja{n}` and are removed when the walk ends (the
 * caller removes them too when the walk is cut short from outside, e.g. its thread is stopped).
 * Throws LimiteImportacion when the file expands past `lim`. */
export async function* hojasXlsx(
  ruta: string,
  lim: LimitesXlsx = LIMITES_XLSX,
): AsyncGenerator<ExcelJS.stream.xlsx.WorksheetReader> {
  const partes = await revisarZip(ruta, lim);
  if (!partes) throw new Error('no es un zip (sin directorio central)');
  const tamano = (await fs.promises.stat(ruta)).size;
  // Loaded on the first .xlsx import, not at the api's start (~13 MB of the idle heap together).
  const { default: Excel } = await import('exceljs');
  const libro = new Excel.stream.xlsx.WorkbookReader(ruta, {
    sharedStrings: 'emit',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
  }) as unknown as Internos;
  const copias: { hoja: string; ruta: string }[] = [];
  let total = 0;

  // A part's bytes as they inflate, each chunk counted against the limits before it is used.
  async function* medida(p: ParteDeclarada): AsyncGenerator<Buffer> {
    const { datos, comprimidoLeido, cerrar } = await abrirParte(ruta, p, tamano);
    let bytes = 0;
    // Bytes since the last '<': a text node (the XML parser holds one whole until its end).
    let corrida = 0;
    const maxCorrida = lim.caracteresCampo * BYTES_POR_CARACTER;
    try {
      for await (const trozo of datos) {
        bytes += trozo.length;
        total += trozo.length;
        // zlib's and the file's chunks (16 and 64 KB) are shorter than maxCorrida, so a run
        // inside one chunk never exceeds it: only one reaching across chunks can.
        const primero = trozo.indexOf(0x3c);
        const larga =
          primero === -1 ? (corrida += trozo.length) > maxCorrida : corrida + primero > maxCorrida;
        if (primero !== -1) corrida = trozo.length - trozo.lastIndexOf(0x3c) - 1;
        if (larga || corrida > maxCorrida)
          throw new LimiteImportacion(400, 'importacionTextoLargoXlsx', {
            max: lim.caracteresCampo,
          });
        const exceso = excesoParte(p.nombre, bytes, Math.max(1, comprimidoLeido()), lim);
        if (exceso) throw exceso;
        if (total > lim.bytesTotal)
          throw new LimiteImportacion(413, 'importacionXlsxGrande', { mb: mb(lim.bytesTotal) });
        yield trozo;
      }
    } finally {
      cerrar();
    }
  }
  const flujo = (p: ParteDeclarada) => Readable.from(medida(p), { objectMode: false });

  try {
    for (const p of partes) {
      const hoja = HOJA_RE.exec(p.nombre)?.[1];
      if (p.nombre === 'xl/_rels/workbook.xml.rels') await libro._parseRels(flujo(p));
      else if (p.nombre === 'xl/workbook.xml') await libro._parseWorkbook(flujo(p));
      else if (p.nombre === 'xl/sharedStrings.xml') {
        // Collected here ('emit'), not by exceljs ('cache'), so each one is counted as it comes.
        const cadenas: unknown[] = [];
        let suma = 0;
        for await (const { text } of libro._parseSharedStrings(flujo(p))) {
          const n = caracteres(text);
          if (n > lim.caracteresCampo)
            throw new LimiteImportacion(400, 'importacionTextoLargoXlsx', {
              max: lim.caracteresCampo,
            });
          suma += n;
          if (cadenas.length >= lim.cadenas)
            throw new LimiteImportacion(413, 'importacionCadenasXlsx', { max: lim.cadenas });
          if (suma > lim.caracteresCadenas)
            throw new LimiteImportacion(413, 'importacionCaracteresXlsx', {
              m: Math.round(lim.caracteresCadenas / 1_000_000),
            });
          cadenas.push(text);
        }
        libro.sharedStrings = cadenas;
      } else if (hoja !== undefined) {
        const copia = { hoja, ruta: `${ruta}.hoja${hoja}` };
        copias.push(copia);
        await pipeline(medida(p), fs.createWriteStream(copia.ruta));
      }
      // Any other part is never read, so it cannot expand.
    }
    for (const c of copias) {
      for (const ev of libro._parseWorksheet(fs.createReadStream(c.ruta), c.hoja)) {
        if (ev.eventType === 'worksheet') yield ev.value as ExcelJS.stream.xlsx.WorksheetReader;
      }
    }
  } finally {
    for (const c of copias) await fs.promises.rm(c.ruta, { force: true });
  }
}
