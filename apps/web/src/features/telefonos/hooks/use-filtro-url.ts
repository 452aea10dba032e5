import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { CURSORES_TELEFONOS } from '@pregon/contract/api/telefonos';
import { conCambios } from '../../../hooks/use-vista-url.ts';
import type { FiltroTelefonos } from '../api/obtener-telefonos.ts';

/** Rows per page of the phones list. */
export const TAMANO_PAGINA = 20;

const entero = (v: string | null) => {
  const n = Number(v);
  return v !== null && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** Which page to show: the first, the one after or before a phone (by id), or the last. */
export type DestinoPagina =
  { a: 'primera' } | { a: 'despues'; id: number } | { a: 'antes'; id: number } | { a: 'ultima' };

/** Every paging parameter of the URL, cleared before a new one is set. */
const SIN_PAGINA = Object.fromEntries(
  [...CURSORES_TELEFONOS, 'page'].map((k) => [k, undefined]),
) as Record<string, undefined>;

/** The list's search, filters and page, kept in the URL (?q=&estado=&pais=&categoria= and the page's
 * cursor: despues=<id>, antes=<id> or ultima=1; an old link's page=N still works) so a reload or a
 * shared link shows the same view. Changing a filter goes back to the first page. */
export function useFiltroUrl() {
  const [params, setParams] = useSearchParams();
  const filtro: FiltroTelefonos = useMemo(() => {
    const despues = entero(params.get('despues'));
    const antes = despues === undefined ? entero(params.get('antes')) : undefined;
    const ultima =
      despues === undefined && antes === undefined && params.get('ultima') === '1'
        ? ('1' as const)
        : undefined;
    const cursor = despues !== undefined || antes !== undefined || ultima !== undefined;
    return {
      q: params.get('q') || undefined,
      estado: entero(params.get('estado')),
      pais: entero(params.get('pais')),
      categoria: entero(params.get('categoria')),
      page: cursor ? 1 : (entero(params.get('page')) ?? 1),
      size: TAMANO_PAGINA,
      ...(despues !== undefined ? { despues } : {}),
      ...(antes !== undefined ? { antes } : {}),
      ...(ultima ? { ultima } : {}),
    };
  }, [params]);
  /** Changes the search or a filter: back to the first page. */
  const cambiar = useCallback(
    (cambios: Partial<Pick<FiltroTelefonos, 'q' | 'estado' | 'pais' | 'categoria'>>) =>
      setParams((antes) => conCambios(antes, { ...SIN_PAGINA, ...cambios }), { replace: true }),
    [setParams],
  );
  /** Goes to another page, keeping the search and the filters. */
  const irA = useCallback(
    (d: DestinoPagina) =>
      setParams(
        (antes) =>
          conCambios(antes, {
            ...SIN_PAGINA,
            ...(d.a === 'despues' || d.a === 'antes' ? { [d.a]: d.id } : {}),
            ...(d.a === 'ultima' ? { ultima: 1 } : {}),
          }),
        { replace: true },
      ),
    [setParams],
  );
  return { filtro, cambiar, irA };
}
