import type { FastifyInstance } from 'fastify';
import {
  bandejaRespuestas,
  casosEjercicio,
  cerrarCaso,
  clasificarRespuestaManual,
  notaCaso,
  respuestasEjercicio,
  tomarCaso,
} from '@pregon/contract/api/respuestas';
import { msg } from '@pregon/contract/messages';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import * as servicio from '../services/respuestas.ts';

/** Poll answers, the triage queue of cases and the inbox of replies (issue 46.2, 46.3). */
export function rutasRespuestas(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, respuestasEjercicio, async ({ params }) => servicio.respuestasDe(ctx, params.id));

  ruta(app, ctx, casosEjercicio, async ({ params }) => ({
    status: 200 as const,
    data: await servicio.casosDe(ctx, params.id),
  }));

  ruta(app, ctx, tomarCaso, async ({ params, sesion }) => {
    const caso = await servicio.tomar(ctx, sesion, params.id);
    return { status: 200 as const, mensaje: caso.etiqueta, caso };
  });

  ruta(app, ctx, notaCaso, async ({ params, body, sesion }) => ({
    status: 200 as const,
    mensaje: msg('casoNotaGuardada'),
    caso: await servicio.anotar(ctx, sesion, params.id, body.nota),
  }));

  ruta(app, ctx, cerrarCaso, async ({ params, body, sesion }) => {
    const caso = await servicio.cerrar(ctx, sesion, params.id, body.nota);
    return { status: 200 as const, mensaje: caso.etiqueta, caso };
  });

  ruta(app, ctx, clasificarRespuestaManual, async ({ params, body, sesion }) => ({
    status: 200 as const,
    mensaje: msg('respuestaClasificada'),
    ...(await servicio.clasificarManual(ctx, sesion, params.id, body.digito)),
  }));

  ruta(app, ctx, bandejaRespuestas, async ({ query }) =>
    servicio.bandeja(ctx, query.limit, query.offset, query.incluir_no_reconocidas),
  );
}
