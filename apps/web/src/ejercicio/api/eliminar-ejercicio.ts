import { eliminarEjercicio } from '@pregon/contract/api/ejercicios';
import { llamar } from '../../lib/api-client.ts';

/** DELETE /ejercicio/{id}/: deletes an exercise that never started; returns the server's
 * Spanish message ('Ejercicio "…" eliminado'). */
export async function eliminarEjercicioApi(id: number) {
  const r = await llamar(eliminarEjercicio, { params: { id } });
  return r.mensaje;
}
