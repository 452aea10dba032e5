import { useRef } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { POLEO_CADENA_MS, tableroCadena } from '@pregon/contract/api/cadena';
import { llamar } from '../../../lib/api-client.ts';
import { CLAVE_TABLEROS } from '../../../lib/claves-consulta.ts';

/**
 * GET /tablero/cadena/{id}/: the follow-up chain the exercise belongs to (issue 25.3), null when
 * it is alone. Read again while one of its links runs, every POLEO_CADENA_MS or ten times its last
 * answer's time if longer (a chain of a million attempts takes seconds on SQLite, whose statements
 * hold the api's process), and whenever the dashboard's exercise changes state (`estado` is part
 * of the key; the previous answer stays on screen meanwhile).
 */
export function useCadena(id: number, estado: string | undefined) {
  const ultimoMs = useRef(0);
  return useQuery({
    queryKey: [...CLAVE_TABLEROS, 'cadena', id, estado],
    queryFn: async () => {
      const inicio = performance.now();
      const r = await llamar(tableroCadena, { params: { id } });
      ultimoMs.current = performance.now() - inicio;
      return r;
    },
    refetchInterval: (q) =>
      q.state.data?.cadena?.en_marcha
        ? Math.max(POLEO_CADENA_MS, Math.round(ultimoMs.current * 10))
        : false,
    placeholderData: keepPreviousData,
  });
}
