import { useQuery } from '@tanstack/react-query';
import { listarEjercicios } from '@pregon/contract/api/ejercicios';
import { llamar } from '../../../lib/api-client.ts';

/** One exercise's list row, read from GET /ejercicios/ (shares the list's cache key). */
export function useEjercicio(id: number) {
  return useQuery({
    queryKey: ['ejercicios'],
    queryFn: async () => (await llamar(listarEjercicios)).data,
    select: (filas) => filas.find((f) => f.id_ejercicio === id) ?? null,
  });
}
