import { crearTelefono, type CrearTelefonoBodySchema } from '@pregon/contract/api/telefonos';
import type { z } from 'zod';
import { llamar } from '../../../lib/api-client.ts';

/** POST /telefono/: registers a phone (the server normalises the number). */
export function crearTelefonoApi(datos: z.input<typeof CrearTelefonoBodySchema>) {
  return llamar(crearTelefono, { body: datos });
}
