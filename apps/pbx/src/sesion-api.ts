import { sesionActual } from '@pregon/contract/api/auth';
import type { VerificadorSesion } from '@pregon/servidor/auth/autenticar';
import type { Sesion } from '@pregon/servidor/auth/tokens';
import { error } from '@pregon/servidor/http/errores';

// The agent has no database: after checking a token's signature it asks the api whether the
// token's session still stands and with which roles (GET /auth/sesion/, issue 22). Answers are
// kept CACHE_SESION_MS per token, so a burst of calls (an audio upload, then its dialplan) asks
// once, and an ended session is refused within that time plus one round trip. When the api does
// not answer the agent refuses (503): it never falls back to the roles written in the token.

/** How long the api's answer about a token is reused (ms). */
export const CACHE_SESION_MS = 2000;
/** How long the agent waits for the api (ms). */
export const ESPERA_API_MS = 2000;
/** Most tokens remembered at once; the oldest answers are dropped first. */
const MAX_EN_CACHE = 1000;

/** Asks the api at `apiUrl` about each token (see above); `cacheMs` 0 asks every time. */
export function sesionDesdeApi(
  apiUrl: string,
  opts: { cacheMs?: number; esperaMs?: number } = {},
): VerificadorSesion {
  const cacheMs = opts.cacheMs ?? CACHE_SESION_MS;
  const esperaMs = opts.esperaMs ?? ESPERA_API_MS;
  const url = `${apiUrl.replace(/\/+$/, '')}${sesionActual.path}`;
  const noDisponible = () => error(503, 'sesionSinConfirmar', { url: apiUrl });
  // One entry per token: the answer (or the question under way, shared by concurrent calls).
  const cache = new Map<string, { hasta: number; respuesta: Promise<Sesion | null> }>();

  const preguntar = async (sesion: Sesion, token: string): Promise<Sesion | null> => {
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { authorization: token, accept: 'application/json' },
        signal: AbortSignal.timeout(esperaMs),
      });
    } catch {
      throw noDisponible();
    }
    if (res.status === 401) return null;
    // Signed in, but with no role the api knows: the agent's role check answers 403.
    if (res.status === 403) return { ...sesion, role: [] };
    if (res.status !== 200) throw noDisponible();
    const cuerpo = sesionActual.respuesta.safeParse(await res.json().catch(() => null));
    if (!cuerpo.success || cuerpo.data.id_usuario !== sesion.id_usuario) throw noDisponible();
    const { usuario, nombre, role } = cuerpo.data;
    return { ...sesion, usuario, nombre, role };
  };

  return {
    vigente(sesion, token) {
      const ahora = Date.now();
      const guardada = cache.get(token);
      if (guardada && guardada.hasta > ahora) return guardada.respuesta;
      if (cache.size >= MAX_EN_CACHE)
        for (const [t, e] of cache)
          if (e.hasta <= ahora || cache.size >= MAX_EN_CACHE) cache.delete(t);
      const respuesta = preguntar(sesion, token);
      const entrada = { hasta: ahora + cacheMs, respuesta };
      cache.set(token, entrada);
      // A failed question is not remembered: the next call asks again.
      respuesta.catch(() => cache.get(token) === entrada && cache.delete(token));
      return respuesta;
    },
  };
}
