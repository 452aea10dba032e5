import { crearEstado } from '@pregon/contract/api/paises';
import { llamar } from '../../../lib/api-client.ts';

/** POST /estados/: adds a state to a country (409 when the country has one of that name). */
export function crearEstadoApi(estado: string, id_pais: number) {
  return llamar(crearEstado, { body: { estado, id_pais } });
}
