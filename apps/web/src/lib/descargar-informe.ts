import { reporteXlsx } from '@pregon/contract/api/tableros';
import { descargarArchivo } from './descargar-archivo.ts';

/** Downloads an exercise's after-action .xlsx (GET /reportes/xlsx/{id}/). Loaded on demand, so the
 * dashboards' contract stays out of the list's first screen. */
export function descargarInforme(id: number, nombre: string): Promise<void> {
  return descargarArchivo(reporteXlsx, { id }, `${nombre}.xlsx`);
}
