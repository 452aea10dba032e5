import { useQuery } from '@tanstack/react-query';
import { progresoImportacion } from '@pregon/contract/api/telefonos';
import { llamar } from '../../../lib/api-client.ts';

/** How often a running import's progress is asked for. */
const INTERVALO_MS = 700;

/** GET /telefonos/importar/{id}/: progress of an import job. */
export function obtenerImportacion(id: number) {
  return llamar(progresoImportacion, { params: { id } });
}

/** An import's progress, polled while it runs. */
export function useImportacion(id: number | undefined) {
  return useQuery({
    queryKey: ['importacion', id],
    queryFn: () => obtenerImportacion(id!),
    enabled: id !== undefined,
    refetchInterval: (q) => (q.state.data?.estatus === 'en_proceso' ? INTERVALO_MS : false),
  });
}
