import { describe, expect, it } from 'vitest';
import { celdaSinFormula, textoSinFormula } from './spreadsheet.ts';

describe('textoSinFormula', () => {
  it.each([
    ['=HYPERLINK("http://x","clic")', `'=HYPERLINK("http://x","clic")`],
    ['+525512345678', `'+525512345678`],
    ['-1+1', `'-1+1`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['\t=1+1', `'\t=1+1`],
    ['\r=1+1', `'\r=1+1`],
    ['5512345678', '5512345678'],
    ['Juan = Pedro', 'Juan = Pedro'],
    [' =1', ' =1'],
    ['', ''],
    ["'ya", "'ya"],
  ])('%j → %j', (entrada, salida) => {
    expect(textoSinFormula(entrada)).toBe(salida);
  });

  it('solo cambia textos: números, nulos y fechas quedan igual', () => {
    const fecha = new Date(0);
    expect(celdaSinFormula(-5)).toBe(-5);
    expect(celdaSinFormula(null)).toBeNull();
    expect(celdaSinFormula(fecha)).toBe(fecha);
    expect(celdaSinFormula('-5')).toBe("'-5");
  });
});
