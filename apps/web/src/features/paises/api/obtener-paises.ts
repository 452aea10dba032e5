import { useQuery } from '@tanstack/react-query';
import { listarPaises } from '@pregon/contract/api/paises';
import { llamar } from '../../../lib/api-client.ts';

/** Query key prefix of the countries and their states. */
export const CLAVE_PAISES = ['paises'] as const;

/** Query key of the countries list. */
export const CLAVE_LISTA_PAISES = [...CLAVE_PAISES, 'lista'] as const;

/** GET /paises/: every country. */
export async function obtenerPaises() {
  return (await llamar(listarPaises)).data;
}

/** The countries list. */
export function usePaises() {
  return useQuery({ queryKey: CLAVE_LISTA_PAISES, queryFn: obtenerPaises });
}
