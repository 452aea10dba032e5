import { TIPO_LLAMADA } from '@pregon/contract/constants';
import type { Consultor } from './ejercicios.ts';

// Queries behind the generated dialplan (services/telefonia.ts).

/** Call exercises not yet completed (the ones whose contexts a PBX may still need), by id. */
export async function llamadasVigentes(k: Consultor) {
  return k
    .selectFrom('ejercicios')
    .select(['id_ejercicio', 'accion', 'tiempo'])
    .where('id_tipo_ejercicio', '=', TIPO_LLAMADA)
    .where('completado', '=', 0)
    .orderBy('id_ejercicio')
    .execute();
}
