import { describe, expect, it } from 'vitest';
import { esExito, esSesionExpirada, mensajeDeRespuesta } from './session.ts';

const EXPIRADA = 'FALLO: SESION EXPIRADA';

describe('esSesionExpirada', () => {
  it.each<[string, unknown, number | undefined, boolean]>([
    ['data[0].message', { data: [{ message: EXPIRADA }] }, 200, true],
    ['data.categorias[0].message', { data: { categorias: [{ message: EXPIRADA }] } }, 200, true],
    ['data.message', { data: { message: EXPIRADA } }, undefined, true],
    ['message', { status: 401, message: EXPIRADA }, 401, true],
    ['mensaje', { mensaje: EXPIRADA }, undefined, true],
    ['HTTP 401 with any body', { message: 'otra cosa' }, 401, true],
    ['HTTP 401 with no body', null, 401, true],
    ['another message', { data: [{ message: 'FALLO: OTRA COSA' }] }, 200, false],
    ['a list of phones', { data: [{ telefono: '5512345678' }] }, 200, false],
    ['data.categorias is a normal list', { data: { categorias: [{ id_estado: 1 }] } }, 200, false],
    ['a string body', EXPIRADA, 200, false],
    ['undefined body', undefined, undefined, false],
    ['message in the second row only', { data: [{}, { message: EXPIRADA }] }, 200, false],
  ])('%s → %s', (_, body, statusHttp, esperado) => {
    expect(esSesionExpirada(body, statusHttp)).toBe(esperado);
  });
});

describe('esExito', () => {
  it.each<[unknown, boolean]>([
    [{ status: 200 }, true],
    [{ status: '200' }, true],
    [{ status: 201 }, false],
    [{ status: 500, message: 'x' }, false],
    [{}, false],
    [null, false],
    ['200', false],
  ])('%j → %s', (body, esperado) => {
    expect(esExito(body)).toBe(esperado);
  });
});

describe('mensajeDeRespuesta', () => {
  it.each<[unknown, string]>([
    [{ status: 400, message: 'El campo titulo es obligatorio' }, 'El campo titulo es obligatorio'],
    [{ status: 500, mensaje: 'No hay saldo' }, 'No hay saldo'],
    [{ data: { message: 'Desde data' } }, 'Desde data'],
    [{ data: [{ message: EXPIRADA }] }, EXPIRADA],
    [
      { status: 500, message: '  ' },
      'Ocurrió un error interno en el servidor. Intente de nuevo; si persiste, avise al administrador',
    ],
    [
      null,
      'Ocurrió un error interno en el servidor. Intente de nuevo; si persiste, avise al administrador',
    ],
  ])('%j → %j', (body, esperado) => {
    expect(mensajeDeRespuesta(body)).toBe(esperado);
  });

  it('uses the given fallback', () => {
    expect(mensajeDeRespuesta({}, 'Error de red')).toBe('Error de red');
  });
});
