/**
 * Which text encoding an import file is written in, and how its first rows look (issue 26.5): the
 * same rule on the server (which reads the file) and in the import dialog (which shows the
 * detected encoding and a preview, and lets the operator choose another). Spanish Excel saves
 * 'CSV (delimitado por comas)' in Windows-1252 with ';', 'CSV UTF-8' with a BOM, and 'Texto
 * Unicode' in UTF-16 LE with a BOM and tabs.
 */
import { msg } from '../messages.ts';

/** The encodings the import reads (WHATWG names, as TextDecoder takes them). */
export const CODIFICACIONES = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
/** One of CODIFICACIONES. */
export type Codificacion = (typeof CODIFICACIONES)[number];

/** The Spanish label of each encoding (the dialog's choice and its 'Codificación detectada'). */
export const etiquetaCodificacion = (c: Codificacion): string =>
  ({
    'utf-8': msg('codificacionUtf8'),
    'utf-16le': msg('codificacionUtf16le'),
    'utf-16be': msg('codificacionUtf16be'),
    'windows-1252': msg('codificacionWindows1252'),
  })[c];

/** Bytes of a file's start read to detect its encoding and to preview it. */
export const MUESTRA_CODIFICACION = 64 * 1024;

/**
 * The encoding of a file from its first bytes: a BOM says it (UTF-8 EF BB BF, UTF-16 LE FF FE,
 * UTF-16 BE FE FF); without one, text with a zero byte in most odd (or even) positions is UTF-16
 * LE (or BE), bytes that are valid UTF-8 are UTF-8 (plain ASCII included), and anything else is
 * Windows-1252 (what Excel in Spanish writes as 'CSV').
 */
export function detectarCodificacion(muestra: Uint8Array): Codificacion {
  const [a, b, c] = muestra;
  if (a === 0xef && b === 0xbb && c === 0xbf) return 'utf-8';
  if (a === 0xff && b === 0xfe) return 'utf-16le';
  if (a === 0xfe && b === 0xff) return 'utf-16be';
  const pares = Math.min(muestra.length >> 1, 4096);
  if (pares >= 2) {
    let cerosImpares = 0;
    let cerosPares = 0;
    for (let i = 0; i < pares; i++) {
      if (muestra[2 * i] === 0) cerosPares++;
      if (muestra[2 * i + 1] === 0) cerosImpares++;
    }
    if (cerosImpares > pares * 0.4 && cerosPares < pares * 0.05) return 'utf-16le';
    if (cerosPares > pares * 0.4 && cerosImpares < pares * 0.05) return 'utf-16be';
  }
  try {
    // stream: a multi-byte character cut at the sample's end is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(muestra, { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** The most frequent of ',', ';' and tab outside quotes in a header line (default ','). */
export function detectarSeparador(linea: string): string {
  const sinComillas = linea.replace(/"[^"]*"/g, '');
  let mejor = ',';
  let max = 0;
  for (const c of [',', ';', '\t']) {
    const n = sinComillas.split(c).length - 1;
    if (n > max) {
      max = n;
      mejor = c;
    }
  }
  return mejor;
}

/** The Spanish name of a separator ('coma', 'punto y coma', 'tabulador'). */
export const etiquetaSeparador = (s: string): string =>
  s === ';'
    ? msg('separadorPuntoYComa')
    : s === '\t'
      ? msg('separadorTabulador')
      : msg('separadorComa');

/** The cells of one CSV line split by `separador`, quotes honoured ("" is a quote). */
function celdas(linea: string, separador: string): string[] {
  const r: string[] = [];
  let celda = '';
  let entreComillas = false;
  for (let i = 0; i < linea.length; i++) {
    const c = linea[i]!;
    if (c === '"') {
      if (entreComillas && linea[i + 1] === '"') {
        celda += '"';
        i++;
      } else entreComillas = !entreComillas;
    } else if (c === separador && !entreComillas) {
      r.push(celda.trim());
      celda = '';
    } else celda += c;
  }
  r.push(celda.trim());
  return r;
}

/** The first `n` rows of a file's start decoded with `codificacion` and split by the separator its
 * first line uses (a preview: a quoted cell spanning lines shows cut). */
export function vistaPrevia(
  muestra: Uint8Array,
  codificacion: Codificacion,
  n = 5,
): { separador: string; filas: string[][] } {
  const texto = new TextDecoder(codificacion).decode(muestra, { stream: true });
  const lineas = texto
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, n);
  const separador = detectarSeparador(lineas[0] ?? '');
  return { separador, filas: lineas.map((l) => celdas(l, separador)) };
}
