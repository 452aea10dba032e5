import { modificarEstado } from '@pregon/contract/api/paises';
import { llamar } from '../../../lib/api-client.ts';

/** PUT /estados/{id}/: renames a state. */
export function modificarEstadoApi(id: number, estado: string, id_pais: number) {
  return llamar(modificarEstado, { params: { id }, body: { estado, id_pais } });
}
