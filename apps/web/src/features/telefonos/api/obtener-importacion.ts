import { useQuery } from '@tanstack/react-query';
import { importacionesRecientes, progresoImportacion } from '@pregon/contract/api/telefonos';
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

/** Query key of the last imports (issue 48.6). */
export const CLAVE_IMPORTACIONES = ['importaciones-recientes'] as const;

/** GET /telefonos/importaciones/: the last imports with their results, asked again every few
 * seconds while one of them runs. */
export function useImportacionesRecientes() {
  return useQuery({
    queryKey: CLAVE_IMPORTACIONES,
    queryFn: async () => (await llamar(importacionesRecientes, {})).data,
    refetchInterval: (q) => (q.state.data?.some((i) => i.estatus === 'en_proceso') ? 2000 : false),
  });
}
