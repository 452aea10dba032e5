/**
 * Reading server answers (SPEC 7 and 8): success, session expiry in every legacy shape, and the
 * message to show for a failure.
 */
import { MENSAJES } from '../messages.ts';

const objeto = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;

const primero = (v: unknown): Record<string, unknown> | undefined =>
  Array.isArray(v) ? objeto(v[0]) : undefined;

/** The message fields of a body: top-level message and mensaje, then SPEC 8's legacy places. */
function mensajesDe(body: unknown): unknown[] {
  const raiz = objeto(body);
  const data = raiz?.data;
  return [
    raiz?.message,
    raiz?.mensaje,
    Array.isArray(data) ? undefined : objeto(data)?.message,
    primero(data)?.message,
    primero(objeto(data)?.categorias)?.message,
  ];
}

/**
 * Whether a response body says 'FALLO: SESION EXPIRADA' in data[0].message,
 * data.categorias[0].message, data.message, message or mensaje (then: show it, clear storage and
 * go to /signin). An HTTP 401 means the same whatever the body says.
 */
export function esSesionExpirada(body: unknown, statusHttp?: number): boolean {
  if (statusHttp === 401) return true;
  return mensajesDe(body).some(
    (m) => typeof m === 'string' && m.trim() === MENSAJES.sesionExpirada,
  );
}

/** Whether a result counts as successful: its status is 200, as a number or the string '200'. */
export function esExito(body: unknown): boolean {
  const status = objeto(body)?.status;
  return status === 200 || status === '200';
}

/** The server's message to show for a failed response, or `alterno` when the body has none. */
export function mensajeDeRespuesta(body: unknown, alterno: string = MENSAJES.errorInterno): string {
  const m = mensajesDe(body).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return m ?? alterno;
}
