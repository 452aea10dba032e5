import { describe, expect, it } from 'vitest';
import {
  compararIntentos,
  esCadena,
  etiquetaEslabon,
  etiquetaRespaldo,
  mejorIntento,
  rangoResultado,
} from './cadena.ts';

describe('best outcome over a chain (issue 25.3)', () => {
  const i = (id_ejercicio: number, resultado: string, momento: string | null) =>
    ({ id_ejercicio, resultado, momento }) as Parameters<typeof compararIntentos>[0];

  it('ranks by light: reached, then amber, red, cancelled', () => {
    expect(rangoResultado('entregado')).toBe(rangoResultado('escucho'));
    expect(rangoResultado('colgo')).toBeGreaterThan(rangoResultado('ocupado'));
    expect(rangoResultado('ocupado')).toBeGreaterThan(rangoResultado('cancelado'));
  });

  it('reached: the first attempt that reached; not reached: the latest of the best rank', () => {
    expect(
      mejorIntento([
        i(1, 'ocupado', '2026-01-01 10:00:00'),
        i(3, 'entregado', '2026-01-01 10:09:00'),
        i(2, 'enviado', '2026-01-01 10:05:00'),
      ]),
    ).toEqual(i(2, 'enviado', '2026-01-01 10:05:00'));
    expect(
      mejorIntento([
        i(1, 'ocupado', '2026-01-01 10:00:00'),
        i(2, 'cancelado', null),
        i(3, 'no_contesto', '2026-01-01 10:09:00'),
      ]),
    ).toEqual(i(3, 'no_contesto', '2026-01-01 10:09:00'));
    expect(
      mejorIntento([i(1, 'colgo', '2026-01-01 10:00:00'), i(2, 'fallido', '2026-01-01 10:05:00')]),
    ).toEqual(i(1, 'colgo', '2026-01-01 10:00:00'));
    expect(mejorIntento([])).toBeUndefined();
  });

  it('a chain is more than one link', () => {
    expect(esCadena([1])).toBe(false);
    expect(esCadena([1, 2])).toBe(true);
  });
});

describe("a drill's fallback in the chain (issue 25.2)", () => {
  it('its label comes from its type; a follow-up keeps its type', () => {
    expect(etiquetaRespaldo(1)).toBe('SMS de respaldo');
    expect(etiquetaRespaldo(3)).toBe('WhatsApp de respaldo');
    expect(etiquetaEslabon({ id_tipo_ejercicio: 1, respaldo_de: 7 })).toBe('SMS de respaldo');
    expect(etiquetaEslabon({ id_tipo_ejercicio: 1, respaldo_de: null })).toBe('SMS');
  });
});
