import { describe, expect, it } from 'vitest';
import {
  conteoSemaforo,
  ESTATUS_AMARILLO,
  ESTATUS_DESTINATARIO,
  ESTATUS_ROJO,
  ESTATUS_VERDE,
  ETIQUETA_ESTATUS,
  ETIQUETA_LUZ,
  ETIQUETA_ORDEN,
  ETIQUETA_PROTOCOLO,
  ETIQUETA_ROL,
  EstatusDestinatarioSchema,
  LUCES_SEMAFORO,
  luzSemaforo,
  ORDENES,
  PROTOCOLOS,
  ProtocoloSchema,
  ROLES,
  RolSchema,
  TIPOS_EJERCICIO,
  tipoPorEtiqueta,
  tipoPorId,
  type ConteoLuces,
  type LuzSemaforo,
} from './constants.ts';
import { MENSAJES } from './messages.ts';

describe('exercise types', () => {
  it.each([
    [1, 'SMS', 'Mensaje'],
    [2, 'LLAMADA', 'Audio'],
    [3, 'WHATSAPP', 'WhatsApp'],
    [4, 'CUESTIONARIO', 'Tiempo (minutos)'],
  ])('type %i is %s with action label %s', (id, etiqueta, accionLabel) => {
    expect(TIPOS_EJERCICIO.find((t) => t.id === id)).toMatchObject({ etiqueta, accionLabel });
  });

  it.each([
    [1, 'SMS'],
    ['2', 'LLAMADA'],
    [' 4 ', 'CUESTIONARIO'],
    [5, undefined],
    ['', undefined],
    [null, undefined],
    ['x', undefined],
  ])('tipoPorId(%j) → %s', (id, etiqueta) => {
    expect(tipoPorId(id)?.etiqueta).toBe(etiqueta);
  });

  it.each([
    ['SMS', 1],
    ['llamada', 2],
    [' Cuestionario ', 4],
    ['WHATSAPP', 3],
    ['FAX', undefined],
    [null, undefined],
  ])('tipoPorEtiqueta(%j) → %s', (etiqueta, id) => {
    expect(tipoPorEtiqueta(etiqueta)?.id).toBe(id);
  });
});

describe('enums and their labels', () => {
  it.each([
    ['roles', ROLES, ETIQUETA_ROL],
    ['protocolos', PROTOCOLOS, ETIQUETA_PROTOCOLO],
    ['ordenes', ORDENES, ETIQUETA_ORDEN],
    ['estatus', ESTATUS_DESTINATARIO, ETIQUETA_ESTATUS],
    ['luces', LUCES_SEMAFORO, ETIQUETA_LUZ],
  ] as const)('every value of %s has a catalogue label', (_, valores, etiquetas) => {
    const claves = valores.map((v) => (etiquetas as Record<string, keyof typeof MENSAJES>)[v]);
    expect(claves.every((c) => c !== undefined && typeof MENSAJES[c] === 'string')).toBe(true);
    expect(Object.keys(etiquetas).sort()).toEqual([...valores].sort());
  });

  it.each([
    [RolSchema, 'consulta', true],
    [RolSchema, 'root', false],
    [ProtocoloSchema, 'smpp', true],
    [ProtocoloSchema, 'sip', false],
    [EstatusDestinatarioSchema, 'incierto', true],
    [EstatusDestinatarioSchema, 'perdido', false],
  ] as const)('schema %# accepts %j: %s', (schema, valor, ok) => {
    expect(schema.safeParse(valor).success).toBe(ok);
  });

  it('puts every recipient state in one light, except cancelado in none', () => {
    const luces = [...ESTATUS_VERDE, ...ESTATUS_AMARILLO, ...ESTATUS_ROJO];
    expect(new Set(luces).size).toBe(luces.length);
    expect(ESTATUS_DESTINATARIO.filter((e) => !luces.includes(e))).toEqual(['cancelado']);
  });
});

describe('luzSemaforo', () => {
  it.each<[ConteoLuces, LuzSemaforo, string]>([
    [{ verde: 0, amarillo: 0, rojo: 0 }, 'verde', 'nothing counted'],
    [{ verde: 100, amarillo: 0, rojo: 0 }, 'verde', 'all delivered'],
    [{ verde: 96, amarillo: 0, rojo: 4 }, 'verde', 'failures below 5 %'],
    [{ verde: 95, amarillo: 0, rojo: 5 }, 'amarillo', 'failures at 5 %'],
    [{ verde: 99, amarillo: 1, rojo: 0 }, 'amarillo', 'one still pending'],
    [{ verde: 81, amarillo: 0, rojo: 19 }, 'amarillo', 'failures just below 20 %'],
    [{ verde: 80, amarillo: 0, rojo: 20 }, 'rojo', 'failures at 20 %'],
    [{ verde: 0, amarillo: 50, rojo: 50 }, 'rojo', 'red wins over pending'],
    [{ verde: 0, amarillo: 10, rojo: 0 }, 'amarillo', 'not started'],
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
      porcentajes: { verde: 0, amarillo: 0, rojo: 0 },
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
      porcentajes: { verde: 90, amarillo: 0, rojo: 10 },
    },
    {
      caso: 'cancelled rows are reported apart and left out of the percentages',
      rows: [
        { estatus: 'contestado', total: 2 },
        { estatus: 'cancelado', total: 7 },
        { estatus: 'no_contesto', total: 1 },
      ],
      esperado: { verde: 2, amarillo: 0, rojo: 1, cancelado: 7, total: 10, luz: 'rojo' },
      porcentajes: { verde: 66.7, amarillo: 0, rojo: 33.3 },
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
      porcentajes: { verde: 66.7, amarillo: 33.3, rojo: 0 },
    },
  ])('$caso', ({ rows, esperado, porcentajes }) => {
    const s = conteoSemaforo(rows);
    expect(s).toMatchObject(esperado);
    expect(s.porcentajes).toEqual(porcentajes);
  });

  it('keeps the count of every state', () => {
    const s = conteoSemaforo([
      { estatus: 'ocupado', total: 3 },
      { estatus: 'invalido', total: 2 },
    ]);
    expect(s.porEstatus).toMatchObject({ ocupado: 3, invalido: 2, pendiente: 0 });
    expect(Object.keys(s.porEstatus)).toEqual([...ESTATUS_DESTINATARIO]);
  });
});
