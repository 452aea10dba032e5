import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { buscarTelefonos, contarTelefonos } from '@pregon/contract/api/telefonos';
import { llamar } from '../../../lib/api-client.ts';

/** What the phones list asks for: search, filters and the page (a cursor, or an old link's page). */
export interface FiltroTelefonos {
  q?: string;
  estado?: number;
  /** Issue 48.1: every state of this country ('Todo México'). */
  pais?: number;
  categoria?: number;
  page: number;
  size: number;
  /** The page after this phone id. */
  despues?: number;
  /** The page before this phone id. */
  antes?: number;
  /** The last page. */
  ultima?: '1';
}

/** The list's filters without its page: what its count and its exports keep. */
export type FiltrosLista = Pick<FiltroTelefonos, 'q' | 'estado' | 'pais' | 'categoria'>;

/** The filters of a view of the list (its page left out). */
export const filtrosDe = (f: FiltrosLista): FiltrosLista => ({
  q: f.q,
  estado: f.estado,
  pais: f.pais,
  categoria: f.categoria,
});

/** Query key prefix of the phones list; invalidating it reloads every page. */
export const CLAVE_TELEFONOS = ['telefonos'] as const;

/** GET /telefonos/: one page of the directory, each phone with its categories. */
export function obtenerTelefonos(f: FiltroTelefonos, signal?: AbortSignal) {
  return llamar(buscarTelefonos, { query: { ...f }, signal });
}

/** One page of phones; the previous page stays on screen while the next one loads. */
export function useTelefonos(f: FiltroTelefonos) {
  return useQuery({
    queryKey: [...CLAVE_TELEFONOS, f],
    queryFn: ({ signal }) => obtenerTelefonos(f, signal),
    placeholderData: keepPreviousData,
  });
}

/** GET /telefonos/conteo/: the exact count of the filter, asked only when the page's bounded
 * count says 'more than' (`pedir`); kept a minute per filter, reloaded with the list. */
export function useConteoTelefonos(f: FiltrosLista, pedir: boolean) {
  const filtro = filtrosDe(f);
  return useQuery({
    queryKey: [...CLAVE_TELEFONOS, 'conteo', filtro],
    queryFn: ({ signal }) => llamar(contarTelefonos, { query: filtro, signal }),
    enabled: pedir,
    staleTime: 60_000,
  });
}
