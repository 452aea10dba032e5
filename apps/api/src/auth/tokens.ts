import { SignJWT, jwtVerify, type CryptoKey } from 'jose';
import { RolSchema, type Rol } from '@pregon/contract/constants';
import { z } from 'zod';
import { ALGORITMO } from './keys.ts';

/** What a verified token tells about its holder. */
export interface Sesion {
  sub: string;
  id_usuario: number;
  usuario: string;
  nombre: string;
  role: Rol[];
  exp: number;
}

const PayloadSchema = z.object({
  sub: z.string(),
  usuario: z.string(),
  nombre: z.string(),
  role: z.array(RolSchema),
  exp: z.number(),
});

/** Signs a token with payload {sub, usuario, nombre, role, exp}. */
export function firmarToken(
  clave: CryptoKey,
  u: { id_usuario: number; usuario: string; nombre: string; role: Rol[] },
  ttlSegundos: number,
): Promise<string> {
  return new SignJWT({ usuario: u.usuario, nombre: u.nombre, role: u.role })
    .setProtectedHeader({ alg: ALGORITMO, typ: 'JWT' })
    .setSubject(String(u.id_usuario))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSegundos)
    .sign(clave);
}

/** Verifies a token (signature, expiry, shape); null when it is missing, bad or expired. */
export async function verificarToken(clave: CryptoKey, token: string | undefined): Promise<Sesion | null> {
  if (!token || token.length > 4096) return null;
  try {
    // typ 'JWT' only: a dialplan signature (auth/firma-dialplan.ts) is never a session.
    const { payload } = await jwtVerify(token, clave, { algorithms: [ALGORITMO], typ: 'JWT' });
    const p = PayloadSchema.parse(payload);
    const id = Number(p.sub);
    if (!Number.isInteger(id)) return null;
    return { ...p, id_usuario: id };
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
