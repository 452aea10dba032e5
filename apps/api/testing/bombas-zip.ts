import zlib from 'node:zlib';

// Zip bombs for the import's tests (issue 49.1), built in milliseconds without ever holding what
// they expand to: a chunk is deflated once with a full flush (byte-aligned, no reference back
// into it), so its compressed bytes repeated N times are a valid raw-deflate stream of the chunk
// repeated N times; a final empty block closes it. 1 MB of a repeated tag deflates to ~1 KB.

/** One part of a test zip: its name, raw-deflate data and the size it really inflates to. */
export interface ParteZip {
  nombre: string;
  datos: Buffer;
  descomprimido: number;
  /** Stored (method 0) instead of deflated: `datos` is the part itself. */
  guardado?: boolean;
}

/** Raw deflate of prefijo + trozo × veces + sufijo, and the size it inflates to. */
export function deflateRepetido(
  trozo: string | Buffer,
  veces: number,
  prefijo = '',
  sufijo = '',
): { datos: Buffer; descomprimido: number } {
  const t = Buffer.from(trozo);
  const flush = { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH };
  // The chunk is repeated up to ~1 MB before deflating: a flush costs bytes of its own.
  const porBloque = Math.max(1, Math.min(veces, Math.floor((1 << 20) / t.length)));
  const bloque = zlib.deflateRawSync(Buffer.concat(Array<Buffer>(porBloque).fill(t)), flush);
  const resto = veces % porBloque;
  const ini = zlib.deflateRawSync(
    Buffer.concat([Buffer.from(prefijo), ...Array<Buffer>(resto).fill(t)]),
    flush,
  );
  const fin = zlib.deflateRawSync(Buffer.from(sufijo));
  return {
    datos: Buffer.concat([ini, ...Array<Buffer>(Math.floor(veces / porBloque)).fill(bloque), fin]),
    descomprimido: Buffer.byteLength(prefijo) + t.length * veces + Buffer.byteLength(sufijo),
  };
}

/** A part deflated as it is (small parts: workbook, relationships, a real sheet). */
export function parte(nombre: string, texto: string): ParteZip {
  const b = Buffer.from(texto);
  return { nombre, datos: zlib.deflateRawSync(b), descomprimido: b.length };
}

/** Builds a zip of `partes`. `mentir`: the headers declare each part inflates to its compressed
 * size (ratio 1:1, what a bomb says to pass a check of the declared sizes); `partesDeclaradas`:
 * how many parts the central directory lists (fewer than there are, to hide them). CRCs are 0:
 * the reader never gets to the end of a bomb. */
export function zip(
  partes: ParteZip[],
  o: { mentir?: boolean; partesDeclaradas?: number } = {},
): Buffer {
  const locales: Buffer[] = [];
  const centrales: Buffer[] = [];
  let desplazamiento = 0;
  const declaradas = partes.slice(0, o.partesDeclaradas ?? partes.length);
  partes.forEach((p) => {
    const nombre = Buffer.from(p.nombre);
    const declarado = o.mentir ? p.datos.length : Math.min(p.descomprimido, 0xfffffffe);
    const metodo = p.guardado ? 0 : 8;
    const l = Buffer.alloc(30);
    l.writeUInt32LE(0x04034b50, 0);
    l.writeUInt16LE(20, 4);
    l.writeUInt16LE(0, 6);
    l.writeUInt16LE(metodo, 8);
    l.writeUInt32LE(0, 14);
    l.writeUInt32LE(p.datos.length, 18);
    l.writeUInt32LE(declarado, 22);
    l.writeUInt16LE(nombre.length, 26);
    l.writeUInt16LE(0, 28);
    if (declaradas.includes(p)) {
      const c = Buffer.alloc(46);
      c.writeUInt32LE(0x02014b50, 0);
      c.writeUInt16LE(20, 4);
      c.writeUInt16LE(20, 6);
      c.writeUInt16LE(metodo, 10);
      c.writeUInt32LE(0, 16);
      c.writeUInt32LE(p.datos.length, 20);
      c.writeUInt32LE(declarado, 24);
      c.writeUInt16LE(nombre.length, 28);
      c.writeUInt32LE(desplazamiento, 42);
      centrales.push(c, nombre);
    }
    locales.push(l, nombre, p.datos);
    desplazamiento += 30 + nombre.length + p.datos.length;
  });
  const cd = Buffer.concat(centrales);
  const fin = Buffer.alloc(22);
  fin.writeUInt32LE(0x06054b50, 0);
  fin.writeUInt16LE(declaradas.length, 8);
  fin.writeUInt16LE(declaradas.length, 10);
  fin.writeUInt32LE(cd.length, 12);
  fin.writeUInt32LE(desplazamiento, 16);
  return Buffer.concat([...locales, cd, fin]);
}

const NS = 'http://schemas.openxmlformats.org';

/** The parts every test .xlsx has besides its sheet: a workbook of one sheet and its relations. */
export function esqueletoXlsx(): ParteZip[] {
  return [
    parte(
      'xl/workbook.xml',
      `<workbook xmlns="${NS}/spreadsheetml/2006/main" xmlns:r="${NS}/officeDocument/2006/relationships"><sheets><sheet name="Hoja1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    parte(
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="${NS}/package/2006/relationships"><Relationship Id="rId1" Type="${NS}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
  ];
}

/** The opening and closing of a sheet's XML around its rows. */
export const HOJA_INICIO = `<worksheet xmlns="${NS}/spreadsheetml/2006/main"><sheetData>`;
/** See HOJA_INICIO. */
export const HOJA_FIN = '</sheetData></worksheet>';
