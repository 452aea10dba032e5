import type { FastifyInstance } from 'fastify';
import { error } from './errores.ts';

/** Deepest nesting of objects and arrays a JSON body may have. No request of the contract needs
 * more than a few levels; anything deeper is refused before any code walks it recursively. */
export const PROFUNDIDAD_MAXIMA_JSON = 32;

const ABRE_OBJETO = 0x7b; // {
const ABRE_LISTA = 0x5b; // [
const CIERRA_OBJETO = 0x7d; // }
const CIERRA_LISTA = 0x5d; // ]
const COMILLAS = 0x22; // "
const BARRA = 0x5c; // \

/** True when JSON text nests objects/arrays deeper than `max`. One pass over the characters,
 * no recursion and no parse: brackets inside strings (escapes included) do not count and stray
 * closing brackets never lower the count below zero, so it is safe on any text, valid JSON or not. */
export function excedeProfundidad(texto: string, max = PROFUNDIDAD_MAXIMA_JSON): boolean {
  let nivel = 0;
  let enCadena = false;
  for (let i = 0; i < texto.length; i++) {
    const c = texto.charCodeAt(i);
    if (enCadena) {
      if (c === BARRA) i++;
      else if (c === COMILLAS) enCadena = false;
    } else if (c === COMILLAS) enCadena = true;
    else if (c === ABRE_OBJETO || c === ABRE_LISTA) {
      if (++nivel > max) return true;
    } else if ((c === CIERRA_OBJETO || c === CIERRA_LISTA) && nivel > 0) nivel--;
  }
  return false;
}

/** Replaces the server's application/json parser with one that first refuses bodies nested
 * deeper than PROFUNDIDAD_MAXIMA_JSON (400 naming the body), then parses as Fastify's own does
 * (prototype poisoning refused). Registered on the api and on the telephony agent before any
 * route, so every scope inherits it. */
export function registrarJsonSeguro(app: FastifyInstance): void {
  const analizar = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, cuerpo, hecho) => {
    const texto = typeof cuerpo === 'string' ? cuerpo : cuerpo.toString('utf8');
    if (excedeProfundidad(texto)) {
      hecho(
        error(400, 'jsonDemasiadoProfundo', { max: PROFUNDIDAD_MAXIMA_JSON }, 'cuerpo'),
        undefined,
      );
      return;
    }
    analizar(req, texto, hecho);
  });
}
