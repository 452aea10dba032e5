import { describe, expect, it } from 'vitest';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { CANONICO_MX } from '@pregon/contract/rules/phone';
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
