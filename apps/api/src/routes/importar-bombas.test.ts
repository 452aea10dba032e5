import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CARACTERES_FILA_IMPORTACION } from '@pregon/contract/constants';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import {
  deflateRepetido,
  esqueletoXlsx,
  HOJA_FIN,
  HOJA_INICIO,
  parte,
  zip,
  type ParteZip,
} from '../../testing/bombas-zip.ts';
import { IMPORTACION_SIN_AVANCE_MS } from '../services/importacion.ts';

// Issue 49.1: an 8.9 MB .xlsx whose shared strings inflate to 3.5 GB grew the api to 1.3 GB and
// killed it in ~45 s; a 150 MB CSV of one field took 1.65 GB. Here each shape of bomb goes to
// POST /telefonos/importar/ of a real api (this process): it is refused within seconds with a
// Spanish message naming the limit, this process's RSS stays bounded (sampled every 10 ms), and
// nothing stays under DATA_DIR/importaciones. Bombs that declare their true sizes are refused at
// upload (413); bombs whose headers lie pass that check and are cut while they inflate.

/** Most this process's RSS may grow during a bomb refused by a limit (MB): the reading thread's
 * own start (an isolate and its modules) plus the upload's buffers, nothing of what it expands to. */
const CRECIMIENTO_MAX_MB = 300;

const MB = 2 ** 20;
const NOMBRE_SS = 'xl/sharedStrings.xml';
const NOMBRE_HOJA = 'xl/worksheets/sheet1.xml';

/** The bombs, built once (a few MB each, never inflated here). */
function bombas() {
  // The shape: 3.5 GB of shared strings (~3.5 MB here at 1000:1).
  const cadenas = deflateRepetido(
    '<si><t>a</t></si>',
    Math.floor((3.5 * 2 ** 30) / 17),
    '<sst>',
    '</sst>',
  );
  const ss: ParteZip = { nombre: NOMBRE_SS, ...cadenas };
  const hojaChica = parte(
    NOMBRE_HOJA,
    `${HOJA_INICIO}<row r="1"><c r="A1" t="s"><v>0</v></c></row>${HOJA_FIN}`,
  );
  // A sheet of 2 GB of rows.
  const filas = deflateRepetido(
    '<row><c t="inlineStr"><is><t>5512345678</t></is></c></row>',
    Math.floor((2 * 2 ** 30) / 55),
    HOJA_INICIO,
    HOJA_FIN,
  );
  const hoja: ParteZip = { nombre: NOMBRE_HOJA, ...filas };
  // Many tiny parts.
  const muchas = Array.from({ length: 3000 }, (_, i) => parte(`xl/media/p${i}.bin`, 'x'));
  // A deep ratio under every size limit: 900 MB of empty tags from ~1 MB (tags, so no text runs).
  const ceros = deflateRepetido('<c/>'.repeat(MB / 4), 900);
  const profunda: ParteZip = { nombre: NOMBRE_HOJA, ...ceros };
  return {
    cadenas: (mentir: boolean) => zip([...esqueletoXlsx(), hojaChica, ss], { mentir }),
    hoja: (mentir: boolean) => zip([...esqueletoXlsx(), hoja], { mentir }),
    partes: (ocultas: boolean) =>
      zip([...esqueletoXlsx(), hojaChica, ...muchas], ocultas ? { partesDeclaradas: 3 } : {}),
    razon: (mentir: boolean) => zip([...esqueletoXlsx(), profunda], { mentir }),
  };
}

const RAZON = (parte: string) =>
  `El archivo XLSX se expande más de 100 veces su tamaño comprimido en su parte ${parte} (una hoja real no lo hace): guárdelo de nuevo desde Excel o impórtelo como CSV`;
const PARTE_GRANDE = (parte: string) =>
  `El archivo XLSX se expande a más de 1024 MB en su parte ${parte}: divida la lista en varios archivos o impórtela como CSV`;
const PARTES =
  'El archivo XLSX tiene más de 1000 partes internas (un libro de Excel tiene unas decenas): guárdelo de nuevo desde Excel o impórtelo como CSV';

/** What this process's RSS did while `f` ran: before, highest (MB) and how long it took (s). */
async function medir<T>(f: () => Promise<T>) {
  const base = process.memoryUsage.rss();
  let pico = base;
  const reloj = setInterval(() => (pico = Math.max(pico, process.memoryUsage.rss())), 10);
  const inicio = Date.now();
  try {
    const r = await f();
    pico = Math.max(pico, process.memoryUsage.rss());
    return {
      r,
      base: Math.round(base / MB),
      pico: Math.round(pico / MB),
      s: (Date.now() - inicio) / 1000,
    };
  } finally {
    clearInterval(reloj);
  }
}

describe.each(MOTORES)('bombas de importación (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let b: ReturnType<typeof bombas>;
  const medidas: Record<string, unknown>[] = [];

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    b = bombas();
  });
  afterAll(async () => {
    console.log(
      `RSS de la api durante cada bomba (${motor}):\n${medidas.map((m) => JSON.stringify(m)).join('\n')}`,
    );
    await api?.cerrar();
  });

  const carpeta = () => path.join(api.config.dataDir, 'importaciones');
  const restos = () => (fs.existsSync(carpeta()) ? fs.readdirSync(carpeta()) : []);

  /** Uploads `cuerpo` as the multipart field `file` (a Buffer, or chunks streamed). */
  async function subir(nombre: string, cuerpo: Buffer | AsyncIterable<Buffer>) {
    if (Buffer.isBuffer(cuerpo)) {
      const form = new FormData();
      form.append('file', new Blob([cuerpo]), nombre);
      const res = await fetch(`${api.url}/telefonos/importar/`, {
        method: 'POST',
        body: form,
        headers: { authorization: admin },
      });
      return { status: res.status, body: (await res.json()) as any };
    }
    const limite = `pregon${Date.now()}`;
    async function* partes() {
      yield Buffer.from(
        `--${limite}\r\nContent-Disposition: form-data; name="file"; filename="${nombre}"\r\nContent-Type: text/csv\r\n\r\n`,
      );
      yield* cuerpo as AsyncIterable<Buffer>;
      yield Buffer.from(`\r\n--${limite}--\r\n`);
    }
    const res = await fetch(`${api.url}/telefonos/importar/`, {
      method: 'POST',
      body: partes() as unknown as RequestInit['body'],
      duplex: 'half',
      headers: { authorization: admin, 'content-type': `multipart/form-data; boundary=${limite}` },
    } as RequestInit);
    return { status: res.status, body: (await res.json()) as any };
  }

  /** Polls the job until it leaves 'en_proceso' (what a person waits for). */
  async function esperarFin(id: number) {
    const limite = Date.now() + 60_000;
    for (;;) {
      const r = await pedir(api.url, 'GET', `/telefonos/importar/${id}/`, { token: admin });
      if (r.body.estatus !== 'en_proceso') return r.body;
      if (Date.now() > limite) throw new Error('la importación no terminó');
      await new Promise((ok) => setTimeout(ok, 20));
    }
  }

  /** Sends a bomb whose declared sizes give it away: a 413 at upload naming the limit. */
  async function rechazadaAlSubir(bomba: string, archivo: Buffer, mensaje: string) {
    const m = await medir(() => subir('bomba.xlsx', archivo));
    expect(m.r).toMatchObject({ status: 413, body: { mensaje } });
    medidas.push({ bomba, subido_mb: +(archivo.length / MB).toFixed(1), ...m, r: m.r.status });
    expect(m.pico - m.base).toBeLessThan(CRECIMIENTO_MAX_MB);
    expect(restos()).toEqual([]);
  }

  /** Sends a bomb that passes the upload's check: the job fails within seconds naming the limit,
   * the api stays up and its RSS bounded, and nothing is left on disk. */
  async function cortadaAlLeer(
    bomba: string,
    nombre: string,
    cuerpo: Buffer | AsyncIterable<Buffer>,
    mensaje: string,
    crecimientoMax = CRECIMIENTO_MAX_MB,
  ) {
    let subida = 0;
    const m = await medir(async () => {
      const inicio = Date.now();
      const r = await subir(nombre, cuerpo);
      subida = (Date.now() - inicio) / 1000;
      expect(r.status).toBe(200);
      return esperarFin(r.body.id_importacion);
    });
    expect(m.r).toMatchObject({ estatus: 'fallida', mensaje: `La importación falló: ${mensaje}` });
    medidas.push({ bomba, ...m, subida_s: subida, r: m.r.estatus });
    // Refused within seconds of the upload (the reading thread's start included, slower under
    // load when it compiles its TypeScript through tsx).
    expect(m.s - subida).toBeLessThan(15);
    expect(m.pico - m.base).toBeLessThan(crecimientoMax);
    expect(restos()).toEqual([]);
    expect((await pedir(api.url, 'GET', '/health')).status).toBe(200);
  }

  it('textos compartidos que se inflan a 3.5 GB: 413 al subir si lo declaran, cortados al inflarse si mienten', async () => {
    await rechazadaAlSubir(
      'cadenas 3.5 GB (declaradas)',
      b.cadenas(false),
      PARTE_GRANDE(NOMBRE_SS),
    );
    await cortadaAlLeer(
      'cadenas 3.5 GB (ocultas)',
      'bomba.xlsx',
      b.cadenas(true),
      RAZON(NOMBRE_SS),
    );
  });

  it('una hoja que se infla a 2 GB: 413 al subir, o cortada al inflarse sin dejar su copia en disco', async () => {
    await rechazadaAlSubir('hoja 2 GB (declarada)', b.hoja(false), PARTE_GRANDE(NOMBRE_HOJA));
    await cortadaAlLeer('hoja 2 GB (oculta)', 'bomba.xlsx', b.hoja(true), RAZON(NOMBRE_HOJA));
  });

  it('3000 partes: 413 al subir; las que el directorio central oculta no se leen', async () => {
    await rechazadaAlSubir('3000 partes (declaradas)', b.partes(false), PARTES);
    // Only the parts the central directory lists are read: here a sheet without a phone column.
    await cortadaAlLeer(
      '3000 partes (ocultas)',
      'bomba.xlsx',
      b.partes(true),
      'El archivo no tiene la columna "telefono" en la primera fila (columnas: telefono, nombre, estado, categorias)',
    );
  });

  it('razón 1000:1 bajo todos los límites de tamaño (900 MB de etiquetas vacías): 413 al subir, o cortada al inflarse', async () => {
    await rechazadaAlSubir('razón 1000:1 (declarada)', b.razon(false), RAZON(NOMBRE_HOJA));
    await cortadaAlLeer('razón 1000:1 (oculta)', 'bomba.xlsx', b.razon(true), RAZON(NOMBRE_HOJA));
  });

  it('un CSV de 150 MB en un solo campo se rechaza al pasar el largo de un registro', async () => {
    const trozo = Buffer.alloc(MB, 'x');
    async function* cuerpo() {
      yield Buffer.from('telefono,nombre\r\n5512345678,"');
      for (let i = 0; i < 150; i++) yield trozo;
    }
    await cortadaAlLeer(
      'CSV de un campo de 150 MB',
      'campo.csv',
      cuerpo(),
      `La fila 2 tiene más de ${MAX_CARACTERES_FILA_IMPORTACION} caracteres: revise el archivo (¿comillas sin cerrar o sin saltos de línea?)`,
    );
  });

  it('al arrancar, la api borra lo que una importación interrumpida dejó en DATA_DIR/importaciones', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-restos-'));
    const dir = path.join(dataDir, 'importaciones');
    fs.mkdirSync(dir);
    const viejo = new Date(Date.now() - IMPORTACION_SIN_AVANCE_MS - 60_000);
    for (const f of ['caida.xlsx', 'caida.xlsx.hoja1', 'caida.csv']) {
      fs.writeFileSync(path.join(dir, f), 'x');
      fs.utimesSync(path.join(dir, f), viejo, viejo);
    }
    // On PostgreSQL another api process sharing DATA_DIR may be importing this one right now.
    fs.writeFileSync(path.join(dir, 'en-curso.csv'), 'x');
    const otra = await levantarApi(motor, { DATA_DIR: dataDir });
    try {
      expect(fs.readdirSync(dir)).toEqual(motor === 'postgres' ? ['en-curso.csv'] : []);
    } finally {
      await otra.cerrar();
    }
  });
});
