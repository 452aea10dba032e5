import { useQuery } from '@tanstack/react-query';
import { respuestasEjercicio } from '@pregon/contract/api/respuestas';
import { llamar } from '../../../lib/api-client.ts';
import { CLAVE_TABLEROS } from '../../../lib/claves-consulta.ts';

/** GET /ejercicio/{id}/respuestas/: the poll's counts and its latest unrecognised replies, read
 * while `activo` (the dialog that lists them is open) and again when their count changes. */
export function useRespuestas(id: number, noReconocidas: number, activo: boolean) {
  return useQuery({
    queryKey: [...CLAVE_TABLEROS, 'respuestas', id, noReconocidas],
    queryFn: () => llamar(respuestasEjercicio, { params: { id } }),
    enabled: activo,
  });
}
