import * as api from '@pregon/contract/api/mensajes-preparados';
import { llamar } from '../../../lib/api-client.ts';

// Issue 47.3: the Plantillas screen's writes (the list they reload is ejercicio/api/
// plantillas-mensaje.ts's usePlantillasMensaje, which other screens read too).

/** POST a hazard. */
export const crearPeligroApi = (nombre: string) =>
  llamar(api.crearPeligro, { body: { nombre } as never });
/** POST a template with its first version. */
export const crearPlantillaApi = (body: Record<string, unknown>) =>
  llamar(api.crearPlantillaMensaje, { body: body as never });
/** POST a template's new version. */
export const guardarVersionApi = (id: number, body: Record<string, unknown>) =>
  llamar(api.guardarVersionPlantilla, { params: { id }, body: body as never });
/** POST a version's approval. */
export const aprobarVersionApi = (id: number) =>
  llamar(api.aprobarVersionPlantilla, { params: { id } });
