import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { conCambios } from '../../../hooks/use-vista-url.ts';
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
    (cambios: Partial<Omit<FiltroTelefonos, 'size'>>) =>
      setParams((antes) => conCambios(antes, cambios), { replace: true }),
    [setParams],
  );
  return { filtro, cambiar };
}
