import { useQuery } from '@tanstack/react-query';
import { catalogos } from '@pregon/contract/api/catalogos';
import { llamar } from '../../../lib/api-client.ts';

/** GET /ejercicios/catalogos/: types, devices, states and categories for the create dialog. */
export function obtenerCatalogos() {
  return llamar(catalogos);
}

/** Catalogues, loaded when the dialog opens (`activo`). */
export function useCatalogos(activo: boolean) {
  return useQuery({ queryKey: ['catalogos'], queryFn: obtenerCatalogos, enabled: activo });
}
