import { useQuery } from '@tanstack/react-query';
import { actividadEquipo } from '@pregon/contract/api/equipos';
import { llamar } from '../../../lib/api-client.ts';
import { CLAVE_EQUIPOS } from './obtener-equipos.ts';

/** Refresh period of the detail page's activity panel while it is open. */
const REFRESCO_MS = 15_000;

/** GET /equipos/{id}/actividad/: today's sends by outcome and the latest failures. */
export function useActividadEquipo(id: number) {
  return useQuery({
    queryKey: [...CLAVE_EQUIPOS, id, 'actividad'],
    queryFn: () => llamar(actividadEquipo, { params: { id } }),
    refetchInterval: REFRESCO_MS,
  });
}
