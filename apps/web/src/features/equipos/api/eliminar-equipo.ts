import { eliminarEquipo } from '@pregon/contract/api/equipos';
import { llamar } from '../../../lib/api-client.ts';

/** DELETE /equipos/{id}/ (409 while an exercise uses the device). */
export function eliminarEquipoApi(id: number) {
  return llamar(eliminarEquipo, { params: { id } });
}
