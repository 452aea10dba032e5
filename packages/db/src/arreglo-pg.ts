/**
 * A PostgreSQL array literal of one column of a batch (`{1,2,NULL}`, `{"a","b \"c\""}`), passed as
 * the text of a parameter cast to an array type (`$1::bigint[]`, `$2::text[]`).
 *
 * node-postgres turns a JavaScript array into the same literal (its `arrayString`), but builds the
 * string one element at a time, each element through `toString`, two regular expressions and its
 * quotes: the dispatcher's batches pass about 25 values per message, and that was 3.9 KB of garbage
 * per message in its allocation profile (bench/dispatch-pg.ts). Here each element is made once and
 * the whole is one `join`. Elements, as node-postgres writes them: null and undefined are NULL;
 * strings are quoted, with `"` and `\` escaped; numbers and booleans go as written (unquoted: the
 * array's element type reads them), so they must be finite for numeric types.
 */
export function arregloPg(xs: readonly Elemento[]): string;
/** The same of one value of each item of a batch (`arregloPg(filas, (f) => f.id)`), without an
 * array of the values in between. */
export function arregloPg<T>(xs: readonly T[], valor: (x: T) => Elemento): string;
export function arregloPg<T>(xs: readonly T[], valor?: (x: T) => Elemento): string {
  const f = valor ?? ((x: T) => x as Elemento);
  return `{${xs.map((x) => elemento(f(x))).join(',')}}`;
}

type Elemento = string | number | boolean | null | undefined;

const ESPECIALES = /["\\]/;

function elemento(x: Elemento): string {
  if (x === null || x === undefined) return 'NULL';
  if (typeof x !== 'string') return String(x);
  return ESPECIALES.test(x) ? `"${x.replace(/["\\]/g, '\\$&')}"` : `"${x}"`;
}
