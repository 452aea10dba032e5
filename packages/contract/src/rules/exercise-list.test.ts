import { describe, expect, it } from 'vitest';
import {
  buscarEnFilas,
  coincideBusqueda,
  ordenarEjercicios,
  paginaEjercicios,
  paginar,
  situacionEjercicio,
  terminosBusqueda,
} from './exercise-list.ts';

const fila = (id: number, completado: string, ejercicio = `Ejercicio ${id}`) => ({
  id_ejercicio: id,
  ejercicio,
  alias: id % 2 ? 'Modem SMS' : 'Troncal LLAMADAS',
  tipo_ejercicio: id % 2 ? 'SMS' : 'LLAMADA',
  completado,
});

describe('ordenarEjercicios', () => {
  it.each([
    [
      ['1', '0', '1', '0'],
      [2, 4, 1, 3],
    ],
    [
      ['0', '0', '0'],
      [1, 2, 3],
    ],
    [
      ['1', '1', '0'],
      [3, 1, 2],
    ],
    [[], []],
  ])('completado %j → ids %j (stable, incomplete first)', (flags, ids) => {
    const rows = flags.map((c, i) => fila(i + 1, c));
    expect(ordenarEjercicios(rows).map((r) => r.id_ejercicio)).toEqual(ids);
  });

  it('returns a copy and leaves the input as it was', () => {
    const rows = [fila(1, '1'), fila(2, '0')];
    ordenarEjercicios(rows);
    expect(rows.map((r) => r.id_ejercicio)).toEqual([1, 2]);
  });
});

describe('terminosBusqueda and coincideBusqueda', () => {
  const row = {
    ejercicio: 'Simulacro Sismo CDMX',
    alias: 'Modem SMS',
    id_ejercicio: 42,
    activo: true,
    extra: null,
    obj: { x: 'oculto' },
  };

  it.each([
    ['  Sismo   cdmx ', ['sismo', 'cdmx']],
    ['', []],
    [null, []],
  ])('terms of %j are %j', (texto, terminos) => {
    expect(terminosBusqueda(texto)).toEqual(terminos);
  });

  it.each([
    ['', true],
    ['   ', true],
    ['sismo', true],
    ['SISMO cdmx', true],
    ['sismo sms', true], // terms may match different fields
    ['sismo llamada', false], // every term must match
    ['42', true], // numbers are searched
    ['true', true], // booleans are searched
    ['oculto', false], // nested objects are not
    ['null', false], // null values are not
    ['simulacro sismo', true],
    ['simulacrosismo', false],
  ])('%j matches: %s', (texto, esperado) => {
    expect(coincideBusqueda(row, texto)).toBe(esperado);
  });

  it.each([
    ['55', ['5512345678', '3355000000']],
    ['55 12', ['5512345678']],
    ['99', []],
    ['', ['5512345678', '3355000000', '8112345678']],
  ])('buscarEnFilas on the phone preview: %j → %j', (texto, telefonos) => {
    const rows = [
      { telefono: '5512345678' },
      { telefono: '3355000000' },
      { telefono: '8112345678' },
    ];
    expect(buscarEnFilas(rows, texto).map((r) => r.telefono)).toEqual(telefonos);
  });
});

describe('paginar', () => {
  const rows = Array.from({ length: 25 }, (_, i) => i + 1);
  it.each([
    [1, 10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
    [3, 10, [21, 22, 23, 24, 25]],
    [4, 10, []],
    [0, 10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
    [2, 5, [6, 7, 8, 9, 10]],
  ])('page %i of size %i → %j', (pagina, tamano, esperado) => {
    expect(paginar(rows, pagina, tamano)).toEqual(esperado);
  });
});

describe('paginaEjercicios (ARCHITECTURE correction 2: filter before paging)', () => {
  // 15 rows: ids 1..15, completado '1' for ids 1..8 and '0' for ids 9..15
  const rows = Array.from({ length: 15 }, (_, i) => fila(i + 1, i < 8 ? '1' : '0'));

  it.each([
    ['Todos, page 1', { soloActivos: false, pagina: 1 }, [9, 10, 11, 12, 13, 14, 15, 1, 2, 3], 15],
    ['Todos, page 2', { soloActivos: false, pagina: 2 }, [4, 5, 6, 7, 8], 15],
    [
      'Activos, page 1: all 7 active rows, total counts them',
      { soloActivos: true, pagina: 1 },
      [9, 10, 11, 12, 13, 14, 15],
      7,
    ],
    ['Activos, page 2 is empty', { soloActivos: true, pagina: 2 }, [], 7],
    ['search then filter', { soloActivos: true, texto: 'llamada' }, [10, 12, 14], 3],
    ['search over all', { soloActivos: false, texto: 'modem sms' }, [9, 11, 13, 15, 1, 3, 5, 7], 8],
    [
      'search in any field, completado included',
      { soloActivos: false, texto: 'ejercicio 1' },
      [10, 11, 12, 13, 14, 15, 1, 2, 3, 4],
      14,
    ],
    ['page size 3', { soloActivos: false, pagina: 2, tamano: 3 }, [12, 13, 14], 15],
    ['no match', { soloActivos: false, texto: 'nada' }, [], 0],
  ])('%s', (_, opciones, ids, total) => {
    const r = paginaEjercicios(rows, opciones);
    expect(r.filas.map((f) => f.id_ejercicio)).toEqual(ids);
    expect(r.total).toBe(total);
  });
});

describe('the search ignores case and accents (issue 26.4)', () => {
  const filas = [
    { id_ejercicio: 1, ejercicio: 'Simulacro Yucatán', completado: '0' },
    { id_ejercicio: 2, ejercicio: 'simulacro yucatan', completado: '0' },
    { id_ejercicio: 3, ejercicio: 'Sismo Oaxaca', completado: '0' },
  ];
  it.each<[string, number[]]>([
    ['yucatan', [1, 2]],
    ['YUCATÁN', [1, 2]],
    ['simulácro yucatán', [1, 2]],
    ['oaxaca', [3]],
  ])('%j → %j', (q, ids) => {
    expect(buscarEnFilas(filas, q).map((f) => f.id_ejercicio)).toEqual(ids);
  });
});

describe('situacionEjercicio: the state beside the Estatus tag (issue 26.3)', () => {
  it.each<[string, Parameters<typeof situacionEjercicio>[0], string | null]>([
    ['never started', { completado: '0', en_proceso: '0', en_pausa: '0' }, 'Sin iniciar'],
    [
      'scheduled',
      { completado: '0', en_proceso: '0', en_pausa: '0', inicio_automatico: true },
      'Programado',
    ],
    ['running', { completado: '0', en_proceso: '1', en_pausa: '0' }, 'En curso'],
    ['paused', { completado: '0', en_proceso: '1', en_pausa: '1' }, 'En pausa'],
    [
      'running, gateway unreachable',
      { completado: '0', en_proceso: '1', en_pausa: '0', en_espera: 'En espera: sin conexión' },
      'En espera',
    ],
    ['stopped', { completado: '1', en_proceso: '0', en_pausa: '0', detenido: '1' }, 'Detenido'],
    ['finished by itself', { completado: '1', en_proceso: '0', en_pausa: '0' }, null],
    ['numeric flags', { completado: 0, en_proceso: 1, en_pausa: 1 }, 'En pausa'],
  ])('%s → %s', (_, flags, esperado) => {
    expect(situacionEjercicio(flags)).toBe(esperado);
  });
});

describe("paginaEjercicios: archived rows only under 'Archivados' (issue 26.1)", () => {
  const filas = [
    { id: 1, completado: '0', archivado: '0' },
    { id: 2, completado: '1', archivado: '0' },
    { id: 3, completado: '1', archivado: '1' },
    { id: 4, completado: '0', archivado: '1' },
  ];
  it.each<[string, { soloActivos: boolean; archivados?: boolean }, number[]]>([
    ['Activos', { soloActivos: true }, [1]],
    ['Todos', { soloActivos: false }, [1, 2]],
    ['Archivados', { soloActivos: true, archivados: true }, [4, 3]],
    ['Archivados with Todos', { soloActivos: false, archivados: true }, [4, 3]],
  ])('%s', (_, opciones, ids) => {
    const r = paginaEjercicios(filas, opciones);
    expect(r.filas.map((f) => f.id)).toEqual(ids);
    expect(r.total).toBe(ids.length);
  });
});
