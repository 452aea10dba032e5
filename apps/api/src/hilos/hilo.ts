import path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** What a thread's task receives as workerData: its own module's URL and its data. */
export interface DatosHilo<T> {
  modulo: string;
  datos: T;
}

/** Starts a worker thread running the TypeScript module `modulo` (a URL, usually
 * `new URL('./x-tarea.ts', import.meta.url)`), which reads `datos` from workerData.datos;
 * `limites` bounds its heap (past them the thread stops with ERR_WORKER_OUT_OF_MEMORY, not the
 * process). */
export function iniciarHilo<T>(modulo: URL, datos: T, limites?: ResourceLimits): Worker {
  const workerData: DatosHilo<T> = { modulo: modulo.href, datos };
  const opciones = { workerData, ...(limites ? { resourceLimits: limites } : {}) };
  // Compiled (scripts/construir-servidores.mjs): this code is inside a bundle, and each task is a
  // bundle of its own beside it, `<task>.mjs`, that runs without tsx.
  if (!import.meta.url.endsWith('.ts')) {
    const tarea = path.basename(modulo.pathname).replace(/\.ts$/, '.mjs');
    return new Worker(new URL(`./${tarea}`, import.meta.url), opciones);
  }
  return new Worker(new URL('./arranque.mjs', import.meta.url), opciones);
}
