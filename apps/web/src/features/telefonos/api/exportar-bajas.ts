import { exportarBajasCsv } from '@pregon/contract/api/bajas';
import { msg } from '@pregon/contract/messages';
import type { CanalBaja } from '@pregon/contract/rules/bajas';
import { descargarArchivo } from '../../../lib/descargar-archivo.ts';

/** 'Exportar bajas': the list (or both) as CSV, streamed by the server (GET /telefonos/bajas/csv/). */
export function exportarBajas(canal?: CanalBaja) {
  return descargarArchivo(exportarBajasCsv, {}, `${msg('archivoBajas')}.csv`, { canal });
}
