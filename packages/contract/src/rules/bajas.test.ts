import { describe, expect, it } from 'vitest';
import { avisoBajasInicio, canalDeBaja } from './bajas.ts';

describe('canalDeBaja', () => {
  it.each([
    ['smpp', 'sms'],
    ['android', 'sms'],
    ['sms', 'sms'],
    ['whatsapp', 'whatsapp'],
    ['asterisk', null],
    ['calls', null],
  ])('%s → %s', (canal, lista) => expect(canalDeBaja(canal)).toBe(lista));
});

describe('avisoBajasInicio', () => {
  it.each([
    [0, null],
    [1, '1 teléfono dado de baja no recibirá este simulacro'],
    [2, '2 teléfonos dados de baja no recibirán este simulacro'],
    [1500, '1500 teléfonos dados de baja no recibirán este simulacro'],
  ])('%i → %s', (n, texto) => expect(avisoBajasInicio(n)).toBe(texto));
});
