import type { FastifyInstance } from 'fastify';
import * as api from '@pregon/contract/api/paises';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import * as svc from '../services/paises.ts';

/** Countries, states and categories (ARCHITECTURE 3). */
export function rutasPaises(app: FastifyInstance, ctx: Contexto) {
  const ok = 200 as const;

  ruta(app, ctx, api.paisesDeEjercicio, async ({ params }) =>
    svc.paisesDeEjercicio(ctx, params.id),
  );
  ruta(app, ctx, api.paisesDeSeleccionTelefonos, async ({ query }) =>
    svc.paisesDeSeleccion(ctx, query),
  );
  ruta(app, ctx, api.listarPaises, async () => ({ status: ok, data: await svc.listarPaises(ctx) }));
  ruta(app, ctx, api.crearPais, async ({ body, sesion }) => ({
    status: ok,
    id_pais: await svc.crearPais(ctx, sesion, body),
  }));
  ruta(app, ctx, api.leerPais, async ({ params }) => ({
    status: ok,
    data: await svc.leerPais(ctx, params.id),
  }));
  ruta(app, ctx, api.modificarPais, async ({ params, body, sesion }) => {
    await svc.modificarPais(ctx, sesion, params.id, body);
    return svc.ok('cambiosGuardados');
  });
  ruta(app, ctx, api.eliminarPais, async ({ params, sesion }) => {
    await svc.eliminarPais(ctx, sesion, params.id);
    return svc.ok('registroEliminado');
  });

  ruta(app, ctx, api.listarEstados, async ({ query }) => ({
    status: ok,
    data: await svc.listarEstados(ctx, query.id_pais),
  }));
  ruta(app, ctx, api.crearEstado, async ({ body, sesion }) => ({
    status: ok,
    id_estado: await svc.crearEstado(ctx, sesion, body),
  }));
  ruta(app, ctx, api.modificarEstado, async ({ params, body, sesion }) => {
    await svc.modificarEstado(ctx, sesion, params.id, body);
    return svc.ok('cambiosGuardados');
  });
  ruta(app, ctx, api.eliminarEstado, async ({ params, sesion }) => {
    await svc.eliminarEstado(ctx, sesion, params.id);
    return svc.ok('registroEliminado');
  });

  ruta(app, ctx, api.listarCategorias, async () => ({
    status: ok,
    data: await svc.listarCategorias(ctx),
  }));
  ruta(app, ctx, api.crearCategoria, async ({ body, sesion }) => ({
    status: ok,
    id_categoria: await svc.crearCategoria(ctx, sesion, body),
  }));
  ruta(app, ctx, api.modificarCategoria, async ({ params, body, sesion }) => {
    await svc.modificarCategoria(ctx, sesion, params.id, body);
    return svc.ok('cambiosGuardados');
  });
  ruta(app, ctx, api.eliminarCategoria, async ({ params, sesion }) => {
    await svc.eliminarCategoria(ctx, sesion, params.id);
    return svc.ok('registroEliminado');
  });
}
