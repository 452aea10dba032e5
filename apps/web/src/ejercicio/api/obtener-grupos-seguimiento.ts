import { useQuery } from '@tanstack/react-query';
import { gruposSeguimiento } from '@pregon/contract/api/ejercicios';
import { llamar } from '../../lib/api-client.ts';

/** GET /ejercicio/seguimiento/{id}/: the follow-up sets of a drill with their counts now (issue
 * 25.1), read each time the 'Reenviar a no alcanzados' dialog opens. */
export function useGruposSeguimiento(id: number, activo: boolean) {
  return useQuery({
    queryKey: ['seguimiento', id],
    queryFn: () => llamar(gruposSeguimiento, { params: { id } }),
    enabled: activo,
    staleTime: 0,
    gcTime: 0,
  });
}
