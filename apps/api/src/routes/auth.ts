import type { FastifyInstance } from 'fastify';
import { signin, signout, sesionActual, health } from '@pregon/contract/api/auth';
import { msg } from '@pregon/contract/messages';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import { ingresar, salir } from '../services/ingreso.ts';
import { salud } from '../services/salud.ts';

/** Sign-in, sign-out, the caller's session and health. */
export function rutasAuth(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, signin, async ({ body, req, reply }) => ({
    status: 200 as const,
    token: await ingresar(ctx, body, {
      ip: req.ip,
      log: req.log,
      alEsperar: (segundos) => reply.header('retry-after', String(segundos)),
    }),
  }));

  ruta(app, ctx, signout, async ({ sesion, req }) => {
    await salir(ctx, sesion, req.ip);
    return { status: 200 as const, mensaje: msg('sesionCerrada') };
  });

  ruta(app, ctx, sesionActual, async ({ sesion }) => ({
    status: 200 as const,
    id_usuario: sesion.id_usuario,
    usuario: sesion.usuario,
    nombre: sesion.nombre,
    role: sesion.role,
  }));

  ruta(app, ctx, health, async ({ reply }) => {
    const r = await salud(ctx);
    reply.code(r.status);
    return r;
  });
}
