import { describe, expect, it } from 'vitest';
import { conCambios, filtrarPorTexto } from './use-vista-url.ts';

describe('conCambios', () => {
  it.each<[string, Record<string, string | number | undefined>, string]>([
    ['', { q: 'ana' }, 'q=ana'],
    ['q=ana&page=3', { q: 'luis' }, 'q=luis'],
    ['q=ana', { page: 2 }, 'q=ana&page=2'],
    ['q=ana&page=2', { page: 1 }, 'q=ana'],
    ['q=ana&tab=categorias', { q: '' }, 'tab=categorias'],
    ['tab=categorias&q=x&page=4', { tab: undefined, q: undefined }, ''],
    ['estado=3&page=2', { categoria: 5 }, 'estado=3&categoria=5'],
  ])('%j + %j → %j', (antes, cambios, despues) => {
    expect(conCambios(new URLSearchParams(antes), cambios).toString()).toBe(despues);
  });
});

describe('filtrarPorTexto', () => {
  const filas = [
    { u: 'ana', c: 'ana@example.mx' },
    { u: 'Luis', c: null },
    { u: 'Martínez', c: 'ÁNGEL@example.mx' },
  ];
  it.each<[string, string[]]>([
    ['', ['ana', 'Luis', 'Martínez']],
    ['  LUI ', ['Luis']],
    ['example', ['ana', 'Martínez']],
    ['nadie', []],
    ['martinez', ['Martínez']],
    ['MARTÍNEZ', ['Martínez']],
    ['angel martinez', ['Martínez']],
  ])('%j', (q, usuarios) => {
    expect(filtrarPorTexto(filas, q, (f) => [f.u, f.c]).map((f) => f.u)).toEqual(usuarios);
  });
});
