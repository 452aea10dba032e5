import { describe, expect, it } from 'vitest';
import { ESTATUS_DESTINATARIO, type LuzSemaforo } from '../constants.ts';
import {
  alcanceLlamada,
  alcanzado,
  ALCANCES,
  conteoSemaforo,
  estatusContestada,
  LUZ_RESULTADO,
  luzSemaforo,
  RESULTADOS,
  resultadoDe,
  textoResultado,
  type ConteoAlcance,
  type Resultado,
} from './alcance.ts';
import { duracionCorta } from './reintentos.ts';

describe('the outcome table: light, reached and text of every outcome', () => {
  it.each<[Resultado, LuzSemaforo | 'cancelado', boolean, string]>([
    ['pendiente', 'amarillo', false, 'Pendiente'],
    ['en_curso', 'amarillo', false, 'En curso'],
    ['enviado', 'verde', true, 'Enviado'],
    ['entregado', 'verde', true, 'Entregado'],
    ['contestado', 'verde', true, 'Contestado'],
    ['respondido', 'verde', true, 'Respondido'],
    ['ocupado', 'rojo', false, 'Ocupado'],
    ['no_contesto', 'rojo', false, 'No contestó'],
    ['fallido', 'rojo', false, 'Fallido'],
    ['invalido', 'rojo', false, 'Número inválido'],
    ['cancelado', 'cancelado', false, 'Cancelado'],
    ['incierto', 'amarillo', false, 'Incierto'],
    ['escucho', 'verde', true, 'Escuchó el mensaje completo'],
    ['colgo', 'amarillo', false, 'Colgó a los 7 s'],
    ['respondio_todo', 'verde', true, 'Respondió todo'],
    ['respondio_parcial', 'amarillo', false, 'Respondió 2 de 3'],
    ['sin_respuesta', 'amarillo', false, 'Colgó sin responder'],
    ['leido', 'verde', true, 'Leído'],
  ])('%s → %s, reached %s, «%s»', (r, luz, si, texto) => {
    expect(LUZ_RESULTADO[r]).toBe(luz);
    expect(alcanzado(r)).toBe(si);
    expect(textoResultado(r, { duracion: 7, respondidas: 2, preguntas: 3 })).toBe(texto);
  });

  it.each([
    [0, 'Colgó al contestar'],
    [1, 'Colgó al primer segundo'],
    [2, 'Colgó a los 2 s'],
  ])('a hang-up after %i s reads «%s»', (duracion, texto) => {
    expect(textoResultado('colgo', { duracion })).toBe(texto);
  });

  // Issue 45.5: a call that lasted its exercise's 'Tiempo' was ended by the exercise's own limit
  // (the dialplan's TIMEOUT(absolute)), not by the callee.
  it.each([
    [60, 60, 'El ejercicio colgó al cumplirse 1 min'],
    [59, 60, 'El ejercicio colgó al cumplirse 1 min'],
    [61, 60, 'El ejercicio colgó al cumplirse 1 min'],
    [90, 90, 'El ejercicio colgó al cumplirse 1 min 30 s'],
    [120, 120, 'El ejercicio colgó al cumplirse 2 min'],
    [45, 60, 'Colgó a los 45 s'],
    [58, 60, 'Colgó a los 58 s'],
    [60, null, 'Colgó a los 60 s'],
  ])('a hang-up after %i s with a limit of %s s reads «%s»', (duracion, limite, texto) => {
    expect(textoResultado('colgo', { duracion, limite })).toBe(texto);
  });

  it.each([
    [30, '30 s'],
    [60, '1 min'],
    [90, '1 min 30 s'],
    [600, '10 min'],
  ])('%i s in short reads «%s»', (s, texto) => {
    expect(duracionCorta(s)).toBe(texto);
  });

  it('covers every estatus and every refinement once', () => {
    expect(RESULTADOS).toEqual([...ESTATUS_DESTINATARIO, ...ALCANCES]);
    expect(Object.keys(LUZ_RESULTADO).sort()).toEqual([...RESULTADOS].sort());
  });
});

describe('resultadoDe', () => {
  it.each([
    ['contestado', 'colgo', 'colgo'],
    ['contestado', 'escucho', 'escucho'],
    ['respondido', 'respondio_todo', 'respondio_todo'],
    ['contestado', 'sin_respuesta', 'sin_respuesta'],
    ['contestado', null, 'contestado'],
    ['contestado', undefined, 'contestado'],
    ['contestado', 'inventado', 'contestado'],
    // Only an answered call is refined.
    ['cancelado', 'colgo', 'cancelado'],
    ['entregado', null, 'entregado'],
    // A delivered message read (a WhatsApp 'read', issue 25.1); only a delivered one.
    ['entregado', 'leido', 'leido'],
    ['enviado', 'leido', 'enviado'],
    ['fallido', 'leido', 'fallido'],
    ['contestado', 'leido', 'contestado'],
    ['entregado', 'escucho', 'entregado'],
  ] as const)('%s + %s → %s', (estatus, alcance, r) => {
    expect(resultadoDe(estatus, alcance)).toBe(r);
  });
});

describe('alcanceLlamada', () => {
  it.each([
    [{ preguntas: 0, respondidas: 0, audioCompleto: true }, 'escucho', 'contestado'],
    [{ preguntas: 0, respondidas: 0, audioCompleto: false }, 'colgo', 'contestado'],
    [{ preguntas: 3, respondidas: 3, audioCompleto: true }, 'respondio_todo', 'respondido'],
    [{ preguntas: 3, respondidas: 3, audioCompleto: false }, 'respondio_todo', 'respondido'],
    [{ preguntas: 3, respondidas: 1, audioCompleto: true }, 'respondio_parcial', 'contestado'],
    [{ preguntas: 3, respondidas: 0, audioCompleto: false }, 'sin_respuesta', 'contestado'],
    [{ preguntas: 3, respondidas: 0, audioCompleto: true }, 'sin_respuesta', 'contestado'],
  ] as const)('%j → %s (%s)', (e, a, estatus) => {
    expect(alcanceLlamada(e)).toBe(a);
    expect(estatusContestada(alcanceLlamada(e))).toBe(estatus);
  });
});

describe('luzSemaforo', () => {
  it.each<[ConteoAlcance, LuzSemaforo, string]>([
    [{ verde: 0, amarillo: 0, rojo: 0, cancelado: 0 }, 'verde', 'nothing counted'],
    [{ verde: 100, amarillo: 0, rojo: 0, cancelado: 0 }, 'verde', 'all reached'],
    [{ verde: 96, amarillo: 0, rojo: 4, cancelado: 0 }, 'verde', 'failures below 5 %'],
    [{ verde: 95, amarillo: 0, rojo: 5, cancelado: 0 }, 'amarillo', 'failures at 5 %'],
    [
      { verde: 99, amarillo: 1, rojo: 0, cancelado: 0 },
      'amarillo',
      'one pending or partly reached',
    ],
    [{ verde: 81, amarillo: 0, rojo: 19, cancelado: 0 }, 'amarillo', 'failures just below 20 %'],
    [{ verde: 80, amarillo: 0, rojo: 20, cancelado: 0 }, 'rojo', 'failures at 20 %'],
    [{ verde: 0, amarillo: 50, rojo: 50, cancelado: 0 }, 'rojo', 'red wins over pending'],
    [{ verde: 0, amarillo: 10, rojo: 0, cancelado: 0 }, 'amarillo', 'not started'],
    // Issue 23.5: a drill stopped at 25 of 600 is not green.
    [{ verde: 25, amarillo: 0, rojo: 0, cancelado: 575 }, 'rojo', 'stopped early'],
    [{ verde: 599, amarillo: 0, rojo: 0, cancelado: 1 }, 'amarillo', 'stopped at the last one'],
    [{ verde: 0, amarillo: 0, rojo: 0, cancelado: 3 }, 'rojo', 'stopped before starting'],
  ])('%j → %s (%s)', (conteo, luz) => {
    expect(luzSemaforo(conteo)).toBe(luz);
  });
});

describe('conteoSemaforo', () => {
  it.each([
    {
      caso: 'empty exercise',
      rows: [],
      esperado: { verde: 0, amarillo: 0, rojo: 0, cancelado: 0, total: 0, luz: 'verde' },
      porcentajes: { verde: 0, amarillo: 0, rojo: 0, cancelado: 0 },
    },
    {
      caso: 'numeric-string totals from PostgreSQL, repeated states add up',
      rows: [
        { estatus: 'enviado', total: '6' },
        { estatus: 'entregado', total: 2 },
        { estatus: 'enviado', total: 1 },
        { estatus: 'fallido', total: '1' },
      ],
      esperado: { verde: 9, amarillo: 0, rojo: 1, cancelado: 0, total: 10, luz: 'amarillo' },
      porcentajes: { verde: 90, amarillo: 0, rojo: 10, cancelado: 0 },
    },
    {
      caso: 'a stopped drill: cancelled rows count in the percentages, as not reached',
      rows: [
        { estatus: 'contestado', alcance: 'escucho', total: 25 },
        { estatus: 'cancelado', total: 575 },
      ],
      esperado: { verde: 25, amarillo: 0, rojo: 0, cancelado: 575, total: 600, luz: 'rojo' },
      porcentajes: { verde: 4.2, amarillo: 0, rojo: 0, cancelado: 95.8 },
    },
    {
      caso: 'answered calls by how they went; legacy rows without alcance stay green',
      rows: [
        { estatus: 'contestado', alcance: 'escucho', total: 6 },
        { estatus: 'contestado', alcance: 'colgo', total: 2 },
        { estatus: 'contestado', alcance: null, total: 1 },
        { estatus: 'no_contesto', alcance: null, total: 1 },
      ],
      esperado: { verde: 7, amarillo: 2, rojo: 1, cancelado: 0, total: 10, luz: 'amarillo' },
      porcentajes: { verde: 70, amarillo: 20, rojo: 10, cancelado: 0 },
    },
    {
      caso: 'uncertain rows count as yellow; unknown states are ignored',
      rows: [
        { estatus: 'incierto', total: 1 },
        { estatus: 'respondido', total: 2 },
        { estatus: 'perdido', total: 50 },
        { estatus: 'pendiente', total: 'x' },
      ],
      esperado: { verde: 2, amarillo: 1, rojo: 0, cancelado: 0, total: 3, luz: 'amarillo' },
      porcentajes: { verde: 66.7, amarillo: 33.3, rojo: 0, cancelado: 0 },
    },
  ])('$caso', ({ rows, esperado, porcentajes }) => {
    const s = conteoSemaforo(rows);
    expect(s).toMatchObject(esperado);
    expect(s.porcentajes).toEqual(porcentajes);
  });

  it('keeps the count of every state and of every outcome', () => {
    const s = conteoSemaforo([
      { estatus: 'ocupado', total: 3 },
      { estatus: 'invalido', total: 2 },
      { estatus: 'contestado', alcance: 'sin_respuesta', total: 4 },
      { estatus: 'respondido', alcance: 'respondio_todo', total: 1 },
    ]);
    expect(s.porEstatus).toMatchObject({ ocupado: 3, invalido: 2, pendiente: 0, contestado: 4 });
    expect(Object.keys(s.porEstatus)).toEqual([...ESTATUS_DESTINATARIO]);
    expect(s.porResultado).toMatchObject({
      ocupado: 3,
      contestado: 0,
      sin_respuesta: 4,
      respondido: 0,
      respondio_todo: 1,
    });
    expect(Object.keys(s.porResultado)).toEqual([...RESULTADOS]);
  });
});
