import { eliminarEstado } from '@pregon/contract/api/paises';
import { llamar } from '../../../lib/api-client.ts';

/** DELETE /estados/{id}/ (409 while phones or exercises use it). */
export function eliminarEstadoApi(id: number) {
  return llamar(eliminarEstado, { params: { id } });
}
