/** How a cell text a spreadsheet program would run as a formula begins: = + - @, or a tab or
 * carriage return (which some programs strip before reading the rest). */
export const INICIO_FORMULA = /^[=+\-@\t\r]/;

/** A text cell no spreadsheet runs as a formula (ARCHITECTURE 8): prefixed with ' when it begins
 * like one. Every export uses it: the api's CSV and after-action .xlsx and the browser-built .xlsx.
 * The phone import strips that apostrophe again, so an exported list imports as it was. */
export function textoSinFormula(texto: string): string {
  return INICIO_FORMULA.test(texto) ? `'${texto}` : texto;
}

/** A cell value as written: text through textoSinFormula, numbers and other values as they are. */
export function celdaSinFormula<T>(valor: T): T | string {
  return typeof valor === 'string' ? textoSinFormula(valor) : valor;
}
