import type { z } from 'zod';
import { rellenarRuta, type Endpoint } from '@pregon/contract/api/endpoint';
import { msg } from '@pregon/contract/messages';
import { esSesionExpirada, mensajeDeRespuesta } from '@pregon/contract/rules/session';
import { expirarSesion, leerToken, mensajeDeExpiracion, refrescarRoles } from './sesion.ts';

type Esquema = z.ZodType | undefined;
type Entrada<T extends Esquema> = T extends z.ZodType ? z.input<T> : never;

/** What a call needs besides the endpoint: body, query string and path parameters. */
export interface Peticion<E extends Endpoint> {
  body?: E extends Endpoint<infer B> ? Entrada<B> : never;
  query?: E extends Endpoint<Esquema, infer Q> ? Entrada<Q> | Record<string, unknown> : never;
  params?: Record<string, string | number>;
  signal?: AbortSignal;
  /** Another server's base URL (the telephony agent); the main api's origin when absent. */
  base?: string;
  /** A multipart body (audio uploads), sent instead of `body`. */
  formulario?: FormData;
  /** The answer of this same request, already sent (pedirAntes: a route starts its screen's
   * request before the screen's module and the endpoint's schemas have loaded); read instead of
   * sending it again, with the same checks. */
  respuesta?: Promise<Response>;
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

/** A request's headers: JSON accepted, the stored token raw in Authorization. */
function cabeceras(json = false): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = leerToken();
  if (token) headers.authorization = token;
  if (json) headers['content-type'] = 'application/json';
  return headers;
}

/** Sends a GET now, for a screen whose module has not loaded yet: its call later passes the
 * answer as `Peticion.respuesta` (read once). A network failure is that call's to report. */
export function pedirAntes(url: string): Promise<Response> {
  const respuesta = fetch(url, { headers: cabeceras() });
  respuesta.catch(() => undefined);
  return respuesta;
}

/**
 * Sends one request with the stored token raw in Authorization and returns the response when it
 * is OK. Session expiry (HTTP 401 or 'FALLO: SESION EXPIRADA' in any SPEC 8 shape) on a
 * non-public call clears the session and goes to /signin; any other failure throws ErrorApi with
 * the server's message, or the network error when nothing answered.
 */
async function enviar(
  url: string,
  init: {
    method: string;
    body?: string | FormData;
    json?: boolean;
    binario?: boolean;
    signal?: AbortSignal;
    respuesta?: Promise<Response>;
  },
  publico: boolean,
): Promise<{ res: Response; body: unknown }> {
  let res: Response;
  try {
    res = await (init.respuesta ??
      fetch(url, {
        method: init.method,
        headers: cabeceras(init.json),
        body: init.body,
        signal: init.signal,
      }));
  } catch (e) {
    if (init.signal?.aborted) throw e;
    throw new ErrorApi(msg('errorRed'), 0, null);
  }
  if (res.ok && init.binario) return { res, body: undefined };
  const texto = await res.text();
  let body: unknown = null;
  try {
    body = texto ? JSON.parse(texto) : null;
  } catch {
    body = texto;
  }
  if (!publico && esSesionExpirada(body, res.status)) {
    const mensaje = mensajeDeExpiracion(mensajeDeRespuesta(body));
    expirarSesion(mensaje);
    throw new ErrorApi(mensaje, res.status, body, true);
  }
  // A refusal may mean the account's roles changed: the screens follow the current ones.
  if (res.status === 403 && !publico) void refrescarRoles();
  if (!res.ok) throw new ErrorApi(mensajeDeRespuesta(body), res.status, body);
  return { res, body };
}

/**
 * Calls an endpoint of the contract and returns its zod-parsed response and headers (errors as
 * `enviar`: session expiry, the server's Spanish message, network error).
 */
export async function llamarCompleto<E extends Endpoint>(
  ep: E,
  peticion: Peticion<E> = {},
): Promise<{ datos: z.output<E['respuesta']>; headers: Headers }> {
  const url =
    (peticion.base ?? '') +
    rellenarRuta(ep.path, peticion.params) +
    consulta(peticion.query as Record<string, unknown> | undefined);
  const json = peticion.body !== undefined && !peticion.formulario;
  const { res, body } = await enviar(
    url,
    {
      method: ep.method,
      body: json ? JSON.stringify(peticion.body) : peticion.formulario,
      json,
      signal: peticion.signal,
      respuesta: peticion.respuesta,
    },
    ep.acceso === 'publico',
  );
  const parsed = ep.respuesta.safeParse(body);
  if (!parsed.success) throw new ErrorApi(mensajeDeRespuesta(body), res.status, body);
  return { datos: parsed.data as z.output<E['respuesta']>, headers: res.headers };
}

/** Whether a resource exists (HEAD: 2xx true, 404 false); other failures throw as `llamarCompleto`. */
export async function existe(url: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await enviar(url, { method: 'HEAD', binario: true, signal }, false);
    return true;
  } catch (e) {
    if (e instanceof ErrorApi && e.status === 404) return false;
    throw e;
  }
}

/** GETs a binary resource (an audio) with the session's token; errors as `llamarCompleto`. */
export async function leerBinario(url: string, signal?: AbortSignal): Promise<ArrayBuffer> {
  const { res } = await enviar(url, { method: 'GET', binario: true, signal }, false);
  return res.arrayBuffer();
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
