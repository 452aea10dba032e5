import type { FastifyInstance } from 'fastify';
import * as api from '@pregon/contract/api/equipos';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import * as svc from '../services/equipos.ts';
import { ok } from '../services/paises.ts';

/** Devices (ARCHITECTURE 3). The test send `POST /equipos/{id}/prueba/` lives with the dispatcher. */
export function rutasEquipos(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, api.listarEquipos, async ({ query }) => ({
    status: 200 as const,
    data: await svc.listar(ctx, query),
  }));
  ruta(app, ctx, api.crearEquipo, async ({ body, sesion }) => {
    const id_equipo = await svc.crear(ctx, sesion, body);
    return { status: 200 as const, id_equipo, ...(await svc.registrarEntrada(ctx, id_equipo)) };
  });
  ruta(app, ctx, api.actividadEquipo, async ({ params }) => ({
    status: 200 as const,
    ...(await svc.actividad(ctx, params.id)),
  }));
  ruta(app, ctx, api.leerEquipo, async ({ params }) => ({
    status: 200 as const,
    data: await svc.leer(ctx, params.id),
  }));
  ruta(app, ctx, api.modificarEquipo, async ({ params, body, sesion }) => {
    const r = await svc.modificar(ctx, sesion, params.id, body);
    return {
      ...ok('cambiosGuardados'),
      ...r,
      ...(await svc.registrarEntrada(ctx, params.id, body)),
    };
  });
  ruta(app, ctx, api.eliminarEquipo, async ({ params, sesion }) => {
    const r = await svc.eliminar(ctx, sesion, params.id);
    return { ...ok('registroEliminado'), ...r };
  });
}
