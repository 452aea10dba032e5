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
  return new Worker(new URL('./arranque.mjs', import.meta.url), { workerData });
}
