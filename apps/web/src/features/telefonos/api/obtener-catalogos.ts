import { useQuery } from '@tanstack/react-query';
import { catalogos } from '@pregon/contract/api/catalogos';
import { llamar } from '../../../lib/api-client.ts';

/** GET /ejercicios/catalogos/: the states and categories the filters and the dialog offer. */
export function obtenerCatalogos() {
  return llamar(catalogos);
}

/** States and categories (shared cache with the exercise dialog's catalogues). */
export function useCatalogos() {
  return useQuery({ queryKey: ['catalogos'], queryFn: obtenerCatalogos });
}
