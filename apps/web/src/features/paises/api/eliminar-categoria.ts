import { eliminarCategoria } from '@pregon/contract/api/paises';
import { llamar } from '../../../lib/api-client.ts';

/** DELETE /categorias/{id}/ (409 while phones or exercises use it). */
export function eliminarCategoriaApi(id: number) {
  return llamar(eliminarCategoria, { params: { id } });
}
