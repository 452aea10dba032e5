import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { msg } from '@pregon/contract/messages';
import multipart from '@fastify/multipart';
import * as api from '@pregon/contract/api/telefonos';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import * as svc from '../services/telefonos.ts';
import * as imp from '../services/importacion.ts';
import { historial } from '../services/historial.ts';
import { ok } from '../services/paises.ts';
import { contentDisposition } from '../services/reportes-csv.ts';

/** Phones: the SPEC's three calls, the directory search, edit/delete and the bulk import. */
export function rutasTelefonos(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, api.crearTelefono, async ({ body, sesion }) => ({
    status: 200 as const,
    id_telefono: await svc.crear(ctx, sesion, body),
  }));
  ruta(app, ctx, api.vincularCategoria, async ({ body, sesion }) => {
    await svc.vincular(ctx, sesion, body.id_telefono, body.id_categoria);
    return { status: 200 as const };
  });
  ruta(app, ctx, api.seleccionTelefonos, async ({ params, query, reply }) => {
    const { filas, total } = await svc.seleccion(ctx, params.estado, query);
    reply.header('X-Total-Count', String(total));
    return filas;
  });
  ruta(app, ctx, api.exportarTelefonosCsv, async ({ query, reply }) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', contentDisposition(`${msg('archivoTelefonos')}.csv`))
      .send(Readable.from(svc.csvTelefonos(ctx, query), { highWaterMark: 1 })),
  );
  ruta(app, ctx, api.buscarTelefonos, async ({ query }) => ({
    status: 200 as const,
    ...(await svc.buscar(ctx, query)),
  }));
  ruta(app, ctx, api.contarTelefonos, async ({ query }) => ({
    status: 200 as const,
    total: await svc.contarExacto(ctx, query),
  }));
  ruta(app, ctx, api.modificarTelefono, async ({ params, body, sesion }) => {
    await svc.modificar(ctx, sesion, params.id, body);
    return ok('cambiosGuardados');
  });
  ruta(app, ctx, api.eliminarTelefono, async ({ params, sesion }) => {
    await svc.eliminar(ctx, sesion, params.id);
    return ok('registroEliminado');
  });
  ruta(app, ctx, api.historialTelefono, async ({ params, query }) =>
    historial(ctx, params.id, query.page, query.size),
  );

  // What an import left under DATA_DIR/importaciones when the api stopped mid-way goes at start.
  app.addHook('onReady', async () => {
    await imp.limpiarImportaciones(ctx);
  });
  // The import lives in its own scope so multipart parsing applies to it alone.
  app.register(async (sub) => {
    await sub.register(multipart, {
      limits: {
        fileSize: api.MAX_MB_IMPORTACION * 1024 * 1024,
        files: 1,
        fields: 10,
        fieldSize: 64 * 1024,
        parts: 12,
      },
    });
    ruta(sub, ctx, api.importarTelefonos, async ({ req, sesion }) => ({
      status: 200 as const,
      id_importacion: await imp.recibirImportacion(ctx, sesion, req),
    }));
    ruta(sub, ctx, api.importacionesRecientes, async () => ({
      status: 200 as const,
      data: await imp.recientes(ctx),
    }));
    // Confirmed first: reading the progress may mark an abandoned job as interrupted (a write).
    ruta(sub, ctx, api.progresoImportacion, async ({ params }) => imp.progreso(ctx, params.id), {
      confirmarAntes: true,
    });
  });
}
