import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { buscarTelefonos } from '@pregon/contract/api/telefonos';
import { llamar } from '../../../lib/api-client.ts';

/** What the phones list asks for: search, filters and the page (a cursor, or an old link's page). */
export interface FiltroTelefonos {
  q?: string;
  estado?: number;
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
