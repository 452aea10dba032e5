import { msg } from '@pregon/contract/messages';
import { celdaSinFormula } from '@pregon/contract/rules/spreadsheet';
import { CAMPOS_OMITIDOS_HOJA, tituloColumnaReporte } from '@pregon/contract/rules/titulos-reporte';

/** One column of a spreadsheet: its header and the row field it shows. */
export interface ColumnaHoja {
  titulo: string;
  campo: string;
}

/** A report's columns from its row fields: `base` first (so an empty report keeps its header),
 * then any other field in order of first appearance (such as reactivo_texto_N), each titled in
 * Spanish (tituloColumnaReporte: question N by its text from `preguntas`), without the status
 * code that `resultado` already says (issue 26.7). */
export function columnasDeFilas(
  filas: readonly object[],
  base: readonly string[] = [],
  preguntas?: ReadonlyMap<number, string>,
): ColumnaHoja[] {
  const campos = new Set<string>(base);
  for (const f of filas) for (const k of Object.keys(f)) campos.add(k);
  return [...campos]
    .filter((campo) => !CAMPOS_OMITIDOS_HOJA.has(campo))
    .map((campo) => ({ titulo: tituloColumnaReporte(campo, preguntas), campo }));
}

/** One row of a spreadsheet keyed by field, in the columns' order: a missing field is empty, and
 * a text that begins like a formula (= + - @, tab, CR) is prefixed with ' as the api's exports
 * do (textoSinFormula), so no spreadsheet runs what a person typed into a name or an answer. */
export function filaDeHoja(
  columnas: readonly ColumnaHoja[],
  fila: object,
): Record<string, unknown> {
  const r = fila as Record<string, unknown>;
  return Object.fromEntries(columnas.map((c) => [c.campo, celdaSinFormula(r[c.campo] ?? '')]));
}

/** A file name safe on every system, from a free text such as an exercise's name. */
export function nombreArchivoSeguro(nombre: string): string {
  const limpio = [...nombre]
    .map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? ' ' : c))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  return limpio.slice(0, 120) || 'reporte';
}

/** The bytes of a real .xlsx with one sheet: bold, frozen header row, then one row per item
 * (filaDeHoja). exceljs is loaded here, on demand, so it stays out of the first screen's
 * JavaScript. */
export async function libroXlsx(
  columnas: readonly ColumnaHoja[],
  filas: readonly object[],
  hoja = msg('hojaReporte'),
): Promise<ArrayBuffer> {
  const { default: ExcelJS } = await import('exceljs');
  const libro = new ExcelJS.Workbook();
  libro.creator = 'Pregón';
  libro.created = new Date();
  const h = libro.addWorksheet(hoja.slice(0, 31));
  h.columns = columnas.map((c) => ({
    header: c.titulo,
    key: c.campo,
    width: Math.min(60, Math.max(12, c.titulo.length + 4)),
  }));
  for (const f of filas) h.addRow(filaDeHoja(columnas, f));
  h.getRow(1).font = { bold: true };
  h.views = [{ state: 'frozen', ySplit: 1 }];
  return libro.xlsx.writeBuffer();
}

/** Builds a real .xlsx in the browser (libroXlsx) and downloads it as `{archivo}.xlsx`. */
export async function descargarXlsx(
  archivo: string,
  columnas: readonly ColumnaHoja[],
  filas: readonly object[],
  hoja = msg('hojaReporte'),
): Promise<void> {
  const buffer = await libroXlsx(columnas, filas, hoja);
  const blob = new Blob([buffer], {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${nombreArchivoSeguro(archivo)}.xlsx`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
