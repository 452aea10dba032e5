import { modificarPais, type PaisBody } from '@pregon/contract/api/paises';
import { llamar } from '../../../lib/api-client.ts';

/** PUT /paises/{id}/: changes a country (409 when its name or code exist). */
export function modificarPaisApi(id: number, datos: PaisBody) {
  return llamar(modificarPais, { params: { id }, body: datos });
}
