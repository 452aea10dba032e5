import type { z } from 'zod';
import { modificarEquipo, type ModificarEquipoBodySchema } from '@pregon/contract/api/equipos';
import { llamar } from '../../../lib/api-client.ts';

/** PUT /equipos/{id}/: changes a device; without `credenciales` the stored ones are kept. */
export function modificarEquipoApi(id: number, datos: z.input<typeof ModificarEquipoBodySchema>) {
  return llamar(modificarEquipo, { params: { id }, body: datos });
}
