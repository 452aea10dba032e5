import { describe, expect, it } from 'vitest';
import { excedeProfundidad, PROFUNDIDAD_MAXIMA_JSON } from './json-seguro.ts';
import { campoConTextoInvalido } from './texto-seguro.ts';

const anidado = (n: number) => '['.repeat(n) + ']'.repeat(n);
const objetos = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('excedeProfundidad', () => {
  it.each([
    ['vacío', '', false],
    ['escalares', '"x" 1 true null', false],
    ['32 listas', anidado(32), false],
    ['33 listas', anidado(33), true],
    ['32 objetos', objetos(32), false],
    ['33 objetos', objetos(33), true],
    ['mezcla de 33', '{"a":' + anidado(32) + '}', true],
    ['20 000 listas', anidado(20_000), true],
    ['corchetes dentro de una cadena no cuentan', `{"a":"${'['.repeat(1000)}"}`, false],
    ['comilla escapada no cierra la cadena', `{"a":"\\"${'{'.repeat(100)}"}`, false],
    ['barra escapada sí cierra la cadena', `["\\\\"${'['.repeat(40)}`, true],
    ['cierres de más no dan profundidad negativa útil', ']]]]' + anidado(33), true],
    ['JSON roto pero profundo', '['.repeat(100), true],
  ])('%s', (_, texto, esperado) => {
    expect(excedeProfundidad(texto)).toBe(esperado);
  });

  it('el límite es 32 niveles', () => {
    expect(PROFUNDIDAD_MAXIMA_JSON).toBe(32);
  });
});

describe('campoConTextoInvalido sin recursión', () => {
  it('recorre 200 000 niveles sin agotar la pila y nombra el campo', () => {
    let v: unknown = { texto: 'a\u0000' };
    for (let i = 0; i < 200_000; i++) v = [v];
    const ruta = campoConTextoInvalido(v);
    expect(ruta?.startsWith('0.0.0.')).toBe(true);
    expect(ruta?.endsWith('.texto')).toBe(true);
  });

  it('nombra el primer campo inválido en orden, y la clave inválida por su objeto', () => {
    expect(campoConTextoInvalido({ a: 'ok', b: ['x', 'y\u0000'], c: '\u0000' })).toBe('b.1');
    expect(campoConTextoInvalido({ p: { ['k\u0000']: 1 } })).toBe('p');
    expect(campoConTextoInvalido({ ['\ud800']: 1 })).toBe('cuerpo');
    expect(campoConTextoInvalido('a\ud83d')).toBe('cuerpo');
    expect(campoConTextoInvalido({ a: 'bien 👩‍👩‍👧', n: 1, z: null })).toBeNull();
  });
});
