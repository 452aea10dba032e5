import { useQuery } from '@tanstack/react-query';
import { plantillasEquipo } from '@pregon/contract/api/plantillas';
import { llamar } from '../../../lib/api-client.ts';

/** GET /equipos/{id}/plantillas/: a WhatsApp device's approved templates. */
export function obtenerPlantillas(id: number) {
  return llamar(plantillasEquipo, { params: { id } });
}

/** The approved templates of the chosen device (nothing until one is chosen). */
export function usePlantillas(id: number | undefined) {
  return useQuery({
    queryKey: ['plantillas', id],
    queryFn: () => obtenerPlantillas(id!),
    enabled: id !== undefined,
    staleTime: 5 * 60_000,
  });
}
