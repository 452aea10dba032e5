import { useQuery } from '@tanstack/react-query';
import { semaforoEjercicio } from '@pregon/contract/api/ejercicios';
import { llamar } from '../../../lib/api-client.ts';

/** GET /ejercicio/semaforo/{id}/: recipients per light and the exercise's flags. */
export function obtenerSemaforo(id: number) {
  return llamar(semaforoEjercicio, { params: { id } });
}

/** The semáforo of one exercise, refreshed every 2 s while the page is open. */
export function useSemaforo(id: number) {
  return useQuery({
    queryKey: ['semaforo', id],
    queryFn: () => obtenerSemaforo(id),
    refetchInterval: 2000,
  });
}
