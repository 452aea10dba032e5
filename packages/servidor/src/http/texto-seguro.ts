// Strings that no column should ever hold: NUL (PostgreSQL rejects it) and lone UTF-16
// surrogates (not valid Unicode, cannot be stored as UTF-8). Checked once for every request.
// eslint-disable-next-line no-control-regex
const PROHIBIDO = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Returns the path (e.g. 'preguntas.0.texto') of the first string holding a forbidden
 * character, or null when every string is storable. Objects and arrays are walked depth first
 * with an explicit stack, not recursion: however deep the value, the call stack stays flat. */
export function campoConTextoInvalido(valor: unknown, ruta = ''): string | null {
  // Pending values with their paths; pushed in reverse so the first field is checked first.
  const pila: [unknown, string][] = [[valor, ruta]];
  while (pila.length) {
    const [v, r] = pila.pop()!;
    if (typeof v === 'string') {
      if (PROHIBIDO.test(v)) return r || 'cuerpo';
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) pila.push([v[i], r ? `${r}.${i}` : String(i)]);
    } else if (v && typeof v === 'object') {
      const entradas = Object.entries(v);
      for (const [k] of entradas) if (PROHIBIDO.test(k)) return r || 'cuerpo';
      for (let i = entradas.length - 1; i >= 0; i--) {
        const [k, hijo] = entradas[i]!;
        pila.push([hijo, r ? `${r}.${k}` : k]);
      }
    }
  }
  return null;
}
