import { eliminarUsuario } from '@pregon/contract/api/usuarios';
import { llamar } from '../../../lib/api-client.ts';

/** DELETE /usuarios/{id}/ (409 for the last active administrator or one who created exercises). */
export function eliminarUsuarioApi(id: number) {
  return llamar(eliminarUsuario, { params: { id } });
}
