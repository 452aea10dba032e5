import { CLAVE_TOKEN } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { decodificarToken, tieneRol, type PayloadToken } from '@pregon/contract/rules/route-guard';
import { guardarBorradores, olvidarBorradores } from './borradores.ts';
import { avisoError } from './notificar.ts';

type Navegar = (ruta: string) => void;

let navegar: Navegar = (ruta) => window.location.assign(ruta);

/** Lets the router take over navigation for session changes made outside React (api client). */
export function registrarNavegacion(fn: Navegar): void {
  navegar = fn;
}

/** The stored session token, or null. */
export function leerToken(): string | null {
  return localStorage.getItem(CLAVE_TOKEN);
}

/** Stores the token returned by the sign-in call. */
export function guardarToken(token: string): void {
  localStorage.setItem(CLAVE_TOKEN, token);
}

/** The decoded payload of the stored token (unverified; the api verifies), or null. */
export function payloadSesion(): PayloadToken | null {
  return decodificarToken(leerToken());
}

/** Whether the signed-in user holds one of the roles. */
export function usuarioTieneRol(roles: readonly string[]): boolean {
  return tieneRol(payloadSesion(), roles);
}

/** Where the page to return to after signing in is kept: session storage, which the SPEC's
 * clearing of local storage leaves alone and which dies with the tab. */
const CLAVE_REGRESO = 'regreso';

/** 'Cerrar sesión': ends the session on the server (its token is refused from then on, also if
 * it was copied), clears all local storage and goes to /signin. It does not wait for the
 * server: the request outlives the page (keepalive), and a failure changes nothing here. */
export function cerrarSesion(): void {
  const token = leerToken();
  // The endpoint's module is loaded here, not at the top: its schemas would bring zod into the
  // first screen's chunk, which has no other use for it (issue 27.3).
  if (token)
    void import('@pregon/contract/api/auth')
      .then(({ signout }) =>
        fetch(signout.path, {
          method: 'POST',
          headers: { authorization: token },
          keepalive: true,
        }),
      )
      .catch(() => {});
  localStorage.clear();
  globalThis.sessionStorage?.removeItem(CLAVE_REGRESO);
  olvidarBorradores();
  navegar('/signin');
}

/** Remembers `ruta` (path and query of this app) as the page to return to after signing in
 * (issue 26.7: an expired session landed on / and lost the page). /signin itself is not kept. */
export function recordarRegreso(ruta: string): void {
  if (!ruta.startsWith('/') || ruta.startsWith('//') || ruta.startsWith('/signin')) return;
  globalThis.sessionStorage?.setItem(CLAVE_REGRESO, ruta);
}

/** The page to go to after signing in (once; then forgotten), '/' when none was kept. */
export function tomarRegreso(): string {
  const ruta = sessionStorage.getItem(CLAVE_REGRESO);
  sessionStorage.removeItem(CLAVE_REGRESO);
  return ruta && ruta.startsWith('/') && !ruta.startsWith('//') ? ruta : '/';
}

let expirando = false;

/** The toast of a 401: the server's when it says the account was deactivated (issue 48.6), the
 * SPEC's 'FALLO: SESION EXPIRADA' otherwise. */
export function mensajeDeExpiracion(mensajeServidor: string | undefined): string {
  return mensajeServidor === msg('cuentaDesactivada') ? mensajeServidor : msg('sesionExpirada');
}

/** Session expiry (SPEC 8): error toast 'FALLO: SESION EXPIRADA' (or the account's deactivation,
 * `mensaje`), clear storage, go to /signin. */
export function expirarSesion(mensaje: string = msg('sesionExpirada')): void {
  if (typeof location !== 'undefined') recordarRegreso(location.pathname + location.search);
  guardarBorradores(payloadSesion()?.usuario);
  localStorage.clear();
  if (!expirando) {
    expirando = true;
    avisoError(mensaje);
    setTimeout(() => (expirando = false), 1000);
  }
  navegar('/signin');
}
