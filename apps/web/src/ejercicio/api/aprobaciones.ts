import { useQuery } from '@tanstack/react-query';
import {
  inicioEmergencia,
  listarPendientes,
  solicitarAprobacion,
} from '@pregon/contract/api/aprobaciones';
import { ROL_APROBADOR } from '@pregon/contract/constants';
import { llamar } from '../../lib/api-client.ts';
import { usuarioTieneRol } from '../../lib/sesion.ts';
import { CLAVE_APROBACIONES } from '../../lib/claves-consulta.ts';

/** How often an approver's badge asks again: a new request shows within this. */
export const POLEO_APROBACIONES_MS = 10_000;

/** POST /ejercicio/{id}/aprobacion/: asks a second person to approve its start. */
export const solicitarAprobacionApi = (id: number) =>
  llamar(solicitarAprobacion, { params: { id } });

/** POST /ejercicio/{id}/aprobacion/emergencia/ {motivo}: one administrator's emergency start
 * (only when APROBACION_EMERGENCIA enables it). */
export const inicioEmergenciaApi = (id: number, motivo: string) =>
  llamar(inicioEmergencia, { params: { id }, body: { motivo } });

/** GET /aprobaciones/pendientes/, polled while the user holds 'aprobadores' (for anyone else
 * it is not asked: the api would answer 403). */
export function usePendientes() {
  const aprobador = usuarioTieneRol([ROL_APROBADOR]);
  return useQuery({
    queryKey: CLAVE_APROBACIONES,
    queryFn: async ({ signal }) => (await llamar(listarPendientes, { signal })).data,
    enabled: aprobador,
    refetchInterval: POLEO_APROBACIONES_MS,
    refetchIntervalInBackground: false,
  });
}
