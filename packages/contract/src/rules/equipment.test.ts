import { describe, expect, it } from 'vitest';
import {
  credencialesDeFormulario,
  equiposParaTipo,
  PALABRAS_EQUIPO,
  tiposParaAlias,
} from './equipment.ts';

const EQUIPOS = [
  { id_equipo: 1, alias: 'Modem SMS 1' },
  { id_equipo: 2, alias: 'mensajes masivos' },
  { id_equipo: 3, alias: 'Troncal LLAMADAS' },
  { id_equipo: 4, alias: 'call center' },
  { id_equipo: 5, alias: 'WhatsApp negocio' },
  { id_equipo: 6, alias: 'Quiz norte' },
  { id_equipo: 7, alias: 'Cuestionarios IVR' },
  { id_equipo: 8, alias: 'Impresora' },
  { id_equipo: 9, alias: null },
];

describe('PALABRAS_EQUIPO', () => {
  it.each([
    [1, ['SMS', 'MENSAJES']],
    [2, ['LLAMADAS', 'LLAMADA', 'CALL', 'CALLS']],
    [3, ['WHATSAPP']],
    [4, ['QUIZ', 'CUESTIONARIO', 'CUESTIONARIOS']],
  ] as const)('type %i keywords are %j (SPEC 9)', (tipo, palabras) => {
    expect(PALABRAS_EQUIPO[tipo]).toEqual(palabras);
  });
});

describe('equiposParaTipo', () => {
  it.each([
    [1, [1, 2]],
    ['1', [1, 2]],
    [2, [3, 4]],
    [3, [5]],
    [4, [6, 7]],
    [9, []],
    [undefined, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    [null, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    ['', [1, 2, 3, 4, 5, 6, 7, 8, 9]],
  ])('type %j offers %j', (tipo, ids) => {
    expect(equiposParaTipo(EQUIPOS, tipo).map((e) => e.id_equipo)).toEqual(ids);
  });
});

describe('tiposParaAlias', () => {
  it.each([
    ['Modem SMS 1', [1]],
    ['SMS y LLAMADAS', [1, 2]],
    ['WhatsApp negocio', [3]],
    ['Cuestionarios IVR', [4]],
    ['Impresora', []],
    ['', []],
  ])('%s → %j', (alias, tipos) => {
    expect(tiposParaAlias(alias)).toEqual(tipos);
  });
});

describe('credencialesDeFormulario', () => {
  it('toma solo los campos del protocolo que no están vacíos', () => {
    expect(
      credencialesDeFormulario('smpp', { system_id: ' pregon ', password: 'x', token: 'ajeno' }),
    ).toEqual({ system_id: 'pregon', password: 'x' });
  });
  it('sin campos llenos conserva las guardadas (undefined)', () => {
    expect(credencialesDeFormulario('asterisk', { usuario: '  ', secreto: '' })).toBeUndefined();
  });
});
