import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_ERRORES_IMPORTACION } from '@pregon/contract/api/telefonos';
import {
  lotesValidados,
  SinColumnaTelefono,
  type LoteValidado,
  type OrigenLotes,
} from './importacion-filas.ts';

// The reading half of the import: batch boundaries, bad rows with their number and reason (the
// first MAX_ERRORES_IMPORTACION kept), quoted records over several lines, XLSX, missing phone column.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-lotes-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const catalogo: OrigenLotes['catalogo'] = {
  estados: [
    { id_estado: 7, estado: 'Ciudad de México' },
    { id_estado: 15, estado: 'Jalisco' },
  ],
  categorias: [
    { id_categoria: 1, categoria: 'Brigadistas' },
    { id_categoria: 2, categoria: 'Protección Civil' },
  ],
};

const origen = (ruta: string, tipo: 'csv' | 'xlsx' = 'csv'): OrigenLotes => ({
  ruta,
  tipo,
  catalogo,
  porDefecto: { categorias: [1] },
  lote: 1000,
});

async function todos(it: AsyncIterable<LoteValidado>): Promise<LoteValidado[]> {
  const r: LoteValidado[] = [];
  for await (const l of it) r.push(l);
  return r;
}

/** 3,500 rows: valid ones in several spellings, duplicates, and every kind of bad row. */
function csv(): { texto: string; filas: number } {
  let t = 'Teléfono;Nombre;Estado;Categorías\n';
  let filas = 3500;
  for (let i = 0; i < 3500; i++) {
    const n = String(5512000000 + i);
    if (i % 97 === 0) t += `12${i};Malo ${i};Jalisco;Brigadistas\n`;
    else if (i % 89 === 0) t += `${n};Sin estado ${i};Atlántida;Brigadistas\n`;
    else if (i % 83 === 0) t += `${n};Sin categoría ${i};Jalisco;Bomberos\n`;
    else if (i % 79 === 0)
      t += `"(55) ${n.slice(2, 6)}-${n.slice(6)}";"Con ""comillas""\ny salto";jalisco;"brigadistas|protección civil"\n`;
    else if (i % 71 === 0) {
      t += `${n};Repetido;Ciudad de Mexico;\n${n};Repetido;7;2\n`;
      filas++;
    } else t += `${n};Persona ${i};${i % 2 ? 'Jalisco' : '7'};${i % 3 ? 'Brigadistas' : ''}\n`;
  }
  return { texto: t, filas };
}

describe('lotes validados de la importación', () => {
  it('un CSV de varios lotes: lotes completos, filas malas con su número, registros entre comillas', async () => {
    const ruta = path.join(dir, 'a.csv');
    const { texto, filas } = csv();
    fs.writeFileSync(ruta, `\uFEFF${texto}`);
    const aqui = await todos(lotesValidados(origen(ruta)));
    expect(aqui.slice(0, -1).every((l) => l.procesadas === 1000)).toBe(true);
    expect(aqui.length).toBe(Math.ceil(filas / 1000));
    const procesadas = aqui.reduce((a, l) => a + l.procesadas, 0);
    expect(procesadas).toBe(filas);
    const conError = aqui.reduce((a, l) => a + l.con_error, 0);
    const detallados = aqui.flatMap((l) => l.errores);
    expect(conError).toBeGreaterThan(100);
    expect(detallados.length).toBe(Math.min(conError, MAX_ERRORES_IMPORTACION));
    expect(detallados[0]).toEqual({
      fila: 2,
      motivo: expect.any(String),
      telefono: '120',
      nombre: 'Malo 0',
      estado: 'Jalisco',
      categorias: 'Brigadistas',
    });
    const validas = aqui.flatMap((l) => l.filas);
    expect(validas.length + conError).toBe(procesadas);
    const comillas = validas.find((f) => f.nombre === 'Con "comillas"\ny salto');
    expect(comillas).toMatchObject({ id_estado: 15, categorias: [1, 2] });
  });

  it('un XLSX se lee por lotes con sus errores', async () => {
    const libro = new ExcelJS.Workbook();
    const hoja = libro.addWorksheet('Teléfonos');
    hoja.addRow(['telefono', 'nombre', 'estado', 'categorias']);
    for (let i = 0; i < 1500; i++)
      hoja.addRow([
        5533000000 + i,
        `Persona ${i}`,
        i % 50 ? 'Jalisco' : 'Marte',
        'Protección Civil',
      ]);
    const ruta = path.join(dir, 'b.xlsx');
    await libro.xlsx.writeFile(ruta);
    const aqui = await todos(lotesValidados(origen(ruta, 'xlsx')));
    expect(aqui.map((l) => l.procesadas)).toEqual([1000, 500]);
    expect(aqui.reduce((a, l) => a + l.con_error, 0)).toBe(30);
    expect(aqui[0]!.filas[0]).toEqual({
      telefono: '5533000001',
      nombre: 'Persona 1',
      id_estado: 15,
      categorias: [2],
    });
  });

  it('un archivo sin columna de teléfono falla con SinColumnaTelefono', async () => {
    const ruta = path.join(dir, 'c.csv');
    fs.writeFileSync(ruta, 'nombre,estado\nAna,Jalisco\n');
    await expect(todos(lotesValidados(origen(ruta)))).rejects.toBeInstanceOf(SinColumnaTelefono);
  });
});
