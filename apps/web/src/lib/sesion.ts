import { CLAVE_TOKEN } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import {
  decodificarToken,
  rolesDelToken,
  tieneRol,
  type PayloadToken,
} from '@pregon/contract/rules/route-guard';
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

// Issue 48.6: the roles the screens follow are the account's current ones. The token's are those
// it was signed with; an administrator may have changed them since (the api enforces the current
// ones on every call). GET /auth/sesion/ gives them: asked when the app opens, when the window
// regains focus and after any 403; kept in local storage beside the token (with its session id,
// so a new sign-in never reads another session's), so a reload shows the right buttons at once.

/** Where the account's current roles are kept: {sid, role}. */
const CLAVE_ROLES = 'roles_actuales';

/** The current roles known for the stored token's session, or null when none was asked yet. */
function rolesActuales(): string[] | null {
  const jti = payloadSesion()?.jti;
  try {
    const g = JSON.parse(localStorage.getItem(CLAVE_ROLES) ?? 'null') as {
      sid?: unknown;
      role?: unknown;
    } | null;
    if (!g || g.sid !== jti || !Array.isArray(g.role)) return null;
    return g.role.filter((r): r is string => typeof r === 'string');
  } catch {
    return null;
  }
}

/** Whether the signed-in user holds one of the roles (the account's current ones when known). */
export function usuarioTieneRol(roles: readonly string[]): boolean {
  const actuales = rolesActuales();
  return actuales ? roles.some((r) => actuales.includes(r)) : tieneRol(payloadSesion(), roles);
}

/** Bumped when the roles the screens follow change; the layout re-mounts its page on it. */
let versionRoles = 0;
const oyentesRoles = new Set<() => void>();

/** For useSyncExternalStore: subscribe to changes of the roles the screens follow. */
export function suscribirRoles(oyente: () => void): () => void {
  oyentesRoles.add(oyente);
  return () => oyentesRoles.delete(oyente);
}

/** For useSyncExternalStore: the roles' version. */
export const leerVersionRoles = (): number => versionRoles;

/** Records the account's current roles; screens are told when that changes what they allow. */
export function fijarRolesActuales(role: readonly string[]): void {
  const jti = payloadSesion()?.jti;
  if (typeof jti !== 'string') return;
  const antes = rolesActuales() ?? rolesDelToken(payloadSesion());
  localStorage.setItem(CLAVE_ROLES, JSON.stringify({ sid: jti, role }));
  const mismos = antes.length === role.length && antes.every((r) => role.includes(r));
  if (mismos) return;
  versionRoles++;
  for (const o of oyentesRoles) o();
}

let preguntando: Promise<void> | undefined;

/** Asks the api for the account's current roles (GET /auth/sesion/) and records them; one
 * request at a time, failures ignored (a 401 ends the session on the next call anyway). */
export function refrescarRoles(): Promise<void> {
  const token = leerToken();
  if (!token) return Promise.resolve();
  // The endpoint's module is loaded here: its schema would bring zod into the first screen.
  preguntando ??= import('@pregon/contract/api/auth')
    .then(({ sesionActual }) =>
      fetch(sesionActual.path, { headers: { authorization: token, accept: 'application/json' } }),
    )
    .then(async (r) => {
      if (!r.ok || leerToken() !== token) return;
      const cuerpo = (await r.json()) as { role?: unknown };
      if (Array.isArray(cuerpo.role))
        fijarRolesActuales(cuerpo.role.filter((x): x is string => typeof x === 'string'));
    })
    .catch(() => undefined)
    .finally(() => (preguntando = undefined));
  return preguntando;
}

/** What else forgets the session's data at sign-out (the query cache: app/consultas.ts). */
const limpiezas: (() => void)[] = [];

/** Registers something to forget at sign-out. */
export function registrarLimpieza(fn: () => void): void {
  limpiezas.push(fn);
}

/** A page the browser restores from its back-forward cache after 'Cerrar sesión' (or another
 * tab's) still shows what it showed then: without a session it goes to /signin at once, and with
 * one it asks for the current roles (issue 48.6). Call once at start. */
export function vigilarPaginaRestaurada(): void {
  window.addEventListener('pageshow', (e) => {
    if (!e.persisted) return;
    if (!leerToken() && !location.pathname.startsWith('/signin')) location.replace('/signin');
    else void refrescarRoles();
  });
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
  for (const fn of limpiezas) fn();
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
