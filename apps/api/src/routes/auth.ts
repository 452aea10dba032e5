import type { FastifyInstance } from 'fastify';
import { signin, health } from '@pregon/contract/api/auth';
import { RolSchema } from '@pregon/contract/constants';
import type { Contexto } from '../contexto.ts';
import { ruta } from '../http/rutas.ts';
import { error } from '../http/errores.ts';
import { verifyDecoy, verifyPassword } from '../auth/passwords.ts';
import { firmarToken } from '../auth/tokens.ts';
import { auditar } from '../repositories/auditoria.ts';
import { ping } from '../db/database.ts';

/** Sign-in and health. */
export function rutasAuth(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, signin, async ({ body, req }) => {
    const k = ctx.db.kysely;
    const claves = [`u:${body.usuario.toLowerCase()}`, `ip:${req.ip}`];
    const espera = ctx.limitador.bloqueo(claves);
    if (espera > 0) throw error(429, 'demasiadosIntentos', { minutos: espera });
    const u = await k.selectFrom('usuarios').selectAll().where('usuario', '=', body.usuario).executeTakeFirst();
    const valido = u ? await verifyPassword(u.password_hash, body.password) : await verifyDecoy(body.password);
    if (!u || !valido || u.activo !== 1) {
      ctx.limitador.fallo(claves);
      await auditar(k, u ? { id_usuario: u.id_usuario, usuario: u.usuario } : null, 'ingreso_fallido', 'usuario', u?.id_usuario, {
        usuario: body.usuario.slice(0, 64),
        ip: req.ip,
      });
      throw error(401, u && valido ? 'usuarioInactivo' : 'credencialesInvalidas');
    }
    ctx.limitador.exito(claves[0]!);
    const role = u.roles.split(',').map((r) => RolSchema.parse(r.trim()));
    const token = await firmarToken(ctx.claves.privada, { ...u, role }, ctx.config.tokenTtlSeconds);
    await auditar(k, u, 'ingreso', 'usuario', u.id_usuario, { ip: req.ip });
    return { status: 200 as const, token };
  });

  ruta(app, ctx, health, async () => {
    await ping(ctx.db);
    return { status: 200 as const, db: ctx.db.engine };
  });
}
