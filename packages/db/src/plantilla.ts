import { CompiledQuery, type Compilable, type Kysely, type Transaction } from 'kysely';
import type { DB } from './schema.ts';

// Kysely builds and compiles a query's SQL on every call. For the directory's keyset page (the
// page, each phone's categories, the bounded count and the look-behind as subqueries) that costs
// about 85 µs, as much as SQLite takes to run the statement itself. Its text depends only on the
// query's shape (which filters are set, how many words and categories, which way it reads), so a
// hot query can be built once per shape and reused with each call's values as parameters.

/** One value while a template's SQL is built: compiled in as a parameter and swapped for the
 * call's value on every run. */
class Hueco {
  constructor(
    readonly nombre: string,
    readonly indice?: number,
  ) {}
}

/** The values a template takes: scalars, lists (each element a parameter) or undefined. */
export type ValoresPlantilla = Record<
  string,
  string | number | undefined | readonly (string | number)[]
>;

/** Most compiled templates kept per dialect (shapes are few; this only bounds a misuse). */
const MAX_PLANTILLAS = 500;

/** Compiled templates, per SQL dialect (the adapter's class) and per name and shape. */
const compiladas = new WeakMap<object, Map<string, CompiledQuery>>();

/** The shape of a set of values: for each name, whether it is set and a list's length. */
const forma = (valores: ValoresPlantilla) =>
  Object.entries(valores)
    .map(([n, v]) => `${n}:${v === undefined ? '-' : Array.isArray(v) ? v.length : '1'}`)
    .join(',');

/**
 * Runs the query `construir` builds, compiling it once per `nombre` and shape of `valores`.
 *
 * `construir` receives stand-ins for the values, typed as the values themselves: it may pass them
 * to Kysely as query values and branch on whether one is undefined or on a list's length, and
 * nothing else (no arithmetic, no string methods, no comparisons). Anything else its SQL depends
 * on (a sort order, an operator) belongs in `nombre`.
 */
export async function ejecutarPlantilla<V extends ValoresPlantilla, R>(
  k: Kysely<DB> | Transaction<DB>,
  nombre: string,
  valores: V,
  construir: (v: V) => Compilable<R>,
): Promise<R[]> {
  const dialecto = k.getExecutor().adapter.constructor;
  let porClave = compiladas.get(dialecto);
  if (!porClave) compiladas.set(dialecto, (porClave = new Map()));
  const clave = `${nombre}|${forma(valores)}`;
  let plantilla = porClave.get(clave);
  if (!plantilla) {
    const huecos = Object.fromEntries(
      Object.entries(valores).map(([n, v]) => [
        n,
        v === undefined ? v : Array.isArray(v) ? v.map((_, i) => new Hueco(n, i)) : new Hueco(n),
      ]),
    ) as unknown as V;
    plantilla = construir(huecos).compile();
    porClave.set(clave, plantilla);
    if (porClave.size > MAX_PLANTILLAS) porClave.delete(porClave.keys().next().value!);
  }
  const parametros = plantilla.parameters.map((p) => {
    if (!(p instanceof Hueco)) return p;
    const v = valores[p.nombre];
    return p.indice === undefined ? v : (v as readonly unknown[])[p.indice];
  });
  const r = await k.executeQuery<R>(CompiledQuery.raw(plantilla.sql, parametros));
  return r.rows;
}
