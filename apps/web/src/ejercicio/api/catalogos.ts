import { useQuery } from '@tanstack/react-query';
import { catalogos } from '@pregon/contract/api/catalogos';
import { llamar } from '../../lib/api-client.ts';

/** GET /ejercicios/catalogos/: types, active devices, states and categories (the create dialog;
 * the correction dialog's device picker). */
export function obtenerCatalogos() {
  return llamar(catalogos);
}

/** Catalogues, loaded when `activo` (a dialog opens). */
export function useCatalogos(activo: boolean) {
  return useQuery({ queryKey: ['catalogos'], queryFn: obtenerCatalogos, enabled: activo });
}
