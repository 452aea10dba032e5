import { crearCategoria } from '@pregon/contract/api/paises';
import { llamar } from '../../../lib/api-client.ts';

/** POST /categorias/: creates a category (409 when the name exists). */
export function crearCategoriaApi(categoria: string) {
  return llamar(crearCategoria, { body: { categoria } });
}
