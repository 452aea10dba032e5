// Ant Design's prebuilt styles (antd/dist/antd.css, ~1 MB: every component) without the rules of
// the components Pregón never renders (issue 45, first screen). Every rule of that file is checked
// at every style recalculation, and each component brings attribute selectors such as
// `.ant-tree-css-var [class^="ant-tree"]` that are tried against every element with a class: the
// exercises list's table measures the scrollbar at mount (a forced layout) and paid for all of
// them. A selector that needs a class of an unused component cannot match anything, so dropping it
// changes no style. The list is checked against the app's imports by src/app/estilos-antd.test.ts.

/** Components (class prefix after `ant-`) no screen uses, directly or through another one. */
export const COMPONENTES_SIN_USO = [
  'affix',
  'anchor',
  'avatar',
  'breadcrumb',
  'carousel',
  'cascader',
  'color-picker',
  'float-btn',
  'image',
  'list',
  'masonry',
  'mentions',
  'notification',
  'otp',
  'qrcode',
  'rate',
  'ribbon',
  'select-tree',
  'slider',
  'splitter',
  'steps',
  'timeline',
  'tour',
  'transfer',
  'tree',
  'tree-select',
];

/** The names of the antd components these class prefixes belong to (for the import check). */
export const NOMBRES_SIN_USO = [
  'Affix',
  'Anchor',
  'Avatar',
  'Breadcrumb',
  'Carousel',
  'Cascader',
  'ColorPicker',
  'FloatButton',
  'Image',
  'List',
  'Masonry',
  'Mentions',
  'notification',
  'QRCode',
  'Rate',
  'Slider',
  'Splitter',
  'Steps',
  'Timeline',
  'Tour',
  'Transfer',
  'Tree',
  'TreeSelect',
];

const CLASE = /(?:\.ant-|\[class[\^*]?=["'] ?ant-)([a-z][a-z0-9-]*)/g;

/** Whether a selector can only match inside or on an element of an unused component. */
function sinUso(selector: string, prefijos: readonly string[]): boolean {
  // A class under :not() is a condition, not a need.
  const sinNot = selector.replace(/:not\([^()]*\)/g, '');
  for (const m of sinNot.matchAll(CLASE)) {
    const nombre = m[1] ?? '';
    // Prefixes match whole name parts: 'select-tree' is unused, 'select-selector' is Select's.
    if (prefijos.some((p) => nombre === p || nombre.startsWith(`${p}-`))) return true;
  }
  return false;
}

/** A selector list split at its top-level commas (not those inside :is(), :where(), :not()). */
function selectores(lista: string): string[] {
  const salida: string[] = [];
  let nivel = 0;
  let desde = 0;
  for (let i = 0; i < lista.length; i++) {
    const c = lista[i];
    if (c === '(' || c === '[') nivel++;
    else if (c === ')' || c === ']') nivel--;
    else if (c === ',' && nivel === 0) {
      salida.push(lista.slice(desde, i));
      desde = i + 1;
    }
  }
  salida.push(lista.slice(desde));
  return salida;
}

/** Splits a block's text into top-level items: `selector{...}` and `@rule ...{...}` / `@x;`. */
function items(css: string): { cabeza: string; cuerpo: string | null }[] {
  const salida: { cabeza: string; cuerpo: string | null }[] = [];
  let i = 0;
  while (i < css.length) {
    const llave = css.indexOf('{', i);
    const puntoYComa = css.indexOf(';', i);
    if (llave === -1) {
      if (css.slice(i).trim()) salida.push({ cabeza: css.slice(i), cuerpo: null });
      break;
    }
    if (css[i] === '@' && puntoYComa !== -1 && puntoYComa < llave) {
      salida.push({ cabeza: css.slice(i, puntoYComa + 1), cuerpo: null });
      i = puntoYComa + 1;
      continue;
    }
    let nivel = 1;
    let j = llave + 1;
    for (; j < css.length && nivel > 0; j++) {
      if (css[j] === '{') nivel++;
      else if (css[j] === '}') nivel--;
    }
    salida.push({ cabeza: css.slice(i, llave), cuerpo: css.slice(llave + 1, j - 1) });
    i = j;
  }
  return salida;
}

/**
 * antd.css without the selectors that need an unused component's class; a rule left with none is
 * dropped, @media, @supports, @container (and @layer, @scope) blocks are filtered inside and
 * dropped when emptied; everything else (@keyframes, @font-face) is kept as it is.
 */
export function filtrarEstilosAntd(
  css: string,
  prefijos: readonly string[] = COMPONENTES_SIN_USO,
): string {
  const bloque = (texto: string): string => {
    let salida = '';
    for (const { cabeza, cuerpo } of items(texto)) {
      if (cuerpo === null) {
        salida += cabeza;
        continue;
      }
      const c = cabeza.trim();
      if (/^@(media|supports|layer|container|scope)\b/.test(c)) {
        const dentro = bloque(cuerpo);
        if (dentro.trim()) salida += `${c}{${dentro}}`;
        continue;
      }
      if (c.startsWith('@')) {
        salida += `${c}{${cuerpo}}`;
        continue;
      }
      const quedan = selectores(c).filter((s) => !sinUso(s, prefijos));
      if (quedan.length) salida += `${quedan.join(',')}{${cuerpo}}`;
    }
    return salida;
  };
  return bloque(css);
}
