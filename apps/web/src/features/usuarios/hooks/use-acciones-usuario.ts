import type { UsuarioVista } from '@pregon/contract/api/usuarios';
import { msg } from '@pregon/contract/messages';
import { useAccionConAviso } from '../../../hooks/use-accion-con-aviso.ts';
import { eliminarUsuarioApi } from '../api/eliminar-usuario.ts';
import { desbloquearUsuarioApi } from '../api/desbloquear-usuario.ts';
import { CLAVE_USUARIOS } from '../api/obtener-usuarios.ts';
import { modificarUsuarioApi } from '../api/modificar-usuario.ts';

/** The actions on a user (unlock, activate/deactivate, delete): each shows a toast, or the
 * server's message when it refuses (the last active administrator, a user with exercises), and
 * reloads the users; each resolves true when it worked. */
export function useAccionesUsuario() {
  const hacer = useAccionConAviso([CLAVE_USUARIOS]);
  return {
    desbloquear: (u: UsuarioVista) =>
      hacer(() => desbloquearUsuarioApi(u.id_usuario), msg('usuarioDesbloqueado')),
    activar: (u: UsuarioVista, activo: boolean) =>
      hacer(
        () => modificarUsuarioApi(u.id_usuario, { activo }),
        msg(activo ? 'usuarioActivado' : 'usuarioDesactivado'),
      ),
    eliminar: (u: UsuarioVista) =>
      hacer(() => eliminarUsuarioApi(u.id_usuario), msg('registroEliminado')),
  };
}
