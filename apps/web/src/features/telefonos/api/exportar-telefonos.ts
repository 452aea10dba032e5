import {
  MAX_TAMANO_PAGINA,
  exportarTelefonosCsv,
  type TelefonoDetalle,
} from '@pregon/contract/api/telefonos';
import { msg } from '@pregon/contract/messages';
import { descargarArchivo } from '../../../lib/descargar-archivo.ts';
import { descargarXlsx } from '../../../lib/hoja-calculo.ts';
import { filtrosDe, obtenerTelefonos, type FiltrosLista } from './obtener-telefonos.ts';

/** Most phones the browser exports to .xlsx (beyond it the tab would hold too many rows). */
export const MAX_EXPORTAR = 20_000;

/** Exports the phones of the current filter as .xlsx, reading GET /telefonos/ page by page; a
 * filter with more than MAX_EXPORTAR phones is not written (the tab would hold too many rows):
 * returns false then, and the caller offers the server's CSV (exportarTelefonosServidor). */
export async function exportarTelefonos(f: FiltrosLista) {
  const filas: TelefonoDetalle[] = [];
  // Page by cursor (despues = the last id read): each page costs the same, however deep.
  for (let despues: number | undefined; ;) {
    const r = await obtenerTelefonos({
      ...filtrosDe(f),
      page: 1,
      size: MAX_TAMANO_PAGINA,
      despues,
    });
    filas.push(...r.data);
    if (filas.length > MAX_EXPORTAR) return false;
    if (!r.hay_siguiente || r.data.length === 0) break;
    despues = r.data[r.data.length - 1]!.id_telefono;
  }
  await descargarXlsx(
    'telefonos',
    [
      { titulo: 'telefono', campo: 'telefono' },
      { titulo: 'nombre', campo: 'nombre' },
      { titulo: 'estado', campo: 'estado' },
      { titulo: 'categorias', campo: 'categorias' },
    ],
    filas.map((t) => ({
      ...t,
      categorias: t.categorias.map((c) => c.categoria).join(','),
    })),
    msg('menuTelefonos'),
  );
  return true;
}

/** Every phone of the filter as CSV, streamed by the server (GET /telefonos/csv/). */
export function exportarTelefonosServidor(f: FiltrosLista) {
  return descargarArchivo(exportarTelefonosCsv, {}, `${msg('archivoTelefonos')}.csv`, filtrosDe(f));
}
