import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { FILAS_POR_PAGINA } from '@pregon/contract/constants';
import { seleccionTelefonos } from '@pregon/contract/api/telefonos';
import { llamarCompleto } from '../../../lib/api-client.ts';

/** What the phone preview asks for: states (issue 24.5: one or several), categories, search text
 * and page (from 1). */
export interface FiltroSeleccion {
  estados: readonly number[];
  categorias: readonly number[];
  q: string;
  pagina: number;
}

/**
 * GET /telefonos/{estado}/?categorias=…&limit=&offset=&q=: one page of the phones the exercise
 * would reach, paged on the server (selections can hold millions); total from X-Total-Count.
 */
export async function obtenerSeleccion(f: FiltroSeleccion) {
  const { datos, headers } = await llamarCompleto(seleccionTelefonos, {
    params: { estado: f.estados[0]! },
    query: {
      categorias: f.categorias.join(','),
      estados: f.estados.length > 1 ? f.estados.join(',') : undefined,
      limit: FILAS_POR_PAGINA,
      offset: (f.pagina - 1) * FILAS_POR_PAGINA,
      q: f.q.trim() || undefined,
    },
  });
  return { filas: datos, total: Number(headers.get('x-total-count') ?? datos.length) };
}

/** The preview page; idle until a state and at least one category are chosen. */
export function useSeleccionTelefonos(f: FiltroSeleccion) {
  const listo = f.estados.length > 0 && f.categorias.length > 0;
  return useQuery({
    queryKey: [
      'telefonos-seleccion',
      [...f.estados].sort(),
      [...f.categorias].sort(),
      f.q.trim(),
      f.pagina,
    ],
    queryFn: () => obtenerSeleccion(f),
    enabled: listo,
    placeholderData: keepPreviousData,
  });
}
