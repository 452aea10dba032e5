import { crearBaja } from '@pregon/contract/api/bajas';
import type { CanalBaja } from '@pregon/contract/rules/bajas';
import { llamar } from '../../../lib/api-client.ts';

/** POST /telefonos/bajas/: an operator puts a phone on a channel's list (idempotent). */
export function crearBajaApi(telefono: string, canal: CanalBaja) {
  return llamar(crearBaja, { body: { telefono, canal } });
}
