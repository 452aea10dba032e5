import { describe, expect, it } from 'vitest';
import {
  detectarCodificacion,
  detectarSeparador,
  etiquetaCodificacion,
  vistaPrevia,
  type Codificacion,
} from './codificacion.ts';

const TEXTO = 'telefono;nombre;estado\r\n9991234567;Ángel Núñez;Yucatán\r\n';
const latin1 = (t: string) => new Uint8Array([...t].map((c) => c.codePointAt(0)!));
const utf16le = (t: string) => {
  const b = new Uint8Array(t.length * 2);
  for (let i = 0; i < t.length; i++) {
    b[2 * i] = t.charCodeAt(i) & 0xff;
    b[2 * i + 1] = t.charCodeAt(i) >> 8;
  }
  return b;
};
const utf16be = (t: string) => {
  const le = utf16le(t);
  const b = new Uint8Array(le.length);
  for (let i = 0; i < le.length; i += 2) [b[i], b[i + 1]] = [le[i + 1]!, le[i]!];
  return b;
};
const con = (bom: number[], b: Uint8Array) => new Uint8Array([...bom, ...b]);

describe('detectarCodificacion', () => {
  it.each<[string, Uint8Array, Codificacion]>([
    ['UTF-8 con BOM', con([0xef, 0xbb, 0xbf], new TextEncoder().encode(TEXTO)), 'utf-8'],
    ['UTF-8 sin BOM', new TextEncoder().encode(TEXTO), 'utf-8'],
    ['ASCII', new TextEncoder().encode('telefono,nombre\n5512345678,Ana\n'), 'utf-8'],
    ['Windows-1252 (CSV de Excel en español)', latin1(TEXTO), 'windows-1252'],
    ['UTF-16 LE con BOM (Texto Unicode)', con([0xff, 0xfe], utf16le(TEXTO)), 'utf-16le'],
    ['UTF-16 LE sin BOM', utf16le(TEXTO), 'utf-16le'],
    ['UTF-16 BE con BOM', con([0xfe, 0xff], utf16be(TEXTO)), 'utf-16be'],
    ['UTF-16 BE sin BOM', utf16be(TEXTO), 'utf-16be'],
    ['vacío', new Uint8Array(), 'utf-8'],
    [
      'UTF-8 con un carácter partido al final de la muestra',
      new TextEncoder().encode('nombre\nÁngel').subarray(0, 8),
      'utf-8',
    ],
  ])('%s → %s', (_, bytes, esperada) => {
    expect(detectarCodificacion(bytes)).toBe(esperada);
  });
});

describe('detectarSeparador', () => {
  it.each([
    ['telefono;nombre;estado', ';'],
    ['telefono\tnombre\testado', '\t'],
    ['telefono,nombre', ','],
    ['"a;b",c,d', ','],
    ['telefono', ','],
  ])('%j → %j', (linea, sep) => expect(detectarSeparador(linea)).toBe(sep));
});

describe('vistaPrevia', () => {
  it('decodifica con la codificación elegida y separa las celdas', () => {
    expect(vistaPrevia(latin1(TEXTO), 'windows-1252')).toEqual({
      separador: ';',
      filas: [
        ['telefono', 'nombre', 'estado'],
        ['9991234567', 'Ángel Núñez', 'Yucatán'],
      ],
    });
    const tab = con([0xff, 0xfe], utf16le(TEXTO.replace(/;/g, '\t')));
    expect(vistaPrevia(tab, 'utf-16le').filas[1]).toEqual(['9991234567', 'Ángel Núñez', 'Yucatán']);
  });

  it('con la codificación equivocada se ve el error que el operador debe corregir', () => {
    expect(vistaPrevia(new TextEncoder().encode(TEXTO), 'windows-1252').filas[1]![2]).toBe(
      'YucatÃ¡n',
    );
  });

  it('muestra a lo más n filas y respeta las comillas', () => {
    const t = 'a,b\n"x, ""y""",2\n3,4\n5,6\n';
    expect(vistaPrevia(new TextEncoder().encode(t), 'utf-8', 2).filas).toEqual([
      ['a', 'b'],
      ['x, "y"', '2'],
    ]);
  });

  it('cada codificación tiene su nombre en español', () => {
    expect(etiquetaCodificacion('windows-1252')).toBe('Windows-1252 (CSV de Excel en español)');
    expect(etiquetaCodificacion('utf-16le')).toBe('UTF-16 LE (Texto Unicode de Excel)');
  });
});
