import type { z } from 'zod';
import { crearUsuario, type CrearUsuarioBodySchema } from '@pregon/contract/api/usuarios';
import { llamar } from '../../../lib/api-client.ts';

/** POST /usuarios/: creates a user and returns its id (409 when the name exists). */
export function crearUsuarioApi(datos: z.input<typeof CrearUsuarioBodySchema>) {
  return llamar(crearUsuario, { body: datos });
}
