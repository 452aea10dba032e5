import { aprobarEjercicio, rechazarEjercicio } from '@pregon/contract/api/aprobaciones';
import { llamar } from '../../../lib/api-client.ts';

/** POST /ejercicio/{id}/aprobacion/aprobar/. */
export const aprobarApi = (id: number) => llamar(aprobarEjercicio, { params: { id } });

/** POST /ejercicio/{id}/aprobacion/rechazar/ {motivo}. */
export const rechazarApi = (id: number, motivo: string) =>
  llamar(rechazarEjercicio, { params: { id }, body: { motivo } });
