import { reporte3 } from '@pregon/contract/api/reportes';
import { llamar } from '../../lib/api-client.ts';

/** GET /reportes/reporte3/{id}/: the rows of 'Reporte 1' (answers per question). */
export function obtenerReporte3(id: number) {
  return llamar(reporte3, { params: { id } });
}
