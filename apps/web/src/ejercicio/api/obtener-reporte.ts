import { LIMITE_REPORTE_MAXIMO, reporteEjercicio } from '@pregon/contract/api/ejercicios';
import { llamar } from '../../lib/api-client.ts';

/** GET /ejercicio/reporte/{id}/: every send/contact row, page after page. */
export async function obtenerReporte(id: number) {
  const filas = [];
  for (let offset = 0; ; offset += LIMITE_REPORTE_MAXIMO) {
    const r = await llamar(reporteEjercicio, {
      params: { id },
      query: { limit: LIMITE_REPORTE_MAXIMO, offset },
    });
    filas.push(...r.data);
    if (r.data.length < LIMITE_REPORTE_MAXIMO || filas.length >= r.total) return filas;
  }
}
