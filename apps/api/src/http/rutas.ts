import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { permitido, type Endpoint } from '@pregon/contract/api/endpoint';
import type { Sesion } from '../auth/tokens.ts';
import { autenticar, type Autenticador } from '../auth/autenticar.ts';
import { error, prohibido, sesionExpirada } from './errores.ts';
import { campoConTextoInvalido } from './texto-seguro.ts';

type Infer<T> = [NonNullable<T>] extends [never]
  ? undefined
  : NonNullable<T> extends z.ZodType
    ? z.output<NonNullable<T>>
    : undefined;

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
export type ConClavePublica = Autenticador;

/** Registers one endpoint of the contract: authenticate → check role → validate → act → present. */
export function ruta<E extends Endpoint>(
  app: FastifyInstance,
  ctx: ConClavePublica,
  e: E,
  manejar: Manejador<E>,
) {
  app.route({
    method: e.method,
    url: e.path,
    schema: {
      summary: e.resumen,
      tags: [e.etiqueta],
      ...(e.body ? { body: e.body } : {}),
      ...(e.query ? { querystring: e.query } : {}),
      ...(e.params ? { params: e.params } : {}),
      ...(e.acceso === 'publico' ? {} : { security: [{ token: [] }] }),
    },
    // Authentication runs before body parsing and validation: a caller without a valid token
    // learns nothing about the endpoint's schema.
    onRequest: async (req) => {
      if (e.acceso === 'publico') return;
      // Signature and expiry, then the session as the server has it now: ended sessions get 401,
      // and the roles checked are the account's current ones.
      const sesion = await autenticar(ctx, req.headers.authorization);
      if (!sesion) throw sesionExpirada();
      if (!permitido(e.acceso, sesion.role)) throw prohibido();
      (req as FastifyRequest & { sesion?: Sesion }).sesion = sesion;
    },
    // Before schema validation: reject NUL bytes and lone surrogates anywhere in the input,
    // so no engine ever sees a string it cannot store.
    preValidation: async (req) => {
      for (const parte of [req.params, req.query, req.body]) {
        const campo = campoConTextoInvalido(parte);
        if (campo) throw error(400, 'caracteresInvalidos', { campo }, campo);
      }
    },
    handler: async (req, reply) => {
      const sesion = (req as FastifyRequest & { sesion?: Sesion }).sesion ?? ANONIMO;
      const res = await manejar({
        body: req.body as Infer<E['body']>,
        query: req.query as Infer<E['query']>,
        params: req.params as Infer<E['params']>,
        sesion,
        req,
        reply,
      });
      // A handler that sends (a download) or hijacks (a live stream) the reply itself returns it;
      // a reply is a thenable, so `await` waits for the answer to end and yields undefined, not
      // the reply. Sending again would log 'Reply was already sent'.
      if (res === reply || reply.sent || reply.raw.headersSent) return reply;
      return reply.send(res);
    },
  });
}
