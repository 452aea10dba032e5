import { describe, expect, it } from 'vitest';
import { cadenaMarcado, desenlaceLlamada, idLlamada } from './canal.ts';

const base = { preguntas: 0, respondidas: 0, id_gateway: 'pregon-7-1' };

describe('outcome of a call from what Asterisk reports (docs/telefonia.md)', () => {
  it.each([
    // Issue 23.4: an answered call says how it went.
    [{ contestada: true }, { tipo: 'llamada', estatus: 'contestado', alcance: 'colgo' }],
    [
      { contestada: true, audioCompleto: true },
      { tipo: 'llamada', estatus: 'contestado', alcance: 'escucho' },
    ],
    [
      { contestada: true, preguntas: 3, respondidas: 3 },
      { tipo: 'llamada', estatus: 'respondido', alcance: 'respondio_todo', respondidas: 3 },
    ],
    [
      { contestada: true, preguntas: 3, respondidas: 2, audioCompleto: true },
      { tipo: 'llamada', estatus: 'contestado', alcance: 'respondio_parcial', respondidas: 2 },
    ],
    [
      { contestada: true, preguntas: 3, respondidas: 0 },
      { tipo: 'llamada', estatus: 'contestado', alcance: 'sin_respuesta', respondidas: 0 },
    ],
    [
      { contestada: false, razon: 5, causa: 17 },
      { tipo: 'llamada', estatus: 'ocupado' },
    ],
    [
      { contestada: false, razon: 3, causa: 19 },
      { tipo: 'llamada', estatus: 'no_contesto' },
    ],
    [
      { contestada: false, razon: 1 },
      { tipo: 'llamada', estatus: 'no_contesto' },
    ],
    [
      { contestada: false, razon: 8, causa: 34 },
      { tipo: 'reintentar', motivo: 'Red congestionada (causa 34)' },
    ],
    [
      { contestada: false, razon: 0, causa: 1 },
      { tipo: 'invalido', motivo: 'El número no existe (causa 1)' },
    ],
    [{ contestada: false, razon: 0, causa: 28 }, { tipo: 'invalido' }],
    [
      { contestada: false, razon: 0, causa: 0 },
      { tipo: 'fallido', motivo: 'La llamada no se pudo establecer' },
    ],
    [
      { contestada: false, razon: 0, causa: 21 },
      { tipo: 'llamada', estatus: 'no_contesto' },
    ],
    [{ contestada: false, razon: 0, causa: 38 }, { tipo: 'reintentar' }],
    [
      { contestada: false, razon: 0, causa: 27 },
      { tipo: 'fallido', motivo: 'La llamada no se pudo establecer (causa 27)' },
    ],
  ])('%j → %j', (e, esperado) => {
    expect(desenlaceLlamada({ ...base, ...e })).toMatchObject(esperado);
  });

  it('fills the dial-string template', () => {
    expect(cadenaMarcado(null, '+525512345678', 'mx1')).toBe('PJSIP/5512345678@mx1');
    expect(cadenaMarcado('SIP/{troncal}/{telefono}', '+525512345678', 'gw')).toBe(
      'SIP/gw/5512345678',
    );
    expect(cadenaMarcado('Local/{telefono}@destinos', '+525512345678', '')).toBe(
      'Local/5512345678@destinos',
    );
    expect(cadenaMarcado('PJSIP/{e164}@t', '+14155550100', 't')).toBe('PJSIP/+14155550100@t');
    expect(cadenaMarcado('PJSIP/{telefono}@t', '+14155550100', 't')).toBe('PJSIP/14155550100@t');
    expect(idLlamada(42, 3)).toBe('pregon-42-3');
  });
});
