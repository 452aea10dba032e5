import { describe, expect, it } from 'vitest';
import { TIPO_LLAMADA, TIPO_SMS, TIPO_WHATSAPP } from '../constants.ts';
import { conMarca, llevaMarca, modoDe, sinMarca, tieneMarca } from './modo.ts';

describe('modo del ejercicio y marca de simulacro (issue 47.1)', () => {
  it('un modo ausente o desconocido se lee Simulacro', () => {
    expect(modoDe(undefined)).toBe('simulacro');
    expect(modoDe(null)).toBe('simulacro');
    expect(modoDe('otro')).toBe('simulacro');
    expect(modoDe('real')).toBe('real');
    expect(modoDe('prueba')).toBe('prueba');
  });

  it('solo el texto libre de SMS y WhatsApp de un simulacro lleva la marca', () => {
    expect(llevaMarca('simulacro', TIPO_SMS, 'Hola')).toBe(true);
    expect(llevaMarca('simulacro', TIPO_WHATSAPP, 'Hola')).toBe(true);
    expect(
      llevaMarca('simulacro', TIPO_WHATSAPP, '{"plantilla":"p","idioma":"es_MX","parametros":[]}'),
    ).toBe(false);
    expect(llevaMarca('simulacro', TIPO_LLAMADA, 'audio.gsm')).toBe(false);
    expect(llevaMarca('prueba', TIPO_SMS, 'Hola')).toBe(false);
    expect(llevaMarca('real', TIPO_SMS, 'Hola')).toBe(false);
  });

  it('agrega la marca una sola vez y la quita para el campo del diálogo', () => {
    expect(conMarca('Sismo de prueba', 'SIMULACRO: ')).toEqual({
      texto: 'SIMULACRO: Sismo de prueba',
      agregada: true,
    });
    expect(conMarca('SIMULACRO: Sismo', 'SIMULACRO: ')).toEqual({
      texto: 'SIMULACRO: Sismo',
      agregada: false,
    });
    expect(tieneMarca('simulacro:Sismo', 'SIMULACRO: ')).toBe(true);
    expect(sinMarca('SIMULACRO: Sismo', 'SIMULACRO: ')).toBe('Sismo');
    expect(sinMarca('Sismo', 'SIMULACRO: ')).toBe('Sismo');
  });
});
