import type { FastifyInstance } from 'fastify';
import {
  aprobarEjercicio,
  inicioEmergencia,
  leerAprobacion,
  listarPendientes,
  rechazarEjercicio,
  solicitarAprobacion,
} from '@pregon/contract/api/aprobaciones';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import * as servicio from '../services/aprobaciones.ts';

/** Issue 47.2: an exercise's approval: read, ask, approve, reject. */
export function rutasAprobaciones(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, leerAprobacion, async ({ params }) => ({
    status: 200 as const,
    aprobacion: await servicio.leerAprobacion(ctx, params.id),
  }));

  ruta(app, ctx, listarPendientes, async ({ sesion }) => ({
    status: 200 as const,
    data: await servicio.listarPendientes(ctx, sesion),
  }));

  ruta(app, ctx, solicitarAprobacion, async ({ params, sesion }) => ({
    status: 200 as const,
    ...(await servicio.solicitarAprobacion(ctx, sesion, params.id)),
  }));

  ruta(app, ctx, aprobarEjercicio, async ({ params, sesion }) => ({
    status: 200 as const,
    ...(await servicio.aprobar(ctx, sesion, params.id)),
  }));

  ruta(app, ctx, inicioEmergencia, async ({ params, body, sesion }) => ({
    status: 200 as const,
    ...(await servicio.inicioEmergencia(ctx, sesion, params.id, body.motivo)),
  }));

  ruta(app, ctx, rechazarEjercicio, async ({ params, body, sesion }) => ({
    status: 200 as const,
    ...(await servicio.rechazar(ctx, sesion, params.id, body)),
  }));
}
