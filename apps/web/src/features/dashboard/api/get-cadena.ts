import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { POLEO_CADENA_MS, tableroCadena } from '@pregon/contract/api/cadena';
import { llamar } from '../../../lib/api-client.ts';
import { CLAVE_TABLEROS } from '../../../api/get-ejercicios.ts';

/**
 * GET /tablero/cadena/{id}/: the follow-up chain the exercise belongs to (issue 25.3), null when
 * it is alone. Read again every POLEO_CADENA_MS while one of its links runs, and whenever the
 * dashboard's exercise changes state (`estado` is part of the key; the previous answer stays on
 * screen meanwhile).
 */
export function useCadena(id: number, estado: string | undefined) {
  return useQuery({
    queryKey: [...CLAVE_TABLEROS, 'cadena', id, estado],
    queryFn: () => llamar(tableroCadena, { params: { id } }),
    refetchInterval: (q) => (q.state.data?.cadena?.en_marcha ? POLEO_CADENA_MS : false),
    placeholderData: keepPreviousData,
  });
}
