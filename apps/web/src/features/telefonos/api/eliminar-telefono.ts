import { eliminarTelefono } from '@pregon/contract/api/telefonos';
import { llamar } from '../../../lib/api-client.ts';

/** DELETE /telefono/{id}/ */
export function eliminarTelefonoApi(id: number) {
  return llamar(eliminarTelefono, { params: { id } });
}
