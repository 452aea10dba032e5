import { describe, expect, it } from 'vitest';
import { claveNombre, coincidenTerminos, plegar, terminosPlegados } from './busqueda.ts';

describe('plegar', () => {
  it.each([
    ['Martínez', 'martinez'],
    ['MARTÍNEZ', 'martinez'],
    ['martinez', 'martinez'],
    ['Yucatán', 'yucatan'],
    ['Ángel', 'angel'],
    ['Óscar', 'oscar'],
    ['Ñúñez', 'nunez'],
    ['Muñoz', 'munoz'],
    ['Güemes', 'guemes'],
    ['PEÑA Nieto', 'pena nieto'],
    ['Ça va, São Paulo', 'ca va, sao paulo'],
    ['+52 55 1234-5678', '+52 55 1234-5678'],
    ['', ''],
    ['Persona 99', 'persona 99'],
  ])('%j → %j', (texto, plegado) => {
    expect(plegar(texto)).toBe(plegado);
  });

  it('gives the same result for composed and decomposed accents', () => {
    expect(plegar('Jose\u0301')).toBe(plegar('José'));
  });
});

describe('claveNombre', () => {
  it.each([
    ['Bomberos', 'bomberos'],
    ['bomberos ', 'bomberos'],
    ['  BOMBEROS', 'bomberos'],
    ['Protección  Civil', 'proteccion civil'],
    ['Petén', 'peten'],
  ])('%j → %j', (nombre, clave) => {
    expect(claveNombre(nombre)).toBe(clave);
  });
});

describe('terminosPlegados and coincidenTerminos', () => {
  it('splits and folds the words', () => {
    expect(terminosPlegados('  Pérez  MARTÍNEZ ')).toEqual(['perez', 'martinez']);
    expect(terminosPlegados(undefined)).toEqual([]);
  });

  it.each<[string, boolean]>([
    ['martinez', true],
    ['MARTÍNEZ yucatan', true],
    ['perez', false],
    ['', true],
    ['9999', true],
  ])('%j on Martínez / Yucatán / 9999 → %j', (q, sale) => {
    expect(coincidenTerminos(['Martínez', 'Yucatán', 9999, null], q)).toBe(sale);
  });
});
