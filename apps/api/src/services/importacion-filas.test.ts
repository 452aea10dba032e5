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
      fila: 3,
    });
  });

  it('un nombre de más de 200 caracteres rechaza su fila con el motivo, sin cortarlo (issue 26.7)', async () => {
    const ruta = path.join(dir, 'largo.csv');
    const largo = 'Nombre muy largo '.repeat(15).trim();
    fs.writeFileSync(
      ruta,
      `telefono,nombre,estado\n5512345678,${largo},Jalisco\n5512345679,Ana,Jalisco\n`,
    );
    const [lote] = await todos(lotesValidados(origen(ruta)));
    expect(lote!.filas.map((f) => f.nombre)).toEqual(['Ana']);
    expect(lote!.errores[0]).toMatchObject({
      fila: 2,
      motivo: `El nombre tiene ${largo.length} caracteres y el máximo es 200: acórtelo`,
    });
  });

  it('un archivo sin columna de teléfono falla con SinColumnaTelefono', async () => {
    const ruta = path.join(dir, 'c.csv');
    fs.writeFileSync(ruta, 'nombre,estado\nAna,Jalisco\n');
    await expect(todos(lotesValidados(origen(ruta)))).rejects.toBeInstanceOf(SinColumnaTelefono);
  });
});

/** Bytes of `texto` in Windows-1252 (every character of it must be in Latin-1's printable range,
 * which Windows-1252 shares). */
const cp1252 = (texto: string) =>
  Buffer.from(
    [...texto].map((c) => {
      const n = c.codePointAt(0)!;
      if (n > 0xff) throw new Error(`fuera de Windows-1252: ${c}`);
      return n;
    }),
  );

/** Bytes of `texto` in UTF-16 BE (swap the LE bytes). */
const utf16be = (texto: string) => {
  const b = Buffer.from(texto, 'utf16le');
  for (let i = 0; i + 1 < b.length; i += 2) [b[i], b[i + 1]] = [b[i + 1]!, b[i]!];
  return b;
};

describe('los archivos como los guarda Excel en español (issue 26.5)', () => {
  const catalogoAcentos: OrigenLotes['catalogo'] = {
    estados: [
      { id_estado: 31, estado: 'Yucatán' },
      { id_estado: 19, estado: 'Nuevo León' },
    ],
    categorias: [
      { id_categoria: 2, categoria: 'Protección Civil' },
      { id_categoria: 3, categoria: 'Niños' },
    ],
  };
  const filasEsperadas = [
    { telefono: '9991234567', nombre: 'Ángel Núñez', id_estado: 31, categorias: [2], fila: 2 },
    { telefono: '8112345678', nombre: 'Óscar Peña', id_estado: 19, categorias: [3], fila: 3 },
  ];
  const leer = async (
    nombre: string,
    bytes: Buffer,
    codificacion?: OrigenLotes['codificacion'],
  ) => {
    const ruta = path.join(dir, nombre);
    fs.writeFileSync(ruta, bytes);
    const l = await todos(
      lotesValidados({ ...origen(ruta), catalogo: catalogoAcentos, codificacion }),
    );
    return { filas: l.flatMap((x) => x.filas), errores: l.flatMap((x) => x.errores) };
  };
  const texto = (sep: string, fin = '\r\n') =>
    [
      ['Teléfono', 'Nombre', 'Estado', 'Categorías'],
      ['9991234567', 'Ángel Núñez', 'Yucatán', 'Protección Civil'],
      ['8112345678', 'Óscar Peña', 'Nuevo León', 'Niños'],
    ]
      .map((f) => f.join(sep))
      .join(fin) + fin;

  it.each<[string, () => Buffer]>([
    ['CSV de Excel (Windows-1252, ;)', () => cp1252(texto(';'))],
    [
      'Texto Unicode de Excel (UTF-16 LE con BOM, tabuladores)',
      () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(texto('\t'), 'utf16le')]),
    ],
    ['UTF-16 BE con BOM', () => Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(texto('\t'))])],
    ['UTF-16 LE sin BOM', () => Buffer.from(texto('\t'), 'utf16le')],
    [
      'CSV UTF-8 de Excel (con BOM, ;)',
      () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(texto(';'))]),
    ],
    ['UTF-8 sin BOM, comas, LF', () => Buffer.from(texto(',', '\n'))],
  ])('%s: acentos y ñ intactos, sin filas rechazadas', async (_, bytes) => {
    const r = await leer('excel.csv', bytes());
    expect(r.errores).toEqual([]);
    expect(r.filas).toEqual(filasEsperadas);
  });

  it('la codificación que elige el operador manda sobre la detectada', async () => {
    // Windows-1252 bytes read as if they were Latin text in UTF-8 would be mojibake; the chosen
    // encoding reads them right, and a wrong choice is visible (the state is unknown).
    const bien = await leer('elegida.csv', cp1252(texto(';')), 'windows-1252');
    expect(bien.filas).toEqual(filasEsperadas);
    const mal = await leer(
      'mal.csv',
      Buffer.from(texto(';').replace('Teléfono', 'Telefono')),
      'windows-1252',
    );
    expect(mal.filas).toEqual([]);
    expect(mal.errores[0]!.motivo).toBe('Estado desconocido: YucatÃ¡n');
  });

  it('un carácter partido entre dos trozos de lectura se decodifica entero', async () => {
    let t = 'telefono\tnombre\testado\n';
    for (let i = 0; i < 40_000; i++) t += `${5510000000 + i}\tÑoño ${i}\tYucatán\n`;
    const r = await leer(
      'grande.csv',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, 'utf16le')]),
    );
    expect(r.errores).toEqual([]);
    expect(r.filas).toHaveLength(40_000);
    expect(r.filas.every((f, i) => f.nombre === `Ñoño ${i}`)).toBe(true);
  });
});
