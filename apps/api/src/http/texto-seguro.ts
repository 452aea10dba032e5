// Strings that no column should ever hold: NUL (PostgreSQL rejects it) and lone UTF-16
// surrogates (not valid Unicode, cannot be stored as UTF-8). Checked once for every request.
// eslint-disable-next-line no-control-regex
const PROHIBIDO = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Returns the path (e.g. 'preguntas.0.texto') of the first string holding a forbidden
 * character, or null when every string is storable. Objects and arrays are walked. */
export function campoConTextoInvalido(valor: unknown, ruta = ''): string | null {
  if (typeof valor === 'string') return PROHIBIDO.test(valor) ? ruta || 'cuerpo' : null;
  if (Array.isArray(valor)) {
    for (let i = 0; i < valor.length; i++) {
      const r = campoConTextoInvalido(valor[i], ruta ? `${ruta}.${i}` : String(i));
      if (r) return r;
    }
    return null;
  }
  if (valor && typeof valor === 'object') {
    for (const [k, v] of Object.entries(valor)) {
      if (PROHIBIDO.test(k)) return ruta || 'cuerpo';
      const r = campoConTextoInvalido(v, ruta ? `${ruta}.${k}` : k);
      if (r) return r;
    }
  }
  return null;
}
