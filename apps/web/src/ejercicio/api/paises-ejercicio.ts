import { useQuery } from '@tanstack/react-query';
import { paisesDeEjercicio } from '@pregon/contract/api/paises';
import { llamar } from '../../lib/api-client.ts';

/** GET /ejercicio/paises/{id}/ (issue 48.1): the exercise's recipients per country and the
 * warning when they are in more than one. Read each time the start confirmation opens. */
export function usePaisesEjercicio(id: number, activo = true) {
  return useQuery({
    queryKey: ['paises-ejercicio', id],
    queryFn: ({ signal }) => llamar(paisesDeEjercicio, { params: { id }, signal }),
    enabled: activo,
    staleTime: 0,
  });
}
