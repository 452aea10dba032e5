import { useQuery } from '@tanstack/react-query';
import { listarCategorias } from '@pregon/contract/api/paises';
import { llamar } from '../../../lib/api-client.ts';

/** Query key of the categories with their phone counts. */
export const CLAVE_CATEGORIAS = ['categorias'] as const;

/** GET /categorias/: every category with how many phones hold it. */
export async function obtenerCategorias() {
  return (await llamar(listarCategorias)).data;
}

/** The categories list. */
export function useCategorias() {
  return useQuery({ queryKey: CLAVE_CATEGORIAS, queryFn: obtenerCategorias });
}
