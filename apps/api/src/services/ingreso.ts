import type { SigninBody } from '@pregon/contract/api/auth';
import { RolSchema } from '@pregon/contract/esquemas';
import { error } from '@pregon/servidor/http/errores';
import { firmarToken, type Sesion } from '@pregon/servidor/auth/tokens';
import type { Contexto } from '../contexto.ts';
import { verifyDecoy, verifyPassword } from '../auth/passwords.ts';
import { auditar } from '../repositories/auditoria.ts';
import { usuarioParaIngreso } from '../repositories/usuarios.ts';

// Signing in and out: the sign-in limiter (429 while a name or address waits), the password
// (an unknown user costs the same as a wrong password), the session, the token and the audit rows.

/** Where a sign-in comes from: its address, the request's log, and how to tell the client to
 * wait (its Retry-After, in seconds). */
export interface OrigenIngreso {
  ip: string;
  log: { warn(obj: object, msg: string): void };
  alEsperar: (segundos: number) => void;
}

/** Signs `body.usuario` in: the token of its new session, or 429 (waiting), 401 (wrong or
 * inactive). */
export async function ingresar(
  ctx: Pick<Contexto, 'db' | 'limitador' | 'sesiones' | 'claves' | 'config'>,
  body: SigninBody,
  o: OrigenIngreso,
): Promise<string> {
  const k = ctx.db.kysely;
  const espera = await ctx.limitador.espera(body.usuario, o.ip);
  if (espera > 0) {
    const segundos = Math.ceil(espera / 1000);
    o.alEsperar(segundos);
    throw segundos < 120
      ? error(429, 'demasiadosIntentosSegundos', { segundos })
      : error(429, 'demasiadosIntentos', { minutos: Math.ceil(segundos / 60) });
  }
  const u = await usuarioParaIngreso(k, body.usuario);
  const valido = u
    ? await verifyPassword(u.password_hash, body.password)
    : await verifyDecoy(body.password);
  if (!u || !valido || u.activo !== 1) {
    const quien = u ? { id_usuario: u.id_usuario, usuario: u.usuario } : null;
    const usuario = body.usuario.slice(0, 64);
    await auditar(k, quien, 'ingreso_fallido', 'usuario', u?.id_usuario, { usuario, ip: o.ip });
    for (const b of await ctx.limitador.fallo(body.usuario, o.ip)) {
      o.log.warn(
        { usuario, ip: o.ip, clave: b.clave, fallos: b.fallos, hasta: b.hasta },
        'ingreso bloqueado',
      );
      await auditar(k, quien, 'bloqueo_ingreso', 'usuario', u?.id_usuario, {
        usuario,
        ip: o.ip,
        ...b,
      });
    }
    throw error(401, u && valido ? 'usuarioInactivo' : 'credencialesInvalidas');
  }
  await ctx.limitador.exito(body.usuario, o.ip);
  const role = u.roles.split(',').map((r) => RolSchema.parse(r.trim()));
  const ttl = ctx.config.tokenTtlSeconds;
  const sid = await ctx.sesiones.abrir(u.id_usuario, Date.now() + ttl * 1000);
  const token = await firmarToken(ctx.claves.privada, { ...u, role }, ttl, sid);
  await auditar(k, u, 'ingreso', 'usuario', u.id_usuario, { ip: o.ip });
  return token;
}

/** Ends the caller's session (its token stops working on every process) and audits it. */
export async function salir(ctx: Pick<Contexto, 'db' | 'sesiones'>, sesion: Sesion, ip: string) {
  await ctx.sesiones.terminar(sesion.sid);
  await auditar(ctx.db.kysely, sesion, 'salida', 'usuario', sesion.id_usuario, { ip });
}
