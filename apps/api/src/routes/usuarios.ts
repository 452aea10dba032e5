import type { FastifyInstance } from 'fastify';
import * as api from '@pregon/contract/api/usuarios';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import * as svc from '../services/usuarios.ts';
import { ok } from '../services/paises.ts';

/** Users (ARCHITECTURE 3): administrators, plus each user's own profile. */
export function rutasUsuarios(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, api.listarUsuarios, async () => ({
    status: 200 as const,
    data: await svc.listar(ctx),
  }));
  ruta(app, ctx, api.crearUsuario, async ({ body, sesion }) => ({
    status: 200 as const,
    id_usuario: await svc.crear(ctx, sesion, body),
  }));
  ruta(app, ctx, api.leerUsuario, async ({ params, sesion }) => ({
    status: 200 as const,
    data: await svc.leer(ctx, sesion, params.id),
  }));
  ruta(app, ctx, api.modificarUsuario, async ({ params, body, sesion }) => {
    await svc.modificar(ctx, sesion, params.id, body);
    return ok('cambiosGuardados');
  });
  ruta(app, ctx, api.eliminarUsuario, async ({ params, sesion }) => {
    await svc.eliminar(ctx, sesion, params.id);
    return ok('registroEliminado');
  });
  ruta(app, ctx, api.desbloquearUsuario, async ({ params, sesion }) => {
    await svc.desbloquear(ctx, sesion, params.id);
    return ok('usuarioDesbloqueado');
  });
}
