import { eliminarPais } from '@pregon/contract/api/paises';
import { llamar } from '../../../lib/api-client.ts';

/** DELETE /paises/{id}/ (409 while the country has states). */
export function eliminarPaisApi(id: number) {
  return llamar(eliminarPais, { params: { id } });
}
