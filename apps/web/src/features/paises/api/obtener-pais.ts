import { useQuery } from '@tanstack/react-query';
import { leerPais } from '@pregon/contract/api/paises';
import { llamar } from '../../../lib/api-client.ts';
import { CLAVE_PAISES } from './obtener-paises.ts';

/** GET /paises/{id}/: one country with its states. */
export async function obtenerPais(id: number) {
  return (await llamar(leerPais, { params: { id } })).data;
}

/** One country with its states, for its page. */
export function usePais(id: number) {
  return useQuery({ queryKey: [...CLAVE_PAISES, id], queryFn: () => obtenerPais(id) });
}
