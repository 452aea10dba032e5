import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { etiquetaCampo } from '@pregon/contract/etiquetas-campo';
import { msg } from '@pregon/contract/messages';
import { HttpError } from './errores.ts';

// How any error becomes the caller's answer (the api's and the telephony agent's error handler).

/** How the catalogue's field messages begin (campoObligatorio, campoEntero, idInvalido…). */
const NOMBRA_CAMPO = 'El campo ';
const CONTEXTO: Record<string, string> = {
  body: 'cuerpo',
  querystring: 'consulta',
  params: 'ruta',
  headers: 'cabecera',
};

/** An error as the caller sees it: its status and the body {status, message, mensaje, campo}, in
 * Spanish; never a stack trace. */
export function respuestaDeError(err: FastifyError): {
  status: number;
  cuerpo: { status: number; message: string; mensaje: string; campo?: string };
} {
  let status = 500;
  let message = msg('errorInterno');
  let campo: string | undefined;
  if (err instanceof HttpError) {
    status = err.statusCode;
    message = err.message;
    campo = err.campo;
  } else if (hasZodFastifySchemaValidationErrors(err)) {
    status = 400;
    const v = err.validation[0]!;
    const ruta = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
    campo = ruta || CONTEXTO[err.validationContext ?? 'body'] || 'cuerpo';
    const faltante = v.keyword === 'invalid_type' && /indefinido|undefined/.test(v.message ?? '');
    // The contract's own messages already name the field ('El campo … ', or an issue marked
    // nombraCampo: 'La contraseña es demasiado común…'): kept as they are.
    const etiqueta = etiquetaCampo(campo);
    const nombra = (v.params as { params?: { nombraCampo?: unknown } } | undefined)?.params
      ?.nombraCampo;
    message = faltante
      ? msg('campoObligatorio', { campo: etiqueta })
      : v.message && (v.message.startsWith(NOMBRA_CAMPO) || nombra === true)
        ? v.message
        : msg('campoInvalido', { campo: etiqueta, detalle: v.message ?? '' });
  } else if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) {
    status = 400;
    message = msg('jsonInvalido');
  } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    status = 413;
    message = msg('cuerpoDemasiadoGrande');
  } else if (
    err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ||
    err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
  ) {
    status = 400;
    message = msg('jsonInvalido');
  } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    status = err.statusCode;
    message = status === 429 ? msg('demasiadasPeticiones') : msg('peticionInvalida');
  }
  return { status, cuerpo: { status, message, mensaje: message, ...(campo ? { campo } : {}) } };
}

/** Maps any error to {status, message, mensaje, campo} in Spanish; never leaks a stack trace. */
export function manejarError(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const { status, cuerpo } = respuestaDeError(err);
  if (status >= 500) req.log.error({ err }, 'error no controlado');
  else req.log.info({ status, message: cuerpo.message }, 'petición rechazada');
  return reply.status(status).send(cuerpo);
}
