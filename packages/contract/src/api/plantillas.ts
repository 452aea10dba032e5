import { z } from 'zod';
import { PlantillaWhatsappSchema } from '../rules/whatsapp.ts';
import { idSchema } from '../zod-helpers.ts';
import { endpoint } from './endpoint.ts';

// The approved WhatsApp templates of a device, read from the Cloud API for the 'Crear ejercicio'
// dialog's type-3 template picker.

/** GET /equipos/{id}/plantillas/: the device's APPROVED templates (cached a few minutes); 400 for
 * a device that is not WhatsApp, 502 when Meta cannot be read. */
export const plantillasEquipo = endpoint({
  method: 'GET',
  path: '/equipos/:id/plantillas/',
  acceso: 'lectura',
  etiqueta: 'equipos',
  resumen: 'Plantillas aprobadas de WhatsApp del equipo',
  params: z.object({ id: idSchema('id') }),
  respuesta: z.object({ status: z.literal(200), data: z.array(PlantillaWhatsappSchema) }),
});
