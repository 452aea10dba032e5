import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { paisesDeSeleccionTelefonos } from '@pregon/contract/api/paises';
import { llamar } from '../../../lib/api-client.ts';

/** GET /telefonos/paises/ (issue 48.1): the phones a selection not saved yet reaches, per
 * country, and the warning when they are in more than one. Asked only when the chosen states are
 * in several countries and a category is chosen (`activo`); the previous answer stays on screen
 * while the next one loads. */
export function usePaisesSeleccion(
  estados: readonly number[],
  categorias: readonly number[],
  activo: boolean,
) {
  const e = [...new Set(estados)].sort((a, b) => a - b);
  const c = [...new Set(categorias)].sort((a, b) => a - b);
  return useQuery({
    queryKey: ['paises-seleccion', e, c],
    queryFn: ({ signal }) =>
      llamar(paisesDeSeleccionTelefonos, {
        query: { estados: e.join(','), categorias: c.join(',') },
        signal,
      }),
    enabled: activo && e.length > 0 && c.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
