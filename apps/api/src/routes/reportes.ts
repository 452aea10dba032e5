import type { FastifyInstance } from 'fastify';
import { exportarCsv, reporte2, reporte3, reporte4, resumen } from '@pregon/contract/api/reportes';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import * as servicio from '../services/reportes.ts';
import { contentDisposition, exportar } from '../services/reportes-csv.ts';

/** Report calls (reporte2, reporte3, reporte4, resumen) and the streamed CSV export. */
export function rutasReportes(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, reporte2, async ({ params, query }) => {
    const r = await servicio.reportePaginado(
      ctx,
      params.id,
      query.limit,
      query.offset,
      servicio.filaReporte2,
    );
    const e = await ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['id_ejercicio', 'id_tipo_ejercicio', 'iniciado'])
      .where('id_ejercicio', '=', params.id)
      .executeTakeFirstOrThrow();
    return { ...r, ...(await servicio.audiosReporte(ctx.db.kysely, e)) };
  });

  ruta(app, ctx, reporte3, async ({ params }) => servicio.reporte3(ctx, params.id));

  ruta(app, ctx, reporte4, async ({ params, query, reply }) => {
    const r = await servicio.reporte4(ctx, params.id, query.limit, query.offset);
    reply.header('x-total-count', String(r.total));
    return r.filas;
  });

  ruta(app, ctx, resumen, async ({ params }) => servicio.resumen(ctx, params.id));

  ruta(app, ctx, exportarCsv, async ({ body, reply }) => {
    const { archivo, flujo } = await exportar(ctx, body.tipo, body.id_ejercicio);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', contentDisposition(archivo))
      .send(flujo);
  });
}
