import { describe, expect, it } from 'vitest';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { CANONICO_MX, telefonoCanonico } from '@pregon/contract/rules/phone';
import { canonico } from './telefonos.ts';
import { claveNombre, leerEncabezado } from './importacion-filas.ts';
import { detectarSeparador, textoCelda } from './importacion-lectores.ts';

describe('vía rápida de la regla de teléfonos', () => {
  it('CANONICO_MX acepta exactamente los números de 10 dígitos que libphonenumber valida para MX', () => {
    for (let i = 0; i < 5000; i++) {
      const d = String(Math.floor(Math.random() * 1e10)).padStart(10, '0');
      expect(CANONICO_MX.test(d), d).toBe(
        parsePhoneNumberFromString(`+52${d}`)?.isValid() ?? false,
      );
    }
  });
});

describe('canonico: lo que la importación guarda es lo que dice la regla del contrato', () => {
  const muestras = [
    '5512345678',
    '3312345678',
    '2000000000',
    '9999999999',
    '0123456789',
    '1234567890',
    '55 1234 5678',
    '(55) 1234-5678',
    '+52 55 1234 5678',
    '+52 1 55 1234 5678',
    '045 55 1234 5678',
    '+1 415 555 2671',
    '12345',
    '',
    'abc',
    '00 52 55 1234 5678',
  ];
  for (let i = 0; i < 200; i++)
    muestras.push(String(Math.floor(Math.random() * 1e10)).padStart(10, '0'));
  it.each(muestras)('%j', (t) => {
    const r = canonico(t);
    expect(r.ok ? r.telefono : null).toBe(telefonoCanonico(t));
  });
});

describe('lectura de archivos de importación', () => {
  it.each([
    ['telefono,nombre,estado,categorias', ','],
    ['telefono;nombre;estado;categorias', ';'],
    ['telefono\tnombre\testado', '\t'],
    ['"telefono;x",nombre,estado', ','],
    ['telefono', ','],
  ])('separador de %j: %j', (linea, sep) => expect(detectarSeparador(linea)).toBe(sep));

  it('encabezados con acentos, mayúsculas y sinónimos', () => {
    expect(leerEncabezado(['Teléfono', 'NOMBRE', 'Estado', 'Categorías'])).toEqual({
      telefono: 0,
      nombre: 1,
      estado: 2,
      categorias: 3,
    });
    expect(leerEncabezado(['nombre', 'celular'])).toEqual({
      telefono: 1,
      nombre: 0,
      estado: -1,
      categorias: -1,
    });
    expect(leerEncabezado(['a', 'b'])).toBeUndefined();
    expect(claveNombre('  Nuevo   LEÓN ')).toBe('nuevo leon');
  });

  it.each([
    [5512345678, '5512345678'],
    [{ richText: [{ text: 'Ana ' }, { text: 'Pérez' }] }, 'Ana Pérez'],
    [{ text: 'enlace', hyperlink: 'http://x' }, 'enlace'],
    [{ formula: 'A1', result: 3312345678 }, '3312345678'],
    [null, ''],
    [true, 'true'],
  ])('celda %j → %j', (v, texto) => expect(textoCelda(v)).toBe(texto));
});
