import fs from 'node:fs';
import path from 'node:path';
import { MAX_MB_MEMORIA_IMPORTACION } from '@pregon/contract/constants';
import { error, HttpError } from '@pregon/servidor/http/errores';
import { iniciarHilo } from '../hilos/hilo.ts';
import {
  desempacarLote,
  SinColumnaTelefono,
  type LoteValidado,
  type MensajeHilo,
  type OrigenLotes,
  type OrigenPrimeraColumna,
} from './importacion-filas.ts';
import type { FilaLeida } from './importacion-lectores.ts';

// Issue 49.1: the file of an import is read in a worker thread with its own heap limit
// (MAX_MB_MEMORIA_IMPORTACION), so a file that expands past what the readers' limits foresaw
// stops that thread, never the api with its dispatcher and live streams. The thread sends its
// validated batches packed (importacion-filas.ts empacarLote), at most two ahead of the batch
// being written.

/** The validated batches of `o`'s file, read in a thread of its own (importacion-tarea.ts) whose
 * heap is bounded: a limit of the readers arrives as its HttpError (413/400), the thread running
 * out of heap as a 413 naming MAX_MB_MEMORIA_IMPORTACION. Stopping early stops the thread and
 * removes the temporary copies it left beside the file (`${ruta}.hoja{n}`). */
export async function* lotesEnHilo(o: OrigenLotes): AsyncGenerator<LoteValidado> {
  for await (const m of mensajesDelHilo(o)) if (m.tipo === 'lote') yield desempacarLote(m.lote);
}

/** The rows of a list of numbers (the opt-out list's import), each with its first cell only, read
 * in the same bounded thread as the phone import, so a hostile file costs that thread's heap,
 * never the api's. */
export async function* primerasCeldasEnHilo(
  o: Omit<OrigenPrimeraColumna, 'primeraColumna'>,
): AsyncGenerator<FilaLeida[]> {
  for await (const m of mensajesDelHilo({ ...o, primeraColumna: true }))
    if (m.tipo === 'celdas') yield m.filas;
}

/** The batches a reading thread posts for `o`, each asked for once the one before is taken. */
async function* mensajesDelHilo(
  o: OrigenLotes | OrigenPrimeraColumna,
): AsyncGenerator<Extract<MensajeHilo, { tipo: 'lote' | 'celdas' }>> {
  const hilo = iniciarHilo(new URL('./importacion-tarea.ts', import.meta.url), o, {
    maxOldGenerationSizeMb: MAX_MB_MEMORIA_IMPORTACION,
  });
  const cola: MensajeHilo[] = [];
  let fallo: (Error & { code?: string }) | undefined;
  let salio = false;
  let avisar: (() => void) | undefined;
  const despertar = () => {
    avisar?.();
    avisar = undefined;
  };
  hilo.on('message', (m: MensajeHilo) => (cola.push(m), despertar()));
  hilo.on('error', (e) => ((fallo = e), despertar()));
  hilo.on('exit', () => ((salio = true), despertar()));
  try {
    for (;;) {
      while (cola.length === 0 && !fallo && !salio) await new Promise<void>((ok) => (avisar = ok));
      const m = cola.shift();
      if (m?.tipo === 'lote' || m?.tipo === 'celdas') {
        yield m;
        hilo.postMessage('siguiente');
      } else if (m?.tipo === 'fin') return;
      else if (m?.tipo === 'error') {
        if (m.sinTelefono) throw new SinColumnaTelefono();
        if (m.status) throw new HttpError(m.status, m.mensaje, 'file');
        throw new Error(m.mensaje);
      } else if (fallo?.code === 'ERR_WORKER_OUT_OF_MEMORY')
        throw error(413, 'importacionSinMemoria', { mb: MAX_MB_MEMORIA_IMPORTACION }, 'file');
      else throw fallo ?? new Error('el hilo de la importación terminó sin avisar');
    }
  } finally {
    await hilo.terminate();
    await borrarCopias(o.ruta);
  }
}

/** Removes the temporary copies of a file's sheets (`${ruta}.hoja{n}`), which a reading thread
 * stopped from outside could not remove itself. */
export async function borrarCopias(ruta: string): Promise<void> {
  const dir = path.dirname(ruta);
  const prefijo = `${path.basename(ruta)}.hoja`;
  const nombres = await fs.promises.readdir(dir).catch(() => [] as string[]);
  for (const n of nombres)
    if (n.startsWith(prefijo)) await fs.promises.rm(path.join(dir, n), { force: true });
}
