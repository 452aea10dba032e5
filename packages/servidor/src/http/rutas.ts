import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { permitido, type Acceso, type Endpoint } from '@pregon/contract/api/endpoint';
import {
  alcanceDeRuta,
  alcanceDelCuerpo,
  ETIQUETAS_ALCANCE,
  PREFIJO_CLAVE,
  type AlcanceClave,
} from '@pregon/contract/api/integraciones';
import { tokenDeCabecera, verificarToken, type Sesion } from '../auth/tokens.ts';
import type { Autenticador, VerificadorSesion } from '../auth/autenticar.ts';
import { error, prohibido, sesionExpirada } from './errores.ts';
import { respuestaDeError } from './respuesta-error.ts';
import { campoConTextoInvalido } from './texto-seguro.ts';

type Infer<T> = [NonNullable<T>] extends [never]
  ? undefined
  : NonNullable<T> extends z.ZodType
    ? z.output<NonNullable<T>>
    : undefined;

/** Whether a handler answered itself: it returned the reply (a download or a live stream; a reply
 * is a thenable, so `await` on it yields undefined, not the reply) or the reply is already sent.
 * Sending again would log 'Reply was already sent'. */
const yaEnviada = (res: unknown, reply: FastifyReply): boolean =>
  res === reply || reply.sent || reply.raw.headersSent;

/** What a handler receives: validated input, the caller's session and the raw request/reply. */
export interface Entrada<E extends Endpoint> {
  body: Infer<E['body']>;
  query: Infer<E['query']>;
  params: Infer<E['params']>;
  sesion: Sesion;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** A handler returns the response body (validated against the endpoint's schema), or sends it
 * itself and returns the reply. */
export type Manejador<E extends Endpoint> = (
  entrada: Entrada<E>,
) => Promise<z.input<E['respuesta']> | FastifyReply> | z.input<E['respuesta']>;

const ANONIMO: Sesion = {
  sub: '',
  id_usuario: 0,
  usuario: '',
  nombre: '',
  role: [],
  exp: 0,
  sid: '',
};

/** What a route needs of its server to authenticate: the public key tokens are verified with and
 * the way to confirm their sessions (the api's context, which looks them up in its database, or
 * the telephony agent's, which holds only that key and asks the api). */
export type ConClavePublica = Autenticador & {
  /** API keys (issue 47.4): only the api has them (its services/claves.ts); elsewhere a key gets
   * 401. */
  clavesApi?: VerificadorClaves;
};

/** A key's account as a request runs with it, and what it may do. */
export interface CuentaClave {
  sesion: Sesion;
  alcances: AlcanceClave[];
}

/** Finds an API key's account: null when the key is unknown, wrong or revoked (401); it may
 * throw the 429 of a key past its rate. */
export interface VerificadorClaves {
  verificar(token: string): Promise<CuentaClave | null>;
}

/** How one endpoint is served beyond its contract entry. */
export interface OpcionesRuta {
  /** A GET whose handler writes (housekeeping such as marking an abandoned job) or acts outside
   * (a provider's api called with a device's credentials): its session is confirmed before the
   * handler runs, as for POST, PUT and DELETE. */
  confirmarAntes?: boolean;
}

// The session check (issue 22) costs one query on the server's records. A request that changes
// data awaits it before its handler runs: nothing is written on behalf of an ended session. A
// read (GET, and the HEAD Fastify derives from it) does not wait for it: the query starts when
// the request arrives (before the signature is verified, when the verifier can start early), the
// handler runs meanwhile with the token's session on another pool connection, and the answer is
// awaited before anything is sent. Ended session: 401 replaces the
// answer; the account's current roles may not call the endpoint: 403 replaces it; the account's
// name or roles changed and the handler read them: it runs again with the current ones. Headers
// the handler set go too, and a streamed body is destroyed before its first byte. Handlers that
// send their own reply are confirmed in onSend, before the first byte; hijacking the reply
// (writing to the socket directly) is refused on such routes, since no hook would run.

/** A request's session while its route runs. */
interface EstadoSesion {
  /** The session the handler runs with: the token's until the server confirms it. */
  sesion: Sesion;
  /** The server's answer still to be applied (optimistic reads only). */
  pendiente?: Promise<Sesion | null>;
  /** Whether the handler read the session (its answer may then depend on it). */
  leida: boolean;
  /** The scopes of the API key the request came with (none: a user's session). */
  alcances?: AlcanceClave[];
}

type ConEstado = FastifyRequest & { estadoSesion?: EstadoSesion };

/** Applies the server's answer about a read's session: 401 when it ended, 403 when the account's
 * current roles may not call the endpoint, else the confirmed session. Applied once. */
async function confirmar(
  est: EstadoSesion,
  acceso: Acceso,
  sesiones: VerificadorSesion,
): Promise<Sesion> {
  const pendiente = est.pendiente;
  if (!pendiente) return est.sesion;
  est.pendiente = undefined;
  const actual = await pendiente;
  if (!actual) throw await finDeSesion(sesiones, est.sesion);
  if (!permitido(acceso, actual.role)) throw prohibido();
  return actual;
}

/** The 401 of a verified token whose session no longer stands: 'FALLO: SESION EXPIRADA', or,
 * when an administrator deactivated the account, a message that says so (issue 48.6). */
async function finDeSesion(sesiones: VerificadorSesion, firmada: Sesion) {
  const motivo = await sesiones.motivoFin?.(firmada).catch(() => 'terminada' as const);
  return motivo === 'desactivada' ? error(401, 'cuentaDesactivada') : sesionExpirada();
}

/** True when the confirmed session names the account and roles the token did. */
function mismaCuenta(token: Sesion, actual: Sesion): boolean {
  if (token.usuario !== actual.usuario || token.nombre !== actual.nombre) return false;
  if (token.role.length !== actual.role.length) return false;
  return token.role.every((r) => actual.role.includes(r));
}

/** Forgets what a handler set on the reply (status, headers) before another answer replaces it. */
function olvidarRespuesta(reply: FastifyReply) {
  for (const h of Object.keys(reply.getHeaders())) reply.removeHeader(h);
  reply.code(200);
}

/** Stands in for reply.hijack on optimistic reads: a hijacked reply runs no hook, so its bytes
 * would leave before the session is confirmed. */
function sinSecuestro(): never {
  throw new Error(
    'una lectura optimista no puede tomar el socket: declare la ruta con confirmarAntes',
  );
}

/** The state of a request made with an API key: 401 when the key is unknown or revoked, 403
 * when the route takes no key or the key lacks its scope, 429 past its rate. */
async function cuentaDeClave(
  ctx: ConClavePublica,
  token: string,
  alcance: AlcanceClave | null,
): Promise<EstadoSesion> {
  const cuenta: CuentaClave | null = (await ctx.clavesApi?.verificar(token)) ?? null;
  if (!cuenta) throw error(401, 'claveInvalida');
  if (!alcance) throw prohibido();
  if (!cuenta.alcances.includes(alcance)) throw error(403, 'claveSinAlcance', { alcance });
  return { sesion: cuenta.sesion, leida: false, alcances: cuenta.alcances };
}

/** Registers one endpoint of the contract: authenticate → check role → validate → act → present. */
export function ruta<E extends Endpoint>(
  app: FastifyInstance,
  ctx: ConClavePublica,
  e: E,
  manejar: Manejador<E>,
  opciones: OpcionesRuta = {},
) {
  const optimista = e.method === 'GET' && e.acceso !== 'publico' && !opciones.confirmarAntes;
  // Issue 47.4: the scope an API key needs here (null: no key may call this route).
  const alcance = e.acceso === 'publico' ? null : alcanceDeRuta(e);
  const entrada = (
    req: FastifyRequest,
    reply: FastifyReply,
    sesion: Sesion,
    est?: EstadoSesion,
  ) => {
    const base = {
      body: req.body as Infer<E['body']>,
      query: req.query as Infer<E['query']>,
      params: req.params as Infer<E['params']>,
      req,
      reply,
    };
    if (!est) return { ...base, sesion };
    return Object.defineProperty(base, 'sesion', {
      enumerable: true,
      get: () => ((est.leida = true), sesion),
    }) as Entrada<E>;
  };

  app.route({
    method: e.method,
    url: e.path,
    schema: {
      summary: e.resumen,
      tags: [e.etiqueta],
      ...(e.body ? { body: e.body } : {}),
      ...(e.query ? { querystring: e.query } : {}),
      ...(e.params ? { params: e.params } : {}),
      ...(e.acceso === 'publico'
        ? {}
        : alcance
          ? {
              security: [{ token: [] }, { claveApi: [] }],
              description: `Clave de API: alcance '${alcance}' (${ETIQUETAS_ALCANCE[alcance]}).`,
            }
          : { security: [{ token: [] }], description: 'No acepta claves de API.' }),
    },
    // Authentication runs before body parsing and validation: a caller without a valid token
    // learns nothing about the endpoint's schema (an optimistic read's validation error is
    // replaced in onSend like any other answer).
    onRequest: async (req) => {
      if (e.acceso === 'publico') return;
      // Signature and expiry here; the session as the server has it now (ended sessions get 401,
      // and the roles checked are the account's current ones) awaited here or, for a read the
      // token's roles allow, before anything is sent.
      // The lookup starts first when the verifier can (by the token's unverified jti), so its
      // round trip overlaps the signature's verification.
      const token = tokenDeCabecera(req.headers.authorization);
      if (token?.startsWith(PREFIJO_CLAVE)) {
        (req as ConEstado).estadoSesion = await cuentaDeClave(ctx, token, alcance);
        return;
      }
      const anticipada =
        token && token.length <= 4096 ? ctx.sesiones.anticipar?.(token) : undefined;
      const firmada = await verificarToken(ctx.claves.publica, token);
      if (!firmada) throw sesionExpirada();
      const respuesta = anticipada ? anticipada(firmada) : ctx.sesiones.vigente(firmada, token!);
      if (optimista && permitido(e.acceso, firmada.role)) {
        // Awaited later; a request that ends before then must not leave it unhandled.
        respuesta.catch(() => undefined);
        (req as ConEstado).estadoSesion = { sesion: firmada, pendiente: respuesta, leida: false };
        return;
      }
      const sesion = await respuesta;
      if (!sesion) throw await finDeSesion(ctx.sesiones, firmada);
      if (!permitido(e.acceso, sesion.role)) throw prohibido();
      (req as ConEstado).estadoSesion = { sesion, leida: false };
    },
    // Before schema validation: reject NUL bytes and lone surrogates anywhere in the input,
    // so no engine ever sees a string it cannot store.
    preValidation: async (req) => {
      // A key's request whose body asks for more (an 'Alerta real') needs that scope too,
      // checked before validation as the route's own scope is.
      const alcances = (req as ConEstado).estadoSesion?.alcances;
      const extra = alcances && alcanceDelCuerpo(e, req.body);
      if (extra && !alcances.includes(extra))
        throw error(403, 'claveSinAlcance', { alcance: extra });
      for (const parte of [req.params, req.query, req.body]) {
        const campo = campoConTextoInvalido(parte);
        if (campo) throw error(400, 'caracteresInvalidos', { campo }, campo);
      }
    },
    ...(optimista
      ? {
          // Whatever leaves before the handler confirmed the session (a validation error, a
          // reply the handler sent itself, a stream) waits here for the server's answer.
          onSend: async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
            const est = (req as ConEstado).estadoSesion;
            if (!est?.pendiente) return payload;
            const token = est.sesion;
            try {
              const actual = await confirmar(est, e.acceso, ctx.sesiones);
              // Too late to run it again with the current roles: refused (no route does this).
              if (est.leida && !mismaCuenta(token, actual))
                throw new Error('respuesta propia calculada con roles que ya cambiaron');
              return payload;
            } catch (err) {
              (payload as { destroy?: () => void } | null)?.destroy?.();
              const { status, cuerpo } = respuestaDeError(err as FastifyError);
              if (status >= 500) req.log.error({ err }, 'error no controlado');
              olvidarRespuesta(reply);
              reply.code(status).header('content-type', 'application/json; charset=utf-8');
              return JSON.stringify(cuerpo);
            }
          },
        }
      : {}),
    handler: async (req, reply) => {
      const est = (req as ConEstado).estadoSesion;
      if (!est?.pendiente) {
        const res = await manejar(entrada(req, reply, est?.sesion ?? ANONIMO));
        if (yaEnviada(res, reply)) return reply;
        return reply.send(res);
      }
      reply.hijack = sinSecuestro;
      const token = est.sesion;
      let res: Awaited<ReturnType<Manejador<E>>> | undefined;
      let fallo: { err: unknown } | undefined;
      try {
        res = await manejar(entrada(req, reply, token, est));
      } catch (err) {
        fallo = { err };
      }
      // Sent by the handler itself: onSend confirms the session before the first byte.
      if (!fallo && yaEnviada(res, reply)) return reply;
      let actual: Sesion;
      try {
        actual = await confirmar(est, e.acceso, ctx.sesiones);
      } catch (err) {
        olvidarRespuesta(reply);
        throw err;
      }
      if (est.leida && !mismaCuenta(token, actual)) {
        // Computed with the token's name or roles, which changed: again with the current ones.
        olvidarRespuesta(reply);
        est.sesion = actual;
        res = await manejar(entrada(req, reply, actual));
      } else if (fallo) throw fallo.err;
      if (yaEnviada(res, reply)) return reply;
      return reply.send(res);
    },
  });
}
