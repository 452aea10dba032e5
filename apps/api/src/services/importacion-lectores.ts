import fs from 'node:fs';
import { hojasXlsx, LimiteImportacion } from './xlsx-lector.ts';
import { parse as parseCsv } from 'csv-parse/sync';
import { msg } from '@pregon/contract/messages';
import {
  MAX_CARACTERES_CAMPO_IMPORTACION,
  MAX_CARACTERES_FILA_IMPORTACION,
  MAX_CELDAS_FILA_IMPORTACION,
} from '@pregon/contract/constants';
import {
  detectarCodificacion,
  detectarSeparador,
  MUESTRA_CODIFICACION,
  type Codificacion,
} from '@pregon/contract/rules/codificacion';

// Streaming readers of import files. Each yields groups of rows, a row being its number as the
// user's spreadsheet shows it (header = 1) and its cells as text, so a million rows cost a few
// hundred awaits instead of a million.

/** One row of a file: its number (1-based, as shown by a spreadsheet) and its cells. */
export interface FilaLeida {
  fila: number;
  celdas: string[];
  /** Set when the row could not be read at all (e.g. unbalanced quotes). */
  error?: string;
}

const TAMANO_GRUPO = 2000;

/** Refuses a row with more than MAX_CELDAS_FILA_IMPORTACION cells or a cell longer than
 * MAX_CARACTERES_CAMPO_IMPORTACION characters (issue 49.1); `largo`, the row's length when known,
 * spares the walk over its cells when the whole row is shorter than one field may be. */
export function revisarCeldas(fila: number, celdas: string[], largo = Infinity): void {
  if (celdas.length > MAX_CELDAS_FILA_IMPORTACION)
    throw new LimiteImportacion(400, 'importacionCeldasFila', {
      fila,
      max: MAX_CELDAS_FILA_IMPORTACION,
    });
  if (largo <= MAX_CARACTERES_CAMPO_IMPORTACION) return;
  for (const c of celdas)
    if (c.length > MAX_CARACTERES_CAMPO_IMPORTACION)
      throw new LimiteImportacion(400, 'importacionCampoLargo', {
        fila,
        max: MAX_CARACTERES_CAMPO_IMPORTACION,
      });
}

/** Refuses a CSV record (a line, or lines joined by quotes) longer than
 * MAX_CARACTERES_FILA_IMPORTACION characters, before it is held any longer. */
function revisarLargo(fila: number, largo: number) {
  if (largo > MAX_CARACTERES_FILA_IMPORTACION)
    throw new LimiteImportacion(400, 'importacionFilaLarga', {
      fila,
      max: MAX_CARACTERES_FILA_IMPORTACION,
    });
}

export { detectarSeparador };

const comillas = (s: string) => {
  let n = 0;
  for (let i = s.indexOf('"'); i !== -1; i = s.indexOf('"', i + 1)) n++;
  return n;
};

/** The encoding of a file from its first bytes (contract rules/codificacion.ts). */
export async function codificacionDe(ruta: string): Promise<Codificacion> {
  const f = await fs.promises.open(ruta, 'r');
  try {
    const muestra = new Uint8Array(MUESTRA_CODIFICACION);
    const { bytesRead } = await f.read(muestra, 0, muestra.length, 0);
    return detectarCodificacion(muestra.subarray(0, bytesRead));
  } finally {
    await f.close();
  }
}

/**
 * Reads a CSV file in `codificacion` (detected from its first bytes when not given: UTF-8 with or
 * without BOM, UTF-16 LE/BE, Windows-1252), LF or CRLF, ',' ';' or tab detected from the first line.
 * Lines without quotes are split directly (that is all RFC 4180 says of them, and csv-parse alone
 * reads only about 120,000 rows/s here); a record with quotes — which may span lines — is handed
 * to csv-parse. A record, a row's cells and a field are bounded (revisarLargo, revisarCeldas):
 * a 150 MB file of one field is refused after its first MB instead of filling memory.
 */
export async function* leerCsv(
  ruta: string,
  codificacion?: Codificacion,
): AsyncGenerator<FilaLeida[]> {
  // TextDecoder drops the BOM of its encoding and keeps a character split between chunks whole.
  const decodificador = new TextDecoder(codificacion ?? (await codificacionDe(ruta)));
  let separador: string | undefined;
  let resto = '';
  let numero = 0;
  let pendiente: { fila: number; texto: string } | undefined;
  let grupo: FilaLeida[] = [];

  const linea = (texto: string) => {
    numero++;
    if (pendiente) {
      revisarLargo(pendiente.fila, pendiente.texto.length + texto.length);
      pendiente.texto += `\n${texto}`;
      if (comillas(pendiente.texto) % 2 === 0) cerrarPendiente();
      return;
    }
    if (numero === 1 && texto.charCodeAt(0) === 0xfeff) texto = texto.slice(1);
    if (texto.endsWith('\r')) texto = texto.slice(0, -1);
    if (texto === '') return;
    revisarLargo(numero, texto.length);
    separador ??= detectarSeparador(texto);
    if (texto.indexOf('"') === -1) {
      const celdas = texto.split(separador);
      revisarCeldas(numero, celdas, texto.length);
      grupo.push({ fila: numero, celdas });
      return;
    }
    pendiente = { fila: numero, texto };
    if (comillas(texto) % 2 === 0) cerrarPendiente();
  };

  const cerrarPendiente = () => {
    const p = pendiente!;
    pendiente = undefined;
    let celdas: string[];
    try {
      const filas = parseCsv(p.texto.replace(/\r(?=\n|$)/g, ''), {
        delimiter: separador,
        relax_column_count: true,
        relax_quotes: true,
      }) as string[][];
      celdas = filas[0] ?? [];
    } catch {
      grupo.push({ fila: p.fila, celdas: [], error: msg('filaMalFormada') });
      return;
    }
    revisarCeldas(p.fila, celdas, p.texto.length);
    grupo.push({ fila: p.fila, celdas });
  };

  for await (const trozo of fs.createReadStream(ruta, { highWaterMark: 1 << 20 })) {
    const texto = resto + decodificador.decode(trozo as Buffer, { stream: true });
    let inicio = 0;
    for (let fin = texto.indexOf('\n'); fin !== -1; fin = texto.indexOf('\n', inicio)) {
      linea(texto.slice(inicio, fin));
      inicio = fin + 1;
    }
    resto = texto.slice(inicio);
    // The line still open (no newline yet) is bounded too: one field of 150 MB stops here.
    revisarLargo(pendiente?.fila ?? numero + 1, (pendiente?.texto.length ?? 0) + resto.length);
    if (grupo.length >= TAMANO_GRUPO) {
      yield grupo;
      grupo = [];
    }
  }
  resto += decodificador.decode();
  if (resto !== '') linea(resto);
  if (pendiente) {
    grupo.push({ fila: pendiente.fila, celdas: [], error: msg('filaMalFormada') });
    pendiente = undefined;
  }
  if (grupo.length > 0) yield grupo;
}

/** Data rows of a CSV file, estimated from its line count (header excluded). */
export async function contarLineas(ruta: string): Promise<number> {
  let n = 0;
  let ultimo = 10;
  for await (const trozo of fs.createReadStream(ruta, { highWaterMark: 1 << 20 })) {
    const b = trozo as Buffer;
    for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) n++;
    if (b.length > 0) ultimo = b[b.length - 1]!;
  }
  if (ultimo !== 10) n++;
  return Math.max(0, n - 1);
}

/** The text of an exceljs cell value (numbers, rich text, hyperlinks, formulas, dates). */
export function textoCelda(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') {
    const o = v as {
      richText?: { text: string }[];
      text?: unknown;
      result?: unknown;
      error?: string;
    };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join('');
    if (o.text !== undefined) return textoCelda(o.text);
    if ('result' in o) return textoCelda(o.result);
  }
  return '';
}

/** Reads the first worksheet of an .xlsx file with exceljs's streaming parsers (xlsx-lector.ts). */
export async function* leerXlsx(ruta: string): AsyncGenerator<FilaLeida[]> {
  let grupo: FilaLeida[] = [];
  for await (const hoja of hojasXlsx(ruta)) {
    for await (const fila of hoja) {
      const valores = fila.values as unknown[];
      const celdas: string[] = [];
      for (let i = 1; i < valores.length; i++) celdas.push(textoCelda(valores[i]));
      revisarCeldas(fila.number, celdas);
      grupo.push({ fila: fila.number, celdas });
      if (grupo.length >= TAMANO_GRUPO) {
        yield grupo;
        grupo = [];
      }
    }
    break;
  }
  if (grupo.length > 0) yield grupo;
}
