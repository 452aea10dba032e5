import { describe, expect, it } from 'vitest';
import { MENSAJES } from './messages.ts';

// Issue 26.7: the catalogue speaks to the operator as 'usted'. The SPEC fixes three texts in the
// 'tú' form ('Selecciona una opción', 'selecciona dígito', 'Debes adjuntar…'); they stay as the
// SPEC words them.
const DEL_SPEC = new Set(['seleccionaOpcion', 'seleccionaDigito', 'debesAdjuntarAudioGsm']);
/** A 'tú' imperative opening a sentence or clause, or a 'tú' form anywhere. */
const TU =
  /(^|[.:;]\s+)(escribe|elige|revisa|intenta|pulsa|debes|puedes|selecciona|vuelve|sube|agrega|cambia|verifica|asegúrate)\b|\b(tienes|quieres|tu|tus)\b/i;

describe('mensajes en forma de usted', () => {
  it('ningún texto del catálogo (fuera de los del SPEC) tutea', () => {
    const tuteo = Object.entries(MENSAJES)
      .filter(([clave, texto]) => !DEL_SPEC.has(clave) && TU.test(texto))
      .map(([clave, texto]) => `${clave}: ${texto}`);
    expect(tuteo).toEqual([]);
  });
});
