import type { CryptoKey } from 'jose';
import type { Rol } from '@pregon/contract/constants';
import { RolSchema } from '@pregon/contract/esquemas';
import { tokenDeCabecera, verificarToken, type Sesion } from './tokens.ts';

// A token's signature says who signed in and until when; whether that session still stands, and
// with which roles, only the server's records say (issue 22): an account deactivated, deleted or
// given a new password, and a session signed out, end at the next request, and the roles a
// request runs with are the account's current ones. The api answers from its database
// (auth/sesiones.ts); the telephony agent, which has none, asks the api (apps/pbx/src/sesion-api.ts).

/** Confirms that a token with a valid signature still opens a session. */
export interface VerificadorSesion {
  /** The session with the account's current usuario, nombre and roles, or null when it ended
   * (the caller answers 401). Throws an HttpError when it cannot tell (503). */
  vigente(sesion: Sesion, token: string): Promise<Sesion | null>;
  /** Starts looking the session up by the token's jti before its signature is checked, so the
   * lookup's round trip overlaps the verification; the function returned gives `vigente`'s
   * answer for the verified session. Undefined when the token names no session, or when the
   * verifier cannot start early (then `vigente` is called after the verification). */
  anticipar?(token: string): ((firmada: Sesion) => Promise<Sesion | null>) | undefined;
  /** Why a verified token's session no longer stands, asked only after `vigente` said null:
   * 'desactivada' when its account exists and is inactive (the 401 then says so, issue 48.6). */
  motivoFin?(sesion: Sesion): Promise<'desactivada' | 'terminada'>;
}

/** What a server needs to authenticate a request: the public key tokens are verified with and
 * the way to confirm their sessions. */
export interface Autenticador {
  claves: { publica: CryptoKey };
  sesiones: VerificadorSesion;
}

/** Authenticates an Authorization header (raw token or 'Bearer …'): signature and expiry, then
 * the session as it stands now. Null when any of them fails. */
export async function autenticar(
  a: Autenticador,
  cabecera: string | undefined,
): Promise<Sesion | null> {
  const token = tokenDeCabecera(cabecera);
  const firmada = await verificarToken(a.claves.publica, token);
  return firmada && a.sesiones.vigente(firmada, token!);
}

/** A stored role list ('administradores,operadores') as roles; unknown names are dropped. */
export function rolesDe(texto: string): Rol[] {
  return texto
    .split(',')
    .map((r) => RolSchema.safeParse(r.trim()))
    .flatMap((r) => (r.success ? [r.data] : []));
}
