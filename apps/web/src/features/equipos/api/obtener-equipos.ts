import { useQuery } from '@tanstack/react-query';
import { listarEquipos } from '@pregon/contract/api/equipos';
import { llamar } from '../../../lib/api-client.ts';

/** Query key prefix of the devices; invalidating it reloads the list and the detail. */
export const CLAVE_EQUIPOS = ['equipos'] as const;

/** Query key of the devices list. */
export const CLAVE_LISTA_EQUIPOS = [...CLAVE_EQUIPOS, 'lista'] as const;

/** GET /equipos/: every device (without credentials). */
export async function obtenerEquipos() {
  return (await llamar(listarEquipos)).data;
}

/** The devices list. */
export function useEquipos() {
  return useQuery({ queryKey: CLAVE_LISTA_EQUIPOS, queryFn: obtenerEquipos });
}
