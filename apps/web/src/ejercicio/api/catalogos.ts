import { useQuery } from '@tanstack/react-query';
import { catalogos } from '@pregon/contract/api/catalogos';
import { llamar } from '../../lib/api-client.ts';
import { CLAVE_CATALOGOS } from '../../lib/claves-consulta.ts';

/** GET /ejercicios/catalogos/: types, active devices, states and categories. One cache for every
 * screen that offers them: the create dialog, the correction dialog's device picker, the phones'
 * filters and dialogs, the CAP rules' states. Loaded when `activo` (a dialog opens). */
export function useCatalogos(activo = true) {
  return useQuery({ queryKey: CLAVE_CATALOGOS, queryFn: () => llamar(catalogos), enabled: activo });
}
