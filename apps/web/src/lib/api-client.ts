import type { z } from 'zod';
import { rellenarRuta, type Endpoint } from '@pregon/contract/api/endpoint';
import { msg } from '@pregon/contract/messages';
import { esSesionExpirada, mensajeDeRespuesta } from '@pregon/contract/rules/session';
import { expirarSesion, leerToken } from './sesion.ts';

type Esquema = z.ZodType | undefined;
type Entrada<T extends Esquema> = T extends z.ZodType ? z.input<T> : never;

/** What a call needs besides the endpoint: body, query string and path parameters. */
export interface Peticion<E extends Endpoint> {
  body?: E extends Endpoint<infer B> ? Entrada<B> : never;
  query?: E extends Endpoint<Esquema, infer Q> ? Entrada<Q> | Record<string, unknown> : never;
  params?: Record<string, string | number>;
  signal?: AbortSignal;
}

/** A failed call: the Spanish message to show, the HTTP status (0 without response) and the body. */
export class ErrorApi extends Error {
  /** Builds the error from the message to show. */
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
    readonly sesionExpirada = false,
  ) {
    super(message);
    this.name = 'ErrorApi';
  }
}

function consulta(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    p.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/**
 * Calls an endpoint of the contract and returns its zod-parsed response and headers. Sends the
 * stored token raw in Authorization. Session expiry (HTTP 401 or 'FALLO: SESION EXPIRADA' in any
 * SPEC 8 shape) on a non-public endpoint clears the session and goes to /signin; any other failure
 * throws ErrorApi with the server's message, or the network error when nothing answered.
 */
export async function llamarCompleto<E extends Endpoint>(
  ep: E,
  peticion: Peticion<E> = {},
): Promise<{ datos: z.output<E['respuesta']>; headers: Headers }> {
  const url =
    rellenarRuta(ep.path, peticion.params) +
    consulta(peticion.query as Record<string, unknown> | undefined);
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = leerToken();
  if (token) headers.authorization = token;
  let cuerpo: string | undefined;
  if (peticion.body !== undefined) {
    headers['content-type'] = 'application/json';
    cuerpo = JSON.stringify(peticion.body);
  }
  let res: Response;
  try {
    res = await fetch(url, { method: ep.method, headers, body: cuerpo, signal: peticion.signal });
  } catch (e) {
    if (peticion.signal?.aborted) throw e;
    throw new ErrorApi(msg('errorRed'), 0, null);
  }
  const texto = await res.text();
  let body: unknown = null;
  try {
    body = texto ? JSON.parse(texto) : null;
  } catch {
    body = texto;
  }
  if (ep.acceso !== 'publico' && esSesionExpirada(body, res.status)) {
    expirarSesion();
    throw new ErrorApi(msg('sesionExpirada'), res.status, body, true);
  }
  if (!res.ok) throw new ErrorApi(mensajeDeRespuesta(body), res.status, body);
  const parsed = ep.respuesta.safeParse(body);
  if (!parsed.success) throw new ErrorApi(mensajeDeRespuesta(body), res.status, body);
  return { datos: parsed.data as z.output<E['respuesta']>, headers: res.headers };
}

/** Calls an endpoint and returns only its parsed response body. */
export async function llamar<E extends Endpoint>(
  ep: E,
  peticion: Peticion<E> = {},
): Promise<z.output<E['respuesta']>> {
  return (await llamarCompleto(ep, peticion)).datos;
}

/** The message to show for any error thrown by a call. */
export function mensajeError(e: unknown): string {
  if (e instanceof ErrorApi) return e.message;
  return msg('errorInterno');
}
