import { desbloquearUsuario } from '@pregon/contract/api/usuarios';
import { llamar } from '../../../lib/api-client.ts';

/** POST /usuarios/{id}/desbloquear/: lifts the sign-in locks of a user (administrators). */
export function desbloquearUsuarioApi(id: number) {
  return llamar(desbloquearUsuario, { params: { id } });
}
