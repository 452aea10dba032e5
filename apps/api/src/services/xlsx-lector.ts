import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type ExcelJS from 'exceljs';
import type unzipper from 'unzipper';

// exceljs's streaming WorkbookReader walks the zip's entries with its own iterateStream helper,
// which under load sometimes loses entries (exceljs issue #683, fix proposed in PR #2915, not
// released in 4.4.0): measured here with 4 busy cores, a 4-row file read 400 times in a row lost
// xl/workbook.xml ("Cannot read properties of undefined (reading 'sheets')") or
// xl/sharedStrings.xml (every text cell read as {sharedString: n}, so the header 'telefono' was
// not found and the import failed with nothing processed, as CI saw once).
//
// This reader keeps exceljs's own parsers for each part (relationships, workbook, shared strings,
// worksheet rows) and replaces only the walk: the zip is iterated with Node's own async iterator,
// which honours back-pressure, and every worksheet is first copied to a file beside the upload
// (they usually come before the shared strings in the archive, Excel's own files included), then
// parsed once everything else has been read.

/** The internals of exceljs's WorkbookReader this reader drives (lib/stream/xlsx/workbook-reader.js). */
interface Internos {
  _parseRels(entrada: NodeJS.ReadableStream): Promise<void>;
  _parseWorkbook(entrada: NodeJS.ReadableStream): Promise<void>;
  _parseSharedStrings(entrada: NodeJS.ReadableStream): AsyncGenerator<unknown>;
  _parseWorksheet(
    iterador: AsyncIterable<unknown>,
    hoja: string,
  ): Generator<{ eventType: string; value: unknown }>;
}

const HOJA_RE = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/** The worksheets of the .xlsx at `ruta`, in the archive's order, as exceljs WorksheetReaders.
 * Temporary copies of the sheets go to `${ruta}.hoja{n}` and are removed when the walk ends. */
export async function* hojasXlsx(
  ruta: string,
): AsyncGenerator<ExcelJS.stream.xlsx.WorksheetReader> {
  // Loaded on the first .xlsx import, not at the api's start (~13 MB of the idle heap together).
  const [{ default: Excel }, { default: Unzipper }] = await Promise.all([
    import('exceljs'),
    import('unzipper'),
  ]);
  const libro = new Excel.stream.xlsx.WorkbookReader(ruta, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
  }) as unknown as Internos;
  const copias: { hoja: string; ruta: string }[] = [];
  try {
    const zip = fs.createReadStream(ruta).pipe(Unzipper.Parse({ forceStream: true }));
    for await (const e of zip as AsyncIterable<unzipper.Entry>) {
      const hoja = HOJA_RE.exec(e.path)?.[1];
      if (e.path === 'xl/_rels/workbook.xml.rels') await libro._parseRels(e);
      else if (e.path === 'xl/workbook.xml') await libro._parseWorkbook(e);
      else if (e.path === 'xl/sharedStrings.xml') {
        for await (const _ of libro._parseSharedStrings(e));
      } else if (hoja !== undefined) {
        const copia = { hoja, ruta: `${ruta}.hoja${hoja}` };
        copias.push(copia);
        await pipeline(e, fs.createWriteStream(copia.ruta));
      } else {
        e.autodrain();
      }
    }
    for (const c of copias) {
      for (const ev of libro._parseWorksheet(fs.createReadStream(c.ruta), c.hoja)) {
        if (ev.eventType === 'worksheet') yield ev.value as ExcelJS.stream.xlsx.WorksheetReader;
      }
    }
  } finally {
    for (const c of copias) await fs.promises.rm(c.ruta, { force: true });
  }
}
