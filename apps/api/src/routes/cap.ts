import type { FastifyInstance } from 'fastify';
import * as api from '@pregon/contract/api/cap';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import * as servicio from '../services/cap.ts';
import * as fuentes from '../services/fuentes-cap.ts';
import { msg } from '@pregon/contract/messages';

/** Issue 47.4: CAP 1.2 out (any exercise as an alert) and in (an alert creates, edits or stops an
 * exercise, never starts it). */
export async function rutasCap(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, api.listarFuentesCap, async () => ({
    status: 200 as const,
    data: await fuentes.listarFuentes(ctx.db.kysely),
  }));
  ruta(app, ctx, api.crearFuenteCap, async ({ body, sesion }) => ({
    status: 200 as const,
    mensaje: msg('fuenteCapCreada', { minutos: body.intervalo_min }),
    data: await fuentes.crearFuente(ctx.db.kysely, ctx.fuentesCap, sesion, body),
  }));
  ruta(app, ctx, api.eliminarFuenteCap, async ({ params, sesion }) => {
    await fuentes.eliminarFuente(ctx.db.kysely, sesion, params.id);
    return { status: 200 as const, mensaje: msg('fuenteCapEliminada') };
  });
  ruta(app, ctx, api.consultarFuenteCap, async ({ params }) => {
    const r = await fuentes.consultarAhora(ctx, ctx.fuentesCap, params.id);
    return { status: 200 as const, mensaje: msg('fuenteCapConsultada', { ...r }), ...r };
  });
  ruta(app, ctx, api.registroFuenteCap, async ({ params }) => ({
    status: 200 as const,
    data: await fuentes.registroFuente(ctx.db.kysely, params.id),
  }));
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
