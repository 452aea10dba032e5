import { crearPais, type PaisBody } from '@pregon/contract/api/paises';
import { llamar } from '../../../lib/api-client.ts';

/** POST /paises/: creates a country and returns its id (409 when its name or code exist). */
export async function crearPaisApi(datos: PaisBody) {
  return (await llamar(crearPais, { body: datos })).id_pais;
}
