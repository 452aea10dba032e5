import { SaxesParser } from 'saxes';
import type { NodoXml } from '@pregon/contract/rules/cap';
import { error } from '@pregon/servidor/http/errores';

// Issue 47.4: CAP's XML read and written. Reading uses saxes (a strict, namespace-aware streaming
// parser, already what exceljs reads .xlsx with): it never fetches external entities, and a
// document with a DOCTYPE is refused outright, so no entity is ever declared or expanded (billion
// laughs, XXE). Size is bounded by the route's body limit and here by elements and depth.

/** Most elements an incoming CAP document may have (a real alert has a few hundred at most). */
export const MAX_ELEMENTOS_CAP = 20_000;
/** Deepest nesting (alert/info/area/geocode/value is 5). */
export const MAX_PROFUNDIDAD_CAP = 16;

/** Parses XML text into its element tree (text of mixed content concatenated per element).
 * Throws a 400 in Spanish when it is not well formed, declares a DOCTYPE, or is too large. */
export function leerXml(texto: string): NodoXml {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const pila: NodoXml[] = [];
  let raiz: NodoXml | undefined;
  let elementos = 0;
  let fallo: Error | undefined;
  parser.on('doctype', () => {
    throw error(400, 'capXmlDtd', undefined, 'alert');
  });
  parser.on('opentag', (tag) => {
    if (++elementos > MAX_ELEMENTOS_CAP || pila.length >= MAX_PROFUNDIDAD_CAP)
      throw error(
        400,
        'capXmlDemasiadoGrande',
        { max: MAX_ELEMENTOS_CAP, profundidad: MAX_PROFUNDIDAD_CAP },
        'alert',
      );
    const atributos: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) atributos[a.local ?? a.name] = a.value;
    const nodo: NodoXml = {
      nombre: tag.local ?? tag.name,
      ns: tag.uri ?? '',
      hijos: [],
      texto: '',
      atributos,
    };
    const padre = pila[pila.length - 1];
    if (padre) padre.hijos.push(nodo);
    else raiz = nodo;
    pila.push(nodo);
  });
  const agregar = (t: string) => {
    const actual = pila[pila.length - 1];
    if (actual) actual.texto += t;
  };
  parser.on('text', agregar);
  parser.on('cdata', agregar);
  parser.on('closetag', () => {
    pila.pop();
  });
  parser.on('error', (e) => {
    fallo ??= e;
  });
  try {
    parser.write(texto).close();
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode) throw e;
    fallo ??= e as Error;
  }
  if (fallo || !raiz)
    throw error(
      400,
      'capXmlInvalido',
      { detalle: (fallo?.message ?? 'documento vacío').slice(0, 200) },
      'alert',
    );
  return raiz;
}

/** Whether XML 1.0 can carry a UTF-16 unit (C0 controls but tab, newline and return, and
 * U+FFFE/U+FFFF, it cannot). */
const cabeEnXml = (c: number) =>
  c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0x20 && c !== 0xfffe && c !== 0xffff);

/** Text escaped for an XML element's content. */
export function escaparXml(t: string): string {
  let limpio = '';
  for (let i = 0; i < t.length; i++) if (cabeEnXml(t.charCodeAt(i))) limpio += t[i];
  return limpio
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** One element to write: a name and either text or children (absent values are left out). */
export type ElementoXml = [string, string | ElementoXml[] | undefined];

/** Writes elements indented by two spaces per level. */
export function escribirElementos(elementos: readonly ElementoXml[], nivel = 1): string {
  const sangria = '  '.repeat(nivel);
  return elementos
    .filter(([, v]) => v !== undefined)
    .map(([nombre, v]) =>
      typeof v === 'string'
        ? `${sangria}<${nombre}>${escaparXml(v)}</${nombre}>\n`
        : `${sangria}<${nombre}>\n${escribirElementos(v!, nivel + 1)}${sangria}</${nombre}>\n`,
    )
    .join('');
}
