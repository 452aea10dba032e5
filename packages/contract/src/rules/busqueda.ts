/**
 * How text is compared when searching and when telling names apart (issue 26.4 and 26.5): one
 * folding shared by the web's client-side filters, the api's searches (stored folded columns) and
 * the uniqueness of categories, states and countries.
 *
 * Case and accents are ignored both ways ('martinez' finds 'Martínez', 'MARTÍNEZ' finds
 * 'martinez'), and so is the tilde of ñ: 'munoz' finds 'Muñoz' and 'peña' finds 'Pena'. Spanish
 * sorts ñ as its own letter, but a search box is for finding: names reach the directory typed on
 * keyboards and by systems without ñ ('Munoz', 'Nunez' from a US keyboard or an old export), and
 * the operator who types 'nunez' must find 'Núñez'. Keeping ñ apart would hide those rows with no
 * hint; folding it at worst lists a 'Pena' beside the 'Peña' sought, which the operator sees.
 */

/** Combining marks left by NFD (acute, grave, diaeresis, tilde, cedilla...). */
const MARCAS = /\p{M}+/gu;
/** Printable ASCII: folding it is lower-casing it (the import's hot path: most names). */
const ASCII = /^[\x20-\x7e]*$/;

/** The folded form of a text for searching: lower case, no accents or diacritics (ñ → n, ü → u);
 * everything else (spaces, digits, punctuation) as it was. */
export function plegar(texto: string): string {
  if (ASCII.test(texto)) return texto.toLowerCase();
  return texto.normalize('NFD').replace(MARCAS, '').toLowerCase().normalize('NFC');
}

/** The key that makes two catalogue names one: folded, without surrounding spaces and with inner
 * runs of spaces as one ('Bomberos', ' bomberos ' and 'BOMBEROS' share a key). */
export function claveNombre(texto: string): string {
  return plegar(texto.trim().replace(/\s+/g, ' '));
}

/** The folded, space-separated words of a search (empty text: none). */
export function terminosPlegados(texto: string | null | undefined): string[] {
  return plegar(texto ?? '')
    .split(/\s+/)
    .filter((t) => t !== '');
}

/** Whether every word of the search appears, folded, in some of the values (each word may match
 * a different value; no words: true). */
export function coincidenTerminos(valores: readonly unknown[], texto: string | null | undefined) {
  const terminos = terminosPlegados(texto);
  if (terminos.length === 0) return true;
  const plegados = valores
    .filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
    .map((v) => plegar(String(v)));
  return terminos.every((t) => plegados.some((v) => v.includes(t)));
}
