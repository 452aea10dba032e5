import { eliminarBaja } from '@pregon/contract/api/bajas';
import type { CanalBaja } from '@pregon/contract/rules/bajas';
import { llamar } from '../../../lib/api-client.ts';

/** DELETE /telefonos/bajas/{canal}/{telefono}/: 'Dar de alta' (the phone receives drills again). */
export function eliminarBajaApi(canal: CanalBaja, telefono: string) {
  return llamar(eliminarBaja, { params: { canal, telefono } });
}
