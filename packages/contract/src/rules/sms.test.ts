import { describe, expect, it } from 'vitest';
import {
  analizarSms,
  desempaquetarGsm,
  empaquetarGsm,
  rellenoTrasUdh,
  septetosEmpaquetados,
  septetosGsm,
  textoGsm,
} from './sms.ts';

const x = (n: number, c = 'a') => c.repeat(n);

describe('analizarSms', () => {
  it.each<[string, string, string, number, number, number, number, string | null]>([
    // name, text, encoding, characters, parts, used in last part, capacity, char forcing UCS-2
    ['vacío', '', 'GSM-7', 0, 0, 0, 160, null],
    ['ASCII corto', 'Simulacro', 'GSM-7', 9, 1, 9, 160, null],
    ['160 GSM-7: una', x(160), 'GSM-7', 160, 1, 160, 160, null],
    ['161 GSM-7: dos', x(161), 'GSM-7', 161, 2, 8, 153, null],
    ['306 GSM-7: dos', x(306), 'GSM-7', 306, 2, 153, 153, null],
    ['307 GSM-7: tres', x(307), 'GSM-7', 307, 3, 1, 153, null],
    ['acentos del alfabeto GSM', 'é è ù ì ò à Ñ ñ ¿ ¡ Ü', 'GSM-7', 21, 1, 21, 160, null],
    ['€ cuenta dos', '€5', 'GSM-7', 3, 1, 3, 160, null],
    ['extensión: {}[]~|^\\', '{}[]~|^\\', 'GSM-7', 16, 1, 16, 160, null],
    ['80 € = 160 septetos', x(80, '€'), 'GSM-7', 160, 1, 160, 160, null],
    [
      '81 € = 162 septetos (76 + 5 €: un escape no se parte)',
      x(81, '€'),
      'GSM-7',
      162,
      2,
      10,
      153,
      null,
    ],
    ['á obliga a UCS-2', 'Diríjase a la zona más cercana', 'UCS-2', 30, 1, 30, 70, 'í'],
    ['70 UCS-2: una', x(69) + 'á', 'UCS-2', 70, 1, 70, 70, 'á'],
    ['71 UCS-2: dos', x(70) + 'á', 'UCS-2', 71, 2, 4, 67, 'á'],
    ['134 UCS-2: dos', 'ó' + x(133), 'UCS-2', 134, 2, 67, 67, 'ó'],
    ['emoji cuenta dos', 'Hola 🚨', 'UCS-2', 7, 1, 7, 70, '🚨'],
    ['35 emoji = 70', x(35, '🚨'), 'UCS-2', 70, 1, 70, 70, '🚨'],
    ['€ en UCS-2 cuenta uno', '€ú', 'UCS-2', 2, 1, 2, 70, 'ú'],
  ])('%s', (_n, texto, codificacion, caracteres, partes, usados, capacidad, fuerza) => {
    const a = analizarSms(texto);
    expect(a).toMatchObject({ codificacion, caracteres, partes, usados, capacidad });
    expect(a.fuerzaUcs2).toBe(fuerza);
    expect(a.textos.join('')).toBe(texto);
    expect(a.textos).toHaveLength(partes);
  });

  it('una parte nunca parte un par sustituto: 66 unidades + emoji pasa el emoji a la siguiente', () => {
    const a = analizarSms(x(66, 'ñ') + '🚨' + x(10));
    expect(a.partes).toBe(2);
    expect(a.textos[0]).toBe(x(66, 'ñ'));
    expect(a.textos[1]).toBe('🚨' + x(10));
    expect(a.usados).toBe(12);
  });

  it('una parte nunca parte un escape GSM: 152 septetos + € pasa el € a la siguiente', () => {
    const a = analizarSms(x(152) + '€' + x(20));
    expect(a.textos[0]).toBe(x(152));
    expect(a.textos[1]).toBe('€' + x(20));
    expect(a.usados).toBe(22);
  });

  it('cinco partes UCS-2 de 67', () => {
    const a = analizarSms(x(67 * 5, 'á'));
    expect(a.partes).toBe(5);
    expect(a.textos.every((t) => t.length === 67)).toBe(true);
  });
});

describe('GSM 03.38', () => {
  it('valores de la tabla: @ £ ¡ ¿ Ñ ñ é à \\n y el escape del €', () => {
    expect(septetosGsm('@£¡¿Ññéà\n')).toEqual([
      0x00, 0x01, 0x40, 0x60, 0x5d, 0x7d, 0x05, 0x7f, 0x0a,
    ]);
    expect(septetosGsm('€{|')).toEqual([0x1b, 0x65, 0x1b, 0x28, 0x1b, 0x40]);
    expect(septetosGsm('A z')).toEqual([0x41, 0x20, 0x7a]);
    expect(() => septetosGsm('á')).toThrow('«á»');
  });

  it('ida y vuelta de todo el alfabeto', () => {
    const todo = [...Array(128).keys()].filter((s) => s !== 0x1b);
    const t = textoGsm(todo);
    expect([...t]).toHaveLength(127);
    expect(septetosGsm(t)).toEqual(todo);
    expect(textoGsm(septetosGsm('€[]{}~^|\\\f'))).toBe('€[]{}~^|\\\f');
  });

  it('empaqueta como TS 23.038: "hellohello" → E8329BFD4697D9EC37', () => {
    const s = septetosGsm('hellohello');
    const p = empaquetarGsm(s);
    expect(Buffer.from(p).toString('hex').toUpperCase()).toBe('E8329BFD4697D9EC37');
    expect(desempaquetarGsm(p, s.length)).toEqual(s);
  });

  it('con relleno tras un UDH de 6 octetos (1 bit) ida y vuelta', () => {
    expect(rellenoTrasUdh(6)).toBe(1);
    expect(rellenoTrasUdh(7)).toBe(0);
    const s = septetosGsm('Simulacro ¿€? ñ');
    const p = empaquetarGsm(s, 1);
    expect(p.length).toBe(Math.ceil((1 + s.length * 7) / 8));
    expect(textoGsm(desempaquetarGsm(p, s.length, 1))).toBe('Simulacro ¿€? ñ');
    expect(textoGsm(septetosEmpaquetados(p, 1))).toBe('Simulacro ¿€? ñ');
  });

  it('7 bits sobrantes llevan CR, que al desempaquetar no aparece (ni como @)', () => {
    for (const t of ['1234567', 'abcdefg', '@@@@@@@', 'a'.repeat(153)]) {
      for (const relleno of [0, 1]) {
        const p = empaquetarGsm(septetosGsm(t), relleno);
        expect(textoGsm(septetosEmpaquetados(p, relleno))).toBe(t);
      }
    }
  });
});
