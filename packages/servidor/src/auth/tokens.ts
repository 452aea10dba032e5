import crypto from 'node:crypto';
import { SignJWT, jwtVerify, type CryptoKey } from 'jose';
import type { Rol } from '@pregon/contract/constants';
import { RolSchema } from '@pregon/contract/esquemas';
import { z } from 'zod';
import { ALGORITMO } from './keys.ts';

/** What a verified token tells about its holder. Once the session is confirmed on the server
 * (auth/autenticar.ts), usuario, nombre and role are the account's current ones. */
export interface Sesion {
  sub: string;
  id_usuario: number;
  usuario: string;
  nombre: string;
  role: Rol[];
  exp: number;
  /** The session's id on the server: the token's jti (table sesiones). */
  sid: string;
}

const PayloadSchema = z.object({
  sub: z.string(),
  usuario: z.string(),
  nombre: z.string(),
  role: z.array(RolSchema),
  exp: z.number(),
  jti: z.string().min(1).max(64),
});

/** A new random session id (128 bits), the jti of the token that opens it. */
export const nuevoIdSesion = (): string => crypto.randomBytes(16).toString('base64url');

/** Signs a token with payload {sub, usuario, nombre, role, exp, jti}; `sid` is the session the
 * token opens (a new random one unless given). */
export function firmarToken(
  clave: CryptoKey,
  u: { id_usuario: number; usuario: string; nombre: string; role: Rol[] },
  ttlSegundos: number,
  sid: string = nuevoIdSesion(),
): Promise<string> {
  return new SignJWT({ usuario: u.usuario, nombre: u.nombre, role: u.role })
    .setProtectedHeader({ alg: ALGORITMO, typ: 'JWT' })
    .setSubject(String(u.id_usuario))
    .setJti(sid)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSegundos)
    .sign(clave);
}

/** Verifies a token (signature, expiry, shape); null when it is missing, bad or expired. */
export async function verificarToken(
  clave: CryptoKey,
  token: string | undefined,
): Promise<Sesion | null> {
  if (!token || token.length > 4096) return null;
  try {
    // typ 'JWT' only: a dialplan signature (auth/firma-dialplan.ts) is never a session.
    const { payload } = await jwtVerify(token, clave, { algorithms: [ALGORITMO], typ: 'JWT' });
    const { jti, ...p } = PayloadSchema.parse(payload);
    const id = Number(p.sub);
    if (!Number.isInteger(id)) return null;
    return { ...p, id_usuario: id, sid: jti };
  } catch {
    return null;
  }
}

/** Extracts the token from an Authorization header: raw (as the SPEC sends it) or 'Bearer …'. */
export function tokenDeCabecera(cabecera: string | undefined): string | undefined {
  if (!cabecera) return undefined;
  const t = cabecera.trim();
  return /^bearer\s+/i.test(t) ? t.replace(/^bearer\s+/i, '') : t;
}
