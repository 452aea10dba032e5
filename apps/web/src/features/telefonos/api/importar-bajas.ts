import { importarBajas } from '@pregon/contract/api/bajas';
import type { CanalBaja } from '@pregon/contract/rules/bajas';
import { llamar } from '../../../lib/api-client.ts';

/** POST /telefonos/bajas/importar/ (multipart: canal, file): every number of the file's first
 * column goes on the list; answers the counts, the rows with errors and the summary. */
export function importarBajasApi(archivo: File, canal: CanalBaja) {
  const datos = new FormData();
  datos.set('canal', canal);
  datos.set('file', archivo, archivo.name);
  return llamar(importarBajas, { formulario: datos });
}
