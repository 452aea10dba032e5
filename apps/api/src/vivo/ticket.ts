import crypto from 'node:crypto';
import { SignJWT, jwtVerify, type CryptoKey } from 'jose';
import { z } from 'zod';
import { TICKET_VIVO_S, type FlujoVivo } from '@pregon/contract/api/tableros';
import type { Rol } from '@pregon/contract/constants';
import { RolSchema } from '@pregon/contract/esquemas';
import { ALGORITMO } from '@pregon/servidor/auth/keys';
import type { Sesion } from '@pregon/servidor/auth/tokens';

// Stream tickets: EventSource cannot send Authorization, and the session token must never ride
// in a URL (logs, history, proxies). A ticket is a JWT of its own type ('vivo+jwt') that names
// one stream, lives TICKET_VIVO_S seconds and carries neither usuario nor nombre, so the normal
// token check (auth/tokens.ts) refuses it. Signed with the api's key, any api process accepts it.
// Each ticket has its own id (jti) and opens one stream only (issue 49.4): the route records the
// id as used in the database (repositories/tickets-vivo.ts), which every api process shares.

const TIPO = 'vivo+jwt';

const TicketSchema = z.object({
  sub: z.string(),
  uso: z.literal('vivo'),
  flujo: z.string(),
  role: z.array(RolSchema),
  /** The session's own expiry (epoch s): the stream closes then. */
  ses: z.number(),
  /** The session's id: the stream closes as soon as it ends (issue 22). */
  sid: z.string().min(1).max(64),
  /** The ticket's own id: used once. */
  jti: z.string().min(1).max(64),
  exp: z.number(),
});

/** The stream a ticket names, as a string ('ejercicio:5', 'general'). */
export const claveFlujo = (f: FlujoVivo): string =>
  f.flujo === 'ejercicio' ? `ejercicio:${f.id_ejercicio}` : 'general';

/** Signs a ticket for one stream on behalf of a session. */
export async function firmarTicket(
  clave: CryptoKey,
  sesion: Sesion,
  flujo: FlujoVivo,
): Promise<{ ticket: string; expira: number }> {
  const exp = Math.min(Math.floor(Date.now() / 1000) + TICKET_VIVO_S, sesion.exp);
  const ticket = await new SignJWT({
    uso: 'vivo',
    flujo: claveFlujo(flujo),
    role: sesion.role,
    ses: sesion.exp,
    sid: sesion.sid,
  })
    .setProtectedHeader({ alg: ALGORITMO, typ: TIPO })
    .setSubject(sesion.sub)
    .setJti(crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(clave);
  return { ticket, expira: exp * 1000 };
}

/** Verifies a ticket for the stream `flujo`: the holder's roles, session end and session id, the
 * ticket's id and expiry (epoch s), or null. Whether it was used already is the caller's check. */
export async function verificarTicket(
  clave: CryptoKey,
  ticket: string,
  flujo: string,
): Promise<{ role: Rol[]; ses: number; sid: string; jti: string; exp: number } | null> {
  try {
    const { payload } = await jwtVerify(ticket, clave, { algorithms: [ALGORITMO], typ: TIPO });
    const p = TicketSchema.parse(payload);
    return p.flujo === flujo
      ? { role: p.role, ses: p.ses, sid: p.sid, jti: p.jti, exp: p.exp }
      : null;
  } catch {
    return null;
  }
}
