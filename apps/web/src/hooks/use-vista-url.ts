import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { coincidenTerminos, terminosPlegados } from '@pregon/contract/rules/busqueda';

/** What a list keeps in the URL: its search text, page and (on tabbed screens) tab. */
export interface VistaUrl {
  q: string;
  page: number;
  tab?: string;
}

/** The query string with `cambios` applied: an empty value or page 1 removes its parameter, and
 * a change that does not set the page goes back to page 1 (a new search starts at the top). */
export function conCambios(
  antes: URLSearchParams,
  cambios: Readonly<Record<string, string | number | undefined>>,
): URLSearchParams {
  const p = new URLSearchParams(antes);
  for (const [k, v] of Object.entries(cambios)) {
    if (v === undefined || v === '' || (k === 'page' && v === 1)) p.delete(k);
    else p.set(k, String(v));
  }
  if (!('page' in cambios)) p.delete('page');
  return p;
}

/** The search, page and tab of a list kept in the URL (?q=&page=&tab=), so a reload or a shared
 * link shows the same view; changing the search or the tab goes back to page 1. */
export function useVistaUrl() {
  const [params, setParams] = useSearchParams();
  const vista: VistaUrl = useMemo(() => {
    const page = Number(params.get('page'));
    return {
      q: params.get('q') ?? '',
      page: Number.isSafeInteger(page) && page > 0 ? page : 1,
      tab: params.get('tab') ?? undefined,
    };
  }, [params]);
  // The router applies a change in a transition: a second change before it re-renders (a click
  // on the switch, then typing at once) would start from the old query and undo the first. Each
  // change starts from the last one asked for until the URL shows it.
  const pedido = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    pedido.current = null;
  }, [params]);
  const cambiar = useCallback(
    (cambios: Partial<VistaUrl>) =>
      setParams(
        (antes) => {
          const nuevo = conCambios(pedido.current ?? antes, cambios);
          pedido.current = nuevo;
          return nuevo;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { vista, cambiar };
}

/** The rows of a client-side list whose fields contain every word of the search text, ignoring
 * case and accents (the contract's folding, the same as the api's searches). */
export function filtrarPorTexto<T>(filas: readonly T[], q: string, campos: (f: T) => unknown[]) {
  if (terminosPlegados(q).length === 0) return filas;
  return filas.filter((f) => coincidenTerminos(campos(f), q));
}
