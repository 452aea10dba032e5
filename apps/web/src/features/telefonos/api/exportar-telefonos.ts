import { MAX_TAMANO_PAGINA, type TelefonoDetalle } from '@pregon/contract/api/telefonos';
import { msg } from '@pregon/contract/messages';
import { descargarXlsx } from '../../../lib/hoja-calculo.ts';
import { obtenerTelefonos, type FiltroTelefonos } from './get-telefonos.ts';

/** Most phones the browser exports to .xlsx (beyond it the tab would hold too many rows). */
export const MAX_EXPORTAR = 20_000;

/** Exports the phones of the current filter as .xlsx, reading GET /telefonos/ page by page up
 * to MAX_EXPORTAR; returns whether the list was cut there. */
export async function exportarTelefonos(f: Omit<FiltroTelefonos, 'page' | 'size'>) {
  const filas: TelefonoDetalle[] = [];
  let cortada = false;
  for (let page = 1; ; page++) {
    const r = await obtenerTelefonos({ ...f, page, size: MAX_TAMANO_PAGINA });
    filas.push(...r.data);
    if (r.data.length < MAX_TAMANO_PAGINA) break;
    if (filas.length >= MAX_EXPORTAR) {
      cortada = true;
      break;
    }
  }
  await descargarXlsx(
    'telefonos',
    [
      { titulo: 'telefono', campo: 'telefono' },
      { titulo: 'nombre', campo: 'nombre' },
      { titulo: 'estado', campo: 'estado' },
      { titulo: 'categorias', campo: 'categorias' },
    ],
    filas.slice(0, MAX_EXPORTAR).map((t) => ({
      ...t,
      categorias: t.categorias.map((c) => c.categoria).join(','),
    })),
    msg('menuTelefonos'),
  );
  return cortada;
}
