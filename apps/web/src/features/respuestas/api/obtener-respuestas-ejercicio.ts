import { useQuery } from '@tanstack/react-query';
import { respuestasEjercicio } from '@pregon/contract/api/respuestas';
import { llamar } from '../../../lib/api-client.ts';

/** Query key of a poll's counts. */
export const claveConteos = (id: number) => ['conteos-encuesta', id] as const;

/** GET /ejercicio/{id}/respuestas/: how many people's current answer is each option. */
export function obtenerConteos(id: number, signal?: AbortSignal) {
  return llamar(respuestasEjercicio, { params: { id }, signal });
}

/** A poll's counts per option (for the classify dialog); off while `id` is null. */
export function useConteos(id: number | null) {
  return useQuery({
    queryKey: claveConteos(id ?? 0),
    queryFn: ({ signal }) => obtenerConteos(id!, signal),
    enabled: id !== null,
  });
}
