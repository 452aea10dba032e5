import { useQuery } from '@tanstack/react-query';
import { listarUsuarios } from '@pregon/contract/api/usuarios';
import { llamar } from '../../../lib/api-client.ts';

/** Query key prefix of the users; invalidating it reloads the list and every user's page. */
export const CLAVE_USUARIOS = ['usuarios'] as const;

/** GET /usuarios/: every user (administrators only), with their sign-in locks. */
export async function obtenerUsuarios() {
  return (await llamar(listarUsuarios)).data;
}

/** The users list. */
export function useUsuarios() {
  return useQuery({ queryKey: [...CLAVE_USUARIOS, 'lista'], queryFn: obtenerUsuarios });
}
