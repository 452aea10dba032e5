import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MAX_CARACTERES_CAMPO_IMPORTACION,
  MAX_CARACTERES_FILA_IMPORTACION,
  MAX_CELDAS_FILA_IMPORTACION,
} from '@pregon/contract/constants';
import {
  deflateRepetido,
  esqueletoXlsx,
  HOJA_FIN,
  HOJA_INICIO,
  parte,
  zip,
  type ParteZip,
} from '../../testing/bombas-zip.ts';
import { leerCsv } from './importacion-lectores.ts';
import { hojasXlsx, LIMITES_XLSX, LimiteImportacion, type LimitesXlsx } from './xlsx-lector.ts';

// Each limit of issue 49.1 reached on its own, by the readers, with limits small enough to reach
// in milliseconds (the api's tests, importar-bombas.test.ts, send bombs at the real ones).

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-limites-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const escribir = (contenido: Buffer | string, ext: string) => {
  const ruta = path.join(dir, `f${++n}${ext}`);
  fs.writeFileSync(ruta, contenido);
  return ruta;
};

/** Every row of the first sheet of an .xlsx, as text. */
async function leer(ruta: string, lim: LimitesXlsx) {
  const filas: string[][] = [];
  for await (const hoja of hojasXlsx(ruta, lim)) {
    for await (const f of hoja) filas.push((f.values as unknown[]).slice(1).map(String));
    break;
  }
  return filas;
}

/** The refusal a read ends with (fails the test when it ends without one). */
async function rechazo(p: Promise<unknown>): Promise<LimiteImportacion> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(LimiteImportacion);
  return e as LimiteImportacion;
}

const hoja = (filas: string) => parte('xl/worksheets/sheet1.xml', HOJA_INICIO + filas + HOJA_FIN);
const xlsx = (partes: ParteZip[], o?: Parameters<typeof zip>[1]) =>
  escribir(zip([...esqueletoXlsx(), ...partes], o), '.xlsx');
const sinCopias = (ruta: string) =>
  expect(fs.readdirSync(dir).filter((f) => f.startsWith(`${path.basename(ruta)}.`))).toEqual([]);

describe('límites de expansión de un .xlsx (hojasXlsx)', () => {
  it('un .xlsx hecho a mano se lee (el esqueleto de las bombas es un libro válido)', async () => {
    const ruta = xlsx([
      parte('xl/sharedStrings.xml', '<sst><si><t>telefono</t></si></sst>'),
      hoja(
        '<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2"><v>5512345678</v></c></row>',
      ),
    ]);
    expect(await leer(ruta, LIMITES_XLSX)).toEqual([['telefono'], ['5512345678']]);
  });

  it('una parte que miente su tamaño se corta al pasar el límite de la parte mientras se infla, y no deja su copia', async () => {
    const fila = '<row><c t="inlineStr"><is><t>5512345678</t></is></c></row>';
    const { datos, descomprimido } = deflateRepetido(fila, 200_000, HOJA_INICIO, HOJA_FIN);
    const ruta = xlsx([{ nombre: 'xl/worksheets/sheet1.xml', datos, descomprimido }], {
      mentir: true,
    });
    const lim = { ...LIMITES_XLSX, bytesParte: 2 << 20, razon: 1e9 };
    const e = await rechazo(leer(ruta, lim));
    expect([e.status, e.message]).toEqual([
      413,
      'El archivo XLSX se expande a más de 2 MB en su parte xl/worksheets/sheet1.xml: divida la lista en varios archivos o impórtela como CSV',
    ]);
    sinCopias(ruta);
  });

  it('todas las partes juntas se cuentan contra el total', async () => {
    const a = deflateRepetido('<x/>', 300_000);
    const ruta = xlsx(
      [
        { nombre: 'xl/worksheets/sheet1.xml', ...a },
        { nombre: 'xl/worksheets/sheet2.xml', ...a },
      ],
      { mentir: true },
    );
    const lim = { ...LIMITES_XLSX, bytesParte: 2 << 20, bytesTotal: 2 << 20, razon: 1e9 };
    const e = await rechazo(leer(ruta, lim));
    expect(e.message).toBe(
      'El archivo XLSX se expande a más de 2 MB en total: divida la lista en varios archivos o impórtela como CSV',
    );
    sinCopias(ruta);
  });

  it('la razón de expansión se mide contra lo comprimido que el inflador lleva leído', async () => {
    const { datos, descomprimido } = deflateRepetido(
      '<si><t>a</t></si>',
      1_000_000,
      '<sst>',
      '</sst>',
    );
    const ruta = xlsx([{ nombre: 'xl/sharedStrings.xml', datos, descomprimido }], { mentir: true });
    const e = await rechazo(leer(ruta, LIMITES_XLSX));
    expect(e.message).toBe(
      'El archivo XLSX se expande más de 100 veces su tamaño comprimido en su parte xl/sharedStrings.xml (una hoja real no lo hace): guárdelo de nuevo desde Excel o impórtelo como CSV',
    );
  });

  it('los textos compartidos se cuentan: cuántos, cuántos caracteres y el largo de cada uno', async () => {
    const textos = (k: number, t = 'abc') =>
      parte('xl/sharedStrings.xml', `<sst>${`<si><t>${t}</t></si>`.repeat(k)}</sst>`);
    const cuantos = await rechazo(leer(xlsx([textos(11)]), { ...LIMITES_XLSX, cadenas: 10 }));
    expect([cuantos.status, cuantos.message]).toEqual([
      413,
      'El archivo XLSX tiene más de 10 textos distintos: divida la lista en varios archivos',
    ]);
    const suma = await rechazo(
      leer(xlsx([textos(40, 'x'.repeat(30_000))]), {
        ...LIMITES_XLSX,
        razon: 1e9,
        caracteresCadenas: 1_000_000,
      }),
    );
    expect(suma.message).toBe(
      'Los textos del archivo XLSX suman más de 1 millones de caracteres: divida la lista en varios archivos',
    );
    const largo = await rechazo(
      leer(xlsx([textos(1, 'x'.repeat(MAX_CARACTERES_CAMPO_IMPORTACION + 1))]), LIMITES_XLSX),
    );
    expect([largo.status, largo.message]).toEqual([
      400,
      'Un texto del archivo XLSX tiene más de 32767 caracteres (lo más que cabe en una celda de Excel): revise el archivo',
    ]);
  });

  it('un texto se corta mientras se infla, antes de que el lector lo junte entero', async () => {
    // 300 MB of one text node: bounded by the run of bytes without a tag, not by the heap.
    const { datos, descomprimido } = deflateRepetido(
      'a',
      300 << 20,
      '<sst><si><t>',
      '</t></si></sst>',
    );
    const ruta = xlsx([{ nombre: 'xl/sharedStrings.xml', datos, descomprimido }], { mentir: true });
    const e = await rechazo(leer(ruta, { ...LIMITES_XLSX, razon: 1e9 }));
    expect([e.status, e.message]).toEqual([
      400,
      'Un texto del archivo XLSX tiene más de 32767 caracteres (lo más que cabe en una celda de Excel): revise el archivo',
    ]);
  });

  it('las partes se cuentan en el directorio central, y solo las que lista se leen', async () => {
    const muchas = Array.from({ length: 30 }, (_, i) => parte(`xl/media/m${i}.bin`, 'x'));
    const lim = { ...LIMITES_XLSX, partes: 20 };
    const declaradas = await rechazo(leer(xlsx(muchas), lim));
    expect(declaradas.message).toBe(
      'El archivo XLSX tiene más de 20 partes internas (un libro de Excel tiene unas decenas): guárdelo de nuevo desde Excel o impórtelo como CSV',
    );
    // A bomb the central directory does not list is never inflated.
    const { datos, descomprimido } = deflateRepetido(Buffer.alloc(1 << 20), 4000);
    const fila = '<row r="1"><c r="A1" t="inlineStr"><is><t>telefono</t></is></c></row>';
    const oculta = xlsx(
      [hoja(fila), { nombre: 'xl/worksheets/sheet2.xml', datos, descomprimido }],
      {
        partesDeclaradas: 3,
      },
    );
    expect(await leer(oculta, lim)).toEqual([['telefono']]);
  });

  it('un archivo que no es zip, o cuya parte está cortada, falla como ilegible (no como límite)', async () => {
    const e = await leer(escribir('esto no es un zip', '.xlsx'), LIMITES_XLSX).catch(
      (x: Error) => x,
    );
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(LimiteImportacion);
    const bueno = zip([...esqueletoXlsx(), hoja('<row r="1"></row>')]);
    const cortado = Buffer.concat([bueno.subarray(0, 40), Buffer.alloc(bueno.length - 40)]);
    const e2 = await leer(escribir(cortado, '.xlsx'), LIMITES_XLSX).catch((x: Error) => x);
    expect(e2).toBeInstanceOf(Error);
  });

  it('una fila de más de MAX_CELDAS_FILA_IMPORTACION celdas se rechaza', async () => {
    const columna = (i: number): string =>
      (i >= 26 ? columna(Math.floor(i / 26) - 1) : '') + String.fromCharCode(65 + (i % 26));
    const celdas = Array.from(
      { length: MAX_CELDAS_FILA_IMPORTACION + 1 },
      (_, i) => `<c r="${columna(i)}1"><v>1</v></c>`,
    ).join('');
    const ruta = xlsx([hoja(`<row r="1">${celdas}</row>`)]);
    const e = await rechazo(
      (async () => {
        const { leerXlsx } = await import('./importacion-lectores.ts');
        for await (const _ of leerXlsx(ruta));
      })(),
    );
    expect([e.status, e.message]).toEqual([
      400,
      'La fila 1 tiene más de 1000 celdas: deje solo las columnas telefono, nombre, estado y categorias',
    ]);
  });
});

describe('límites de un CSV (leerCsv)', () => {
  const todo = async (ruta: string) => {
    for await (const _ of leerCsv(ruta));
  };

  it('celdas por fila, caracteres por campo (también entre comillas) y por registro', async () => {
    const celdas = await rechazo(
      todo(
        escribir(`telefono\n5512345678\n${'1,'.repeat(MAX_CELDAS_FILA_IMPORTACION)}1\n`, '.csv'),
      ),
    );
    expect([celdas.status, celdas.message]).toEqual([
      400,
      'La fila 3 tiene más de 1000 celdas: deje solo las columnas telefono, nombre, estado y categorias',
    ]);
    const campo = 'x'.repeat(MAX_CARACTERES_CAMPO_IMPORTACION + 1);
    for (const linea of [`5512345678,${campo}`, `5512345678,"${campo}\n${campo}"`]) {
      const e = await rechazo(todo(escribir(`telefono,nombre\n${linea}\n`, '.csv')));
      expect(e.message).toBe(
        'La fila 2 tiene un campo de más de 32767 caracteres: revise el archivo (¿comillas sin cerrar?)',
      );
    }
    const abierta = await rechazo(
      todo(
        escribir(
          `telefono,nombre\n5512345678,"${'x'.repeat(MAX_CARACTERES_FILA_IMPORTACION)}`,
          '.csv',
        ),
      ),
    );
    expect(abierta.message).toBe(
      'La fila 2 tiene más de 1048576 caracteres: revise el archivo (¿comillas sin cerrar o sin saltos de línea?)',
    );
  });
});
