import { describe, expect, it } from 'vitest';
import {
  ESTATUS_AMARILLO,
  ESTATUS_DESTINATARIO,
  ESTATUS_ROJO,
  ESTATUS_VERDE,
  ETIQUETA_ESTATUS,
  ETIQUETA_LUZ,
  ETIQUETA_ORDEN,
  ETIQUETA_PROTOCOLO,
  ETIQUETA_ROL,
  LUCES_SEMAFORO,
  ORDENES,
  PROTOCOLOS,
  ROLES,
  TIPOS_EJERCICIO,
  tipoPorEtiqueta,
  tipoPorId,
} from './constants.ts';
import { EstatusDestinatarioSchema, ProtocoloSchema, RolSchema } from './esquemas.ts';
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
