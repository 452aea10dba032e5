/**
 * The route guard run on every navigation (SPEC 6), as a pure decision the web's router applies.
 * It only reads the token; the api verifies signatures and enforces roles itself.
 */

/** Token payload fields the guard reads (ARCHITECTURE 3 adds sub, usuario and nombre). */
export interface PayloadToken {
  role?: string | readonly string[];
  /** Expiry, seconds since epoch. */
  exp?: number;
  sub?: string | number;
  usuario?: string;
  nombre?: string;
  [otro: string]: unknown;
}

/** Decodes a JWT's payload without verifying it (browser and Node; no Buffer); null when it cannot. */
export function decodificarToken(token: string | null | undefined): PayloadToken | null {
  const parte = token?.split('.')[1];
  if (!parte) return null;
  try {
    const base64 = parte.replace(/-/g, '+').replace(/_/g, '/');
    const binario = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
    const bytes = Uint8Array.from(binario, (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as PayloadToken)
      : null;
  } catch {
    return null;
  }
}

/** Role names of a payload: role may be a list or a string (comma- or space-separated names). */
export function rolesDelToken(payload: PayloadToken | null | undefined): string[] {
  const role = payload?.role;
  if (typeof role === 'string') return role.split(/[\s,]+/).filter((r) => r !== '');
  if (Array.isArray(role)) return role.filter((r): r is string => typeof r === 'string');
  return [];
}

/** Whether the payload holds at least one of the roles; false for a missing payload. */
export function tieneRol(
  payload: PayloadToken | null | undefined,
  roles: readonly string[],
): boolean {
  const propios = rolesDelToken(payload);
  return roles.some((r) => propios.includes(r));
}

/** Whether the token has expired (exp × 1000 earlier than now); an undecodable one has not. */
export function tokenExpirado(payload: PayloadToken | null | undefined, ahoraMs: number): boolean {
  const exp = Number(payload?.exp);
  return payload?.exp !== undefined && Number.isFinite(exp) && exp * 1000 < ahoraMs;
}

/** What the guard asks of the router. */
export type DecisionRuta =
  | { tipo: 'permitir' }
  /** Go to /signin; `limpiar`: clear all local storage first (expired session). */
  | { tipo: 'signin'; limpiar: boolean }
  /** Go to / (the route's roles are missing). */
  | { tipo: 'inicio' };

/** Inputs of the guard. */
export interface EntradaRuta {
  /** The token in local storage under 'token', or null. */
  token: string | null;
  ahoraMs: number;
  /** Roles the route declares (e.g. ['administradores'] for /users); none means any user. */
  rolesRuta?: readonly string[];
  /** The route needs no session (/signin). */
  publica: boolean;
}

/**
 * SPEC 6: with a token, expired → clear and /signin; else declared roles missing → /; an
 * undecodable token fails the role check and counts as not expired. Without a token, a
 * non-public route → /signin.
 */
export function decidirRuta(entrada: EntradaRuta): DecisionRuta {
  if (entrada.token) {
    const payload = decodificarToken(entrada.token);
    if (tokenExpirado(payload, entrada.ahoraMs)) return { tipo: 'signin', limpiar: true };
    const roles = entrada.rolesRuta ?? [];
    if (roles.length > 0 && !tieneRol(payload, roles)) return { tipo: 'inicio' };
    return { tipo: 'permitir' };
  }
  return entrada.publica ? { tipo: 'permitir' } : { tipo: 'signin', limpiar: false };
}
