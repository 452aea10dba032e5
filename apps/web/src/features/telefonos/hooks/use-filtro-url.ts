import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { FiltroTelefonos } from '../api/get-telefonos.ts';

/** Rows per page of the phones list. */
export const TAMANO_PAGINA = 20;

const entero = (v: string | null) => {
  const n = Number(v);
  return v !== null && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** The list's search, filters and page, kept in the URL (?q=&estado=&categoria=&page=) so a
 * reload or a shared link shows the same view. Changing a filter goes back to page 1. */
export function useFiltroUrl() {
  const [params, setParams] = useSearchParams();
  const filtro: FiltroTelefonos = useMemo(
    () => ({
      q: params.get('q') || undefined,
      estado: entero(params.get('estado')),
      categoria: entero(params.get('categoria')),
      page: entero(params.get('page')) ?? 1,
      size: TAMANO_PAGINA,
    }),
    [params],
  );
  const cambiar = useCallback(
    (cambios: Partial<Omit<FiltroTelefonos, 'size'>>) => {
      setParams(
        (antes) => {
          const p = new URLSearchParams(antes);
          for (const [k, v] of Object.entries(cambios)) {
            if (v === undefined || v === '' || (k === 'page' && v === 1)) p.delete(k);
            else p.set(k, String(v));
          }
          if (!('page' in cambios)) p.delete('page');
          return p;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return { filtro, cambiar };
}
