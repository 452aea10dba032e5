import { modificarCategoria } from '@pregon/contract/api/paises';
import { llamar } from '../../../lib/api-client.ts';

/** PUT /categorias/{id}/: renames a category (409 when the name exists). */
export function modificarCategoriaApi(id: number, categoria: string) {
  return llamar(modificarCategoria, { params: { id }, body: { categoria } });
}
