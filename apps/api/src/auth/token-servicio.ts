import type { Contexto } from '../contexto.ts';
import { rolesDe } from '@pregon/servidor/auth/autenticar';
import { firmarToken } from '@pregon/servidor/auth/tokens';

/** Lifetime of a token the server makes for itself (seconds): long enough for one start's checks. */
const TTL_SERVICIO_S = 120;

/**
 * A short-lived token of an active user, with a session of its own, for a call the server makes
 * on that user's behalf (a scheduled start asks the telephony agent whether the audio is there,
 * as the Start button does with the operator's token). Undefined when the user is gone or inactive.
 */
export async function tokenDeServicio(
  ctx: Pick<Contexto, 'db' | 'claves' | 'sesiones'>,
  id_usuario: number | null,
): Promise<string | undefined> {
  if (id_usuario === null) return undefined;
  const u = await ctx.db.kysely
    .selectFrom('usuarios')
    .select(['id_usuario', 'usuario', 'nombre', 'roles'])
    .where('id_usuario', '=', id_usuario)
    .where('activo', '=', 1)
    .executeTakeFirst();
  if (!u) return undefined;
  const sid = await ctx.sesiones.abrir(u.id_usuario, Date.now() + TTL_SERVICIO_S * 1000);
  return firmarToken(ctx.claves.privada, { ...u, role: rolesDe(u.roles) }, TTL_SERVICIO_S, sid);
}
