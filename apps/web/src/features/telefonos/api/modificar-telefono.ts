import {
  modificarTelefono,
  type ModificarTelefonoBodySchema,
} from '@pregon/contract/api/telefonos';
import type { z } from 'zod';
import { llamar } from '../../../lib/api-client.ts';

/** PUT /telefono/{id}/: changes a phone; `categorias` replaces its links. */
export function modificarTelefonoApi(
  id: number,
  datos: z.input<typeof ModificarTelefonoBodySchema>,
) {
  return llamar(modificarTelefono, { params: { id }, body: datos });
}
