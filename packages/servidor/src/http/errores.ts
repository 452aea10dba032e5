// The errors services throw. Free of Fastify: the standalone dispatcher's process loads the
// services its scheduler calls, and with them this module (issue 44); how an error becomes an
// answer is http/respuesta-error.ts.

import { etiquetaCampo } from '@pregon/contract/etiquetas-campo';
import { MENSAJES, msg, type ClaveMensaje } from '@pregon/contract/messages';

/** How a catalogue message names the field it is about. */
const NOMBRA_CAMPO_PLANTILLA = 'El campo {campo}';

/** An error with an HTTP status and a Spanish message for the caller; thrown by services. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly campo?: string,
  ) {
    super(message);
  }
}

/** Builds an HttpError from a catalogue key. */
export const error = (
  status: number,
  clave: ClaveMensaje,
  params?: Record<string, string | number>,
  campo?: string,
) =>
  new HttpError(
    status,
    // Every 'El campo {campo} …' message names the field by its form's label (issue 26.7).
    msg(
      clave,
      params && typeof params.campo === 'string' && MENSAJES[clave].includes(NOMBRA_CAMPO_PLANTILLA)
        ? { ...params, campo: etiquetaCampo(params.campo) }
        : params,
    ),
    campo,
  );

/** 401 with the SPEC's 'FALLO: SESION EXPIRADA'. */
export const sesionExpirada = () => error(401, 'sesionExpirada');
/** 403 for a role that may not do this. */
export const prohibido = () => error(403, 'sinPermiso');
/** 404 naming what was not found. */
export const noEncontrado = (entidad: string) => error(404, 'noEncontrado', { entidad });
