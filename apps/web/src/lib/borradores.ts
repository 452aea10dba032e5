// Half-filled forms kept through a session's expiry (issue 26.7). SPEC 8 ends an expired session
// by clearing local storage and going to /signin, which unmounted an open dialog with what was
// typed. An open form registers how to read itself; on expiry each is written to session storage
// (which the SPEC's clearing leaves alone and which dies with the tab), marked with the user, and
// the screen that owns it takes it back once the same user has signed in again.

const PREFIJO = 'borrador:';

const abiertos = new Map<string, () => unknown>();

/** While a form is open: `leer` returns what to keep (plain JSON). Returns the unregistering. */
export function registrarBorrador(clave: string, leer: () => unknown): () => void {
  abiertos.set(clave, leer);
  return () => {
    if (abiertos.get(clave) === leer) abiertos.delete(clave);
  };
}

/** On expiry: writes every open form, marked with the user whose session ended. */
export function guardarBorradores(usuario: string | undefined): void {
  if (!usuario) return;
  for (const [clave, leer] of abiertos) {
    try {
      sessionStorage.setItem(PREFIJO + clave, JSON.stringify({ usuario, datos: leer() }));
    } catch {
      // Storage full or unavailable: the form is lost as it was before.
    }
  }
}

/** The form kept under `clave` for `usuario` (another user's is dropped). It stays kept until
 * `olvidarBorrador`: the screen forgets it once its form is closed or sent. */
export function leerBorrador<T>(clave: string, usuario: string | undefined): T | undefined {
  const texto = globalThis.sessionStorage?.getItem(PREFIJO + clave);
  if (!texto) return undefined;
  try {
    const b = JSON.parse(texto) as { usuario?: string; datos?: T };
    if (usuario && b.usuario === usuario) return b.datos;
  } catch {
    // Not ours to read: dropped below.
  }
  olvidarBorrador(clave);
  return undefined;
}

/** Drops what was kept under `clave`. */
export function olvidarBorrador(clave: string): void {
  globalThis.sessionStorage?.removeItem(PREFIJO + clave);
}

/** 'Cerrar sesión': what was kept is not for the next person at this tab. */
export function olvidarBorradores(): void {
  const s = globalThis.sessionStorage;
  if (!s) return;
  for (const clave of Object.keys(s)) if (clave.startsWith(PREFIJO)) s.removeItem(clave);
}
