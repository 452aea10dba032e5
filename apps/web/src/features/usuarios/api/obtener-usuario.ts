import { useQuery } from '@tanstack/react-query';
import { leerUsuario } from '@pregon/contract/api/usuarios';
import { llamar } from '../../../lib/api-client.ts';
import { CLAVE_USUARIOS } from './obtener-usuarios.ts';

/** GET /usuarios/{id}/: one user (administrators, or the user themself). */
export async function obtenerUsuario(id: number) {
  return (await llamar(leerUsuario, { params: { id } })).data;
}

/** One user, for their page. */
export function useUsuario(id: number) {
  return useQuery({ queryKey: [...CLAVE_USUARIOS, id], queryFn: () => obtenerUsuario(id) });
}
