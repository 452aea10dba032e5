import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { filaDeHoja, libroXlsx, type ColumnaHoja } from './hoja-calculo.ts';

// The browser-built .xlsx (phones, reports, import errors): text cells that begin like a formula
// are written with the api's prefix, so the file opens without running anything.

const COLUMNAS: ColumnaHoja[] = [
  { titulo: 'telefono', campo: 'telefono' },
  { titulo: 'nombre', campo: 'nombre' },
  { titulo: 'total', campo: 'total' },
];
const FILAS = [
  { telefono: '+525512345678', nombre: '=HYPERLINK("http://x.invalid","clic")', total: -3 },
  { telefono: '5512345678', nombre: '@SUMA(A1)', total: 0 },
  { telefono: '5587654321', nombre: '\t=1+1', total: 7 },
  { telefono: '5511111111', nombre: '-2+3', total: null },
  { telefono: '5522222222', nombre: 'Ana = Luis', total: 1 },
];
const ESPERADAS = [
  ["'+525512345678", `'=HYPERLINK("http://x.invalid","clic")`, -3],
  ['5512345678', "'@SUMA(A1)", 0],
  ['5587654321', "'\t=1+1", 7],
  ['5511111111', "'-2+3", ''],
  ['5522222222', 'Ana = Luis', 1],
];

describe('hoja de cálculo del navegador', () => {
  it('filaDeHoja antepone el apóstrofo a los textos que parecen fórmula; los números quedan', () => {
    expect(FILAS.map((f) => Object.values(filaDeHoja(COLUMNAS, f)))).toEqual(ESPERADAS);
    expect(filaDeHoja(COLUMNAS, {})).toEqual({ telefono: '', nombre: '', total: '' });
  });

  it('el .xlsx construido no tiene ninguna fórmula y guarda el texto con el apóstrofo', async () => {
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(await libroXlsx(COLUMNAS, FILAS, 'Teléfonos'));
    const h = libro.getWorksheet('Teléfonos')!;
    const leidas: unknown[][] = [];
    h.eachRow((fila, n) => {
      if (n === 1) return;
      leidas.push(
        [1, 2, 3].map((c) => {
          const celda = fila.getCell(c);
          expect(celda.type).not.toBe(ExcelJS.ValueType.Formula);
          return celda.value ?? '';
        }),
      );
    });
    expect(leidas).toEqual(ESPERADAS);
  });
});
