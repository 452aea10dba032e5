import { describe, expect, it } from 'vitest';
import { canonizarTelefono, normalizarTelefono, paisTelefonico } from './phone.ts';

describe('normalizarTelefono: Mexican numbers become the same 10 digits', () => {
  it.each([
    '5512345678',
    '55 1234 5678',
    '(55) 1234-5678',
    '55.1234.5678',
    '+52 55 1234 5678',
    '+525512345678',
    '52 55 1234 5678',
    '525512345678',
    '044 55 1234 5678',
    '045 55 1234 5678',
    '01 55 1234 5678',
    '+521 55 1234 5678',
    '+52 1 55 1234 5678',
    '521 55 1234 5678',
    '0052 55 1234 5678',
    '  5512345678  ',
  ])('%j', (texto) => {
    expect(normalizarTelefono(texto)).toEqual({
      ok: true,
      e164: '+525512345678',
      nacional: '5512345678',
      pais: 'MX',
    });
  });
});

describe('normalizarTelefono: other countries keep E.164', () => {
  it.each([
    ['+1 415 555 2671', '+14155552671', '4155552671', 'US'],
    ['+34 612 345 678', '+34612345678', '612345678', 'ES'],
    ['0034 612 345 678', '+34612345678', '612345678', 'ES'],
    ['+44 20 7946 0958', '+442079460958', '2079460958', 'GB'],
  ])('%j → %s', (texto, e164, nacional, pais) => {
    expect(normalizarTelefono(texto)).toEqual({ ok: true, e164, nacional, pais });
  });

  it('reads numbers without + in the given default country', () => {
    expect(normalizarTelefono('612 345 678', 'ES')).toEqual({
      ok: true,
      e164: '+34612345678',
      nacional: '612345678',
      pais: 'ES',
    });
  });
});

describe('normalizarTelefono: refused numbers', () => {
  it.each([
    ['', 'El teléfono está vacío'],
    ['   ', 'El teléfono está vacío'],
    [null, 'El teléfono está vacío'],
    [
      '55-ABCD-5678',
      'El teléfono solo admite dígitos, espacios, guiones, puntos, paréntesis y un + inicial',
    ],
    [
      '55 1234 5678 ext 2',
      'El teléfono solo admite dígitos, espacios, guiones, puntos, paréntesis y un + inicial',
    ],
    [
      '55+12345678',
      'El teléfono solo admite dígitos, espacios, guiones, puntos, paréntesis y un + inicial',
    ],
    ['()', 'El teléfono está vacío'],
    ['123', 'Un número de México debe tener 10 dígitos (tiene 3)'],
    ['551234567', 'Un número de México debe tener 10 dígitos (tiene 9)'],
    ['55123456789', 'Un número de México debe tener 10 dígitos (tiene 11)'],
    ['+52 55 1234 567', 'Un número de México debe tener 10 dígitos (tiene 9)'],
    ['0000000000', 'Número de teléfono inválido: 0000000000'],
    ['+34 6', 'El teléfono es demasiado corto'],
    ['+34 612 345 678 999 999', 'El teléfono es demasiado largo'],
    ['+999 123456', 'El código de país del teléfono no existe'],
  ])('%j: %s', (texto, motivo) => {
    expect(normalizarTelefono(texto)).toEqual({ ok: false, motivo });
  });
});

describe('canonizarTelefono', () => {
  it.each([
    ['(55) 1234-5678', '5512345678'],
    ['+52 1 33 1234 5678', '3312345678'],
    ['+1 415 555 2671', '+14155552671'],
    ['hola', null],
    ['', null],
  ])('%j → %j', (texto, esperado) => {
    const r = canonizarTelefono(texto);
    expect(r.ok ? r.telefono : null).toBe(esperado);
  });
  it('un número inválido trae el motivo en español que la importación reporta', () => {
    const r = canonizarTelefono('hola');
    expect(r.ok).toBe(false);
    expect(r).toEqual(normalizarTelefono('hola'));
  });
});

describe('los números se leen por las reglas del país del estado (issue 26.6)', () => {
  it.each<[string, string | null, string]>([
    ['5555 1234', 'GT', '+50255551234'],
    ['5555-1234', 'gt', '+50255551234'],
    ['+502 5555 1234', 'GT', '+50255551234'],
    ['(415) 555-2671', 'US', '+14155552671'],
    ['612 34 56 78', 'ES', '+34612345678'],
    ['+52 55 1234 5678', 'GT', '5512345678'],
    ['55 1234 5678', 'MX', '5512345678'],
    ['+1 415 555 2671', null, '+14155552671'],
  ])('%j en un estado de %s → %j', (texto, iso, guardado) => {
    expect(canonizarTelefono(texto, paisTelefonico(iso))).toEqual({ ok: true, telefono: guardado });
  });

  it.each<[string, string | null, string]>([
    [
      '55 1234 5678',
      'GT',
      'El número 55 1234 5678 no es válido en el país del estado (GT; tiene 10 dígitos): revise el número o escríbalo con + y el código de su país',
    ],
    [
      '5555 1234',
      'XX',
      'El país del estado no tiene reglas de numeración conocidas: escriba el número con + y el código del país',
    ],
    ['5555 1234', 'MX', 'Un número de México debe tener 10 dígitos (tiene 8)'],
  ])('%j en un estado de %s se rechaza: %j', (texto, iso, motivo) => {
    expect(canonizarTelefono(texto, paisTelefonico(iso))).toEqual({ ok: false, motivo });
  });

  it('paisTelefonico: códigos con reglas, sin reglas y vacíos', () => {
    expect(paisTelefonico('gt')).toBe('GT');
    expect(paisTelefonico('MX')).toBe('MX');
    expect(paisTelefonico('XX')).toBeNull();
    expect(paisTelefonico(undefined)).toBeNull();
  });
});
