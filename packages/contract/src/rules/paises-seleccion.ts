import { msg } from '../messages.ts';

// Issue 48.1: a national drill stays national. A choice of states that reaches more than one
// country is refused unless asked for explicitly (`varios_paises`), and is said with the count
// per country wherever it is chosen and confirmed.

/** A state with its country, as the catalogue reads (GET /estados/). */
export interface EstadoDePais {
  id_estado: number;
  id_pais: number;
  pais?: string;
}

/** A country a choice of states reaches and how many of those states (or recipients) are its. */
export interface PaisContado {
  id_pais: number;
  pais: string;
  n: number;
}

/** The countries of the chosen states (ids not in the catalogue are left out), in the order they
 * first appear. */
export function paisesDeSeleccion(
  catalogo: readonly EstadoDePais[],
  ids: readonly number[],
): PaisContado[] {
  const porId = new Map(catalogo.map((e) => [e.id_estado, e]));
  const paises = new Map<number, PaisContado>();
  for (const id of new Set(ids)) {
    const e = porId.get(id);
    if (!e) continue;
    const p = paises.get(e.id_pais);
    if (p) p.n += 1;
    else paises.set(e.id_pais, { id_pais: e.id_pais, pais: e.pais ?? String(e.id_pais), n: 1 });
  }
  return [...paises.values()];
}

/** 'México: 32, Guatemala: 1'. */
export const detallePaises = (paises: readonly PaisContado[]): string =>
  paises.map((p) => `${p.pais}: ${p.n}`).join(', ');

/** The refusal of a choice that reaches more than one country when it was not asked for (field
 * `estados`); null when it stays in one country or `varios_paises` was chosen. */
export function errorVariosPaises(
  paises: readonly PaisContado[],
  variosPaises: boolean,
): { campo: 'estados'; mensaje: string } | null {
  if (paises.length <= 1 || variosPaises) return null;
  return {
    campo: 'estados',
    mensaje: msg('variosPaisesSinPermiso', {
      n: paises.length,
      paises: paises.map((p) => p.pais).join(', '),
    }),
  };
}

/** The warning shown in the dialog and the start confirmation when a choice reaches more than one
 * country (null for one): 'Este ejercicio llegará a 2 países: México: 502, Guatemala: 1'. */
export function avisoVariosPaises(paises: readonly PaisContado[]): string | null {
  if (paises.length <= 1) return null;
  return msg('avisoVariosPaises', { n: paises.length, detalle: detallePaises(paises) });
}

/** A picker's value for 'Todo {país}' (a negative number, never a state's id). */
export const valorTodoPais = (id_pais: number): number => -id_pais;

/** The states of a picker's value: each 'Todo {país}' becomes that country's states (chosen only
 * by that explicit option), the rest stay; no repeats, in order. */
export function expandirTodoPais(
  catalogo: readonly EstadoDePais[],
  valor: readonly number[],
): number[] {
  const fuera = new Set<number>();
  for (const v of valor) if (v < 0) fuera.add(-v);
  const ids = valor.filter((v) => v > 0);
  for (const e of catalogo) if (fuera.has(e.id_pais)) ids.push(e.id_estado);
  return [...new Set(ids)];
}

/** The catalogue grouped by country, for a picker: in a choice of several states each group
 * starts with 'Todo {país}'; a picker of one state (`todoPais: false`: a phone's state, the
 * phones filter, the import's default) has the groups alone. */
export function opcionesEstadosPorPais<E extends EstadoDePais & { estado: string }>(
  catalogo: readonly E[],
  { todoPais = true }: { todoPais?: boolean } = {},
): { label: string; title: string; options: { value: number; label: string }[] }[] {
  const grupos = new Map<number, { pais: string; estados: E[] }>();
  for (const e of catalogo) {
    const g = grupos.get(e.id_pais) ?? { pais: e.pais ?? String(e.id_pais), estados: [] };
    g.estados.push(e);
    grupos.set(e.id_pais, g);
  }
  return [...grupos.entries()].map(([id_pais, g]) => ({
    label: g.pais,
    title: g.pais,
    options: [
      ...(todoPais
        ? [{ value: valorTodoPais(id_pais), label: msg('todoElPais', { pais: g.pais }) }]
        : []),
      ...g.estados.map((e) => ({ value: e.id_estado, label: e.estado })),
    ],
  }));
}
