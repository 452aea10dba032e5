import type { FastifyInstance } from 'fastify';
import { signin, signout, sesionActual, health } from '@pregon/contract/api/auth';
import { msg } from '@pregon/contract/messages';
import { RolSchema } from '@pregon/contract/esquemas';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import { error } from '@pregon/servidor/http/errores';
import { verifyDecoy, verifyPassword } from '../auth/passwords.ts';
import { firmarToken } from '@pregon/servidor/auth/tokens';
import { auditar } from '../repositories/auditoria.ts';
import { salud } from '../services/salud.ts';

/** Sign-in, sign-out, the caller's session and health. */
export function rutasAuth(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, signin, async ({ body, req, reply }) => {
    const k = ctx.db.kysely;
    const espera = await ctx.limitador.espera(body.usuario, req.ip);
    if (espera > 0) {
      const segundos = Math.ceil(espera / 1000);
      reply.header('retry-after', String(segundos));
      throw segundos < 120
        ? error(429, 'demasiadosIntentosSegundos', { segundos })
        : error(429, 'demasiadosIntentos', { minutos: Math.ceil(segundos / 60) });
    }
    const u = await k
      .selectFrom('usuarios')
      .selectAll()
      .where('usuario', '=', body.usuario)
      .executeTakeFirst();
    const valido = u
      ? await verifyPassword(u.password_hash, body.password)
      : await verifyDecoy(body.password);
    if (!u || !valido || u.activo !== 1) {
      const quien = u ? { id_usuario: u.id_usuario, usuario: u.usuario } : null;
      const usuario = body.usuario.slice(0, 64);
      await auditar(k, quien, 'ingreso_fallido', 'usuario', u?.id_usuario, { usuario, ip: req.ip });
      for (const b of await ctx.limitador.fallo(body.usuario, req.ip)) {
        req.log.warn(
          { usuario, ip: req.ip, clave: b.clave, fallos: b.fallos, hasta: b.hasta },
          'ingreso bloqueado',
        );
        await auditar(k, quien, 'bloqueo_ingreso', 'usuario', u?.id_usuario, {
          usuario,
          ip: req.ip,
          ...b,
        });
      }
      throw error(401, u && valido ? 'usuarioInactivo' : 'credencialesInvalidas');
    }
    await ctx.limitador.exito(body.usuario, req.ip);
    const role = u.roles.split(',').map((r) => RolSchema.parse(r.trim()));
    const ttl = ctx.config.tokenTtlSeconds;
    const sid = await ctx.sesiones.abrir(u.id_usuario, Date.now() + ttl * 1000);
    const token = await firmarToken(ctx.claves.privada, { ...u, role }, ttl, sid);
    await auditar(k, u, 'ingreso', 'usuario', u.id_usuario, { ip: req.ip });
    return { status: 200 as const, token };
  });

  ruta(app, ctx, signout, async ({ sesion, req }) => {
    await ctx.sesiones.terminar(sesion.sid);
    await auditar(ctx.db.kysely, sesion, 'salida', 'usuario', sesion.id_usuario, { ip: req.ip });
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
