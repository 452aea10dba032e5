import { LIMITE_REPORTE_MAXIMO } from '@pregon/contract/api/ejercicios';
import { reporte4 } from '@pregon/contract/api/reportes';
import { llamarCompleto } from '../../lib/api-client.ts';

/** GET /reportes/reporte4/{id}/: every row of 'Reporte 2' (answers per respondent), page after page. */
export async function obtenerReporte4(id: number) {
  const filas = [];
  for (let offset = 0; ; offset += LIMITE_REPORTE_MAXIMO) {
    const { datos, headers } = await llamarCompleto(reporte4, {
      params: { id },
      query: { limit: LIMITE_REPORTE_MAXIMO, offset },
    });
    filas.push(...datos);
    const total = Number(headers.get('x-total-count') ?? filas.length);
    if (datos.length < LIMITE_REPORTE_MAXIMO || filas.length >= total) return filas;
  }
}
