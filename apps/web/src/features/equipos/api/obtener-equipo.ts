import { useQuery } from '@tanstack/react-query';
import { leerEquipo } from '@pregon/contract/api/equipos';
import { llamar } from '../../../lib/api-client.ts';
import { CLAVE_EQUIPOS } from './obtener-equipos.ts';

/** GET /equipos/{id}/: one device (without credentials). */
export async function obtenerEquipo(id: number) {
  return (await llamar(leerEquipo, { params: { id } })).data;
}

/** One device, for its detail page. */
export function useEquipo(id: number) {
  return useQuery({ queryKey: [...CLAVE_EQUIPOS, id], queryFn: () => obtenerEquipo(id) });
}
