import type { FastifyInstance, FastifyRequest } from 'fastify';

// Shared by the api (which also serves the web app) and the telephony agent (issue 49.4): the
// security headers every answer carries, and the request serializer that keeps secrets in query
// strings (stream tickets, WhatsApp's hub.verify_token) out of the logs.

/** What replaces a hidden value in a log. */
export const OCULTO = '[oculto]';

/** A request URL as the logs may show it: the path, and each query parameter's name with its
 * value hidden (`/vivo/general/?ticket=[oculto]`). A URL may carry a stream ticket or a webhook's
 * verify token; which parameters are secret is not for the logger to guess, so none is shown. */
export function urlSinSecretos(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const nombres = url
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .slice(0, 20)
    .map((p) => {
      const igual = p.indexOf('=');
      return `${(igual < 0 ? p : p.slice(0, igual)).slice(0, 64)}=${OCULTO}`;
    });
  return `${url.slice(0, q)}?${nombres.join('&')}`;
}

/** pino serializers for Fastify's `logger.serializers`: its default request fields, with the URL
 * through urlSinSecretos (README: logs never carry passwords or tokens). */
export const serializadoresLog = {
  req(req: FastifyRequest) {
    return {
      method: req.method,
      url: urlSinSecretos(req.url),
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
};

/**
 * The Content-Security-Policy of the web app (and of every api answer, which share one origin).
 * Scripts only from our own files (no inline script, no eval: the web turns zod's off); styles
 * from our files and inline: Ant Design's zero-runtime mode still injects `<style>` elements (its
 * theme's CSS variables; rc-util's scroll lock when a dialog opens) and sets style attributes;
 * under `style-src 'self'` the app raised 17 `style-src-elem` violations from sign-in to a
 * dashboard (e2e/seguridad.test.ts). Images our own and data: URIs; audio from blob: URLs
 * (the .gsm player decodes to a WAV blob); requests to our own origin and to the telephony
 * agent's (`conectarA`: the PBX base the web learns from GET /config/, often another port).
 * No framing, no <base>, no forms posting elsewhere, no plugins.
 */
export function politicaContenido(conectarA: readonly string[] = []): string {
  const origenes = [...new Set(conectarA.map(origenDe).filter((o): o is string => !!o))];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "media-src 'self' blob:",
    `connect-src ${["'self'", ...origenes].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** The policy of an answer that is never a page (the telephony agent: JSON and audio bytes):
 * nothing may load from it, frame it, or be posted from it. */
export const POLITICA_SIN_DOCUMENTO =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** An absolute URL's origin (`http://pbx:8090`), or undefined for a relative or invalid one
 * (a relative base is our own origin, already 'self'). */
function origenDe(url: string): string | undefined {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? undefined : o;
  } catch {
    return undefined;
  }
}

/** The security headers of every answer, with the given Content-Security-Policy, and
 * `Cache-Control: no-store` unless the answer sets its own. */
export function cabecerasSeguridad(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // No page of ours has a reason to tell another site where the user was; URLs may carry ids.
    'referrer-policy': 'no-referrer',
    // Answers carry personal data (names, phones, replies): no browser or proxy keeps a copy, so
    // Back after 'Cerrar sesión' shows nothing from a cache (issue 48.6). The web app's own files
    // replace it (server.ts cabecerasWeb: immutable assets, index.html no-cache); the live
    // streams write their own.
    'cache-control': 'no-store',
  };
}

/** Sets the security headers on every answer of `app`: on the raw response as each request
 * arrives, so they reach the JSON routes, errors and 404s, the web app's files (@fastify/static)
 * and the live streams, which write their own head (hijacked). Register before any route. `csp`
 * may be a function, read at each request (the PBX base it names is run-time configuration). */
export function registrarCabecerasSeguridad(
  app: FastifyInstance,
  csp: string | (() => string),
): void {
  const leer = typeof csp === 'string' ? () => csp : csp;
  let politica = '';
  let cabeceras: [string, string][] = [];
  app.addHook('onRequest', (_req, reply, hecho) => {
    const ahora = leer();
    if (ahora !== politica) cabeceras = Object.entries(cabecerasSeguridad((politica = ahora)));
    for (const [nombre, valor] of cabeceras) reply.raw.setHeader(nombre, valor);
    hecho();
  });
}
