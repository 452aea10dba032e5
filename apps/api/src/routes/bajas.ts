import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { msg } from '@pregon/contract/messages';
import * as api from '@pregon/contract/api/bajas';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import * as svc from '../services/bajas.ts';
import { contentDisposition } from '../services/reportes-csv.ts';

/** Opt-out lists (issue 46.4): list, export, an operator's baja and alta, the import of a list,
 * the start confirmation's count and an administrator's real alert. */
export function rutasBajas(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, api.listarBajas, async ({ query }) => svc.listar(ctx, query));
  ruta(app, ctx, api.exportarBajasCsv, async ({ query, reply }) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', contentDisposition(`${msg('archivoBajas')}.csv`))
      .send(Readable.from(svc.csvBajas(ctx, query.canal), { highWaterMark: 1 })),
  );
  ruta(app, ctx, api.crearBaja, async ({ body, sesion }) =>
    svc.crear(ctx, sesion, body.telefono, body.canal),
  );
  ruta(app, ctx, api.eliminarBaja, async ({ params, sesion }) =>
    svc.eliminar(ctx, sesion, params.canal, params.telefono),
  );
  ruta(app, ctx, api.bajasDeEjercicio, async ({ params }) => svc.resumenInicio(ctx, params.id));
  ruta(app, ctx, api.ignorarBajas, async ({ body, sesion }) => ({
    status: 200 as const,
    mensaje: await svc.marcarIgnoraBajas(ctx, sesion, body),
  }));
  // The import lives in its own scope so multipart parsing applies to it alone.
  app.register(async (sub) => {
    await sub.register(multipart, {
      limits: {
        fileSize: api.MAX_MB_IMPORTACION_BAJAS * 1024 * 1024,
        files: 1,
        fields: 5,
        fieldSize: 1024,
        parts: 6,
      },
    });
    ruta(sub, ctx, api.importarBajas, async ({ req, sesion }) => svc.importar(ctx, sesion, req));
  });
}
