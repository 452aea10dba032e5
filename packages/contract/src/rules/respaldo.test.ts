import { describe, expect, it } from 'vitest';
import { admiteRespaldo, llevaRespaldo } from './respaldo.ts';

describe('llevaRespaldo', () => {
  it('the final outcomes that did not reach the person get the fallback', () => {
    for (const e of ['ocupado', 'no_contesto', 'fallido', 'invalido'])
      expect(llevaRespaldo(e), e).toBe(true);
    expect(llevaRespaldo('contestado', 'colgo')).toBe(true);
    expect(llevaRespaldo('respondido', 'respondio_parcial')).toBe(true);
    expect(llevaRespaldo('respondido', 'sin_respuesta')).toBe(true);
  });
  it('reached, retried, in flight, stopped or uncertain: no fallback', () => {
    expect(llevaRespaldo('contestado', 'escucho')).toBe(false);
    expect(llevaRespaldo('respondido', 'respondio_todo')).toBe(false);
    expect(llevaRespaldo('contestado')).toBe(false);
    for (const e of ['pendiente', 'en_curso', 'incierto', 'cancelado', 'enviado', 'entregado'])
      expect(llevaRespaldo(e), e).toBe(false);
  });
  it('only calls and quizzes', () => {
    expect([1, 2, 3, 4].map(admiteRespaldo)).toEqual([false, true, false, true]);
  });
});
