import { describe, expect, it } from 'vitest';
import { CLAVES_INEGI_ESTADOS, estadosDeDescripcion } from './cap.ts';

// Issue 47.4: an alert's areaDesc names states by name, or as Mexico's SMN writes them: a list of
// abbreviations ('Col,Chih,Jal,Nay,Sin,Dgo', 'Ver.'), read from its real feeds.
const CATALOGO = Object.keys(CLAVES_INEGI_ESTADOS);

describe('estadosDeDescripcion', () => {
  it.each([
    ['Jalisco', ['Jalisco']],
    ['Veracruz de Ignacio de la Llave', ['Veracruz']],
    ['Ver.', ['Veracruz']],
    [
      'Col,Chih,Jal,Nay,Sin,Dgo',
      ['Colima', 'Chihuahua', 'Jalisco', 'Nayarit', 'Sinaloa', 'Durango'],
    ],
    ['DGO, GTO, JAL', ['Durango', 'Guanajuato', 'Jalisco']],
    ['Q. Roo; Yuc', ['Quintana Roo', 'Yucatán']],
    ['Edo. Mex.', ['Estado de México']],
    ['Jal, Jalisco', ['Jalisco']],
    ['Oaxaca, Chiapas', ['Oaxaca', 'Chiapas']],
  ])('%s → %j', (desc, estados) => {
    expect(estadosDeDescripcion(desc, CATALOGO)).toEqual(estados);
  });

  it.each(['SIN, XYZ', 'condado de Los Ángeles', '', ' , '])(
    "'%s' no nombra estados: una parte desconocida no se adivina",
    (desc) => {
      expect(estadosDeDescripcion(desc, CATALOGO)).toEqual([]);
    },
  );

  it('solo nombra estados del catálogo', () => {
    expect(estadosDeDescripcion('Col,Jal', ['Jalisco'])).toEqual([]);
  });
});
