import { archivarEjercicio } from '@pregon/contract/api/ejercicios';
import { llamar } from '../../lib/api-client.ts';

/** PUT /ejercicio/archivar/: archives (true) or restores (false) an exercise; returns the
 * server's Spanish message. */
export async function archivarEjercicioApi(id_ejercicio: number, archivado: boolean) {
  const r = await llamar(archivarEjercicio, {
    body: { id_ejercicio, archivado: archivado ? 1 : 0 },
  });
  return r.mensaje;
}
