import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** What a thread's task receives as workerData: its own module's URL and its data. */
export interface DatosHilo<T> {
  modulo: string;
  datos: T;
}

/** Starts a worker thread running the TypeScript module `modulo` (a URL, usually
 * `new URL('./x-tarea.ts', import.meta.url)`), which reads `datos` from workerData.datos. */
export function iniciarHilo<T>(modulo: URL, datos: T): Worker {
  const workerData: DatosHilo<T> = { modulo: modulo.href, datos };
  // Compiled (scripts/construir-servidores.mjs): this code is inside a bundle, and each task is a
  // bundle of its own beside it, `<task>.mjs`, that runs without tsx.
  if (!import.meta.url.endsWith('.ts')) {
    const tarea = path.basename(modulo.pathname).replace(/\.ts$/, '.mjs');
    return new Worker(new URL(`./${tarea}`, import.meta.url), { workerData });
  }
  return new Worker(new URL('./arranque.mjs', import.meta.url), { workerData });
}
