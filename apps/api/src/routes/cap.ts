import type { FastifyInstance } from 'fastify';
import * as api from '@pregon/contract/api/cap';
import type { Contexto } from '../contexto.ts';
import { ruta } from '../http/rutas.ts';
import * as servicio from '../services/cap.ts';

/** Issue 47.4: CAP 1.2 out (any exercise as an alert) and in (an alert creates, edits or stops an
 * exercise, never starts it). */
export async function rutasCap(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, api.exportarCap, async ({ params, reply }) => {
    const xml = await servicio.exportarCap(ctx, params.id);
    return reply
      .header('content-type', 'application/cap+xml; charset=utf-8')
      .header('content-disposition', `attachment; filename="ejercicio-${params.id}-cap.xml"`)
      .send(xml);
  });
  // POST /cap/ in its own scope: only it reads XML bodies, as text, up to LIMITE_CUERPO_CAP
  // (larger: 413, as any body past the server's limit).
  await app.register(async (sub) => {
    sub.addContentTypeParser(
      [...api.TIPOS_CONTENIDO_CAP],
      { parseAs: 'string', bodyLimit: api.LIMITE_CUERPO_CAP },
      (_req, cuerpo, hecho) => hecho(null, cuerpo),
    );
    ruta(sub, ctx, api.recibirCap, async ({ body, sesion }) => ({
      status: 200 as const,
      ...(await servicio.recibirCap(ctx, sesion, body)),
    }));
  });
}
