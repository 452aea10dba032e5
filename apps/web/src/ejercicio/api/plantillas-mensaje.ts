import { useQuery } from '@tanstack/react-query';
import * as api from '@pregon/contract/api/mensajes-preparados';
import { llamar } from '../../lib/api-client.ts';
import { CLAVE_PLANTILLAS_MENSAJE } from '../../lib/claves-consulta.ts';

// Issue 47.3: prepared messages ('Plantillas'), read by the Plantillas screen, the create dialog's
// 'Desde plantilla' and issue 47.2's 'Enviar corrección' / 'Cancelar alerta'.

/** Every hazard and template with its versions (newest first). */
export function usePlantillasMensaje(activo = true) {
  return useQuery({
    queryKey: CLAVE_PLANTILLAS_MENSAJE,
    queryFn: () => llamar(api.listarPlantillasMensaje),
    enabled: activo,
  });
}

/** POST /ejercicio/{id}/correccion/: creates and starts the correction or cancellation. */
export const enviarCorreccionApi = (id: number, body: Record<string, unknown>) =>
  llamar(api.enviarCorreccion, { params: { id }, body: body as never });
