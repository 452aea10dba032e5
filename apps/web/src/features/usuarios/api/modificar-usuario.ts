import type { z } from 'zod';
import { modificarUsuario, type ModificarUsuarioBodySchema } from '@pregon/contract/api/usuarios';
import { llamar } from '../../../lib/api-client.ts';

/** PUT /usuarios/{id}/: changes a user; users changing their own password send password_actual
 * (a 400 names it when missing or wrong); 409 for the last active administrator. */
export function modificarUsuarioApi(id: number, datos: z.input<typeof ModificarUsuarioBodySchema>) {
  return llamar(modificarUsuario, { params: { id }, body: datos });
}
