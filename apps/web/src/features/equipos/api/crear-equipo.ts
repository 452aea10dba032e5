import type { z } from 'zod';
import { crearEquipo, type CrearEquipoBodySchema } from '@pregon/contract/api/equipos';
import { llamar } from '../../../lib/api-client.ts';

/** POST /equipos/: creates a device and returns its id. */
export function crearEquipoApi(datos: z.input<typeof CrearEquipoBodySchema>) {
  return llamar(crearEquipo, { body: datos });
}
