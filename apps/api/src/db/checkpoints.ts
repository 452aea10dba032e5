import type { Worker } from 'node:worker_threads';
import { iniciarHilo } from '../hilos/hilo.ts';

// Checkpoints in their own thread while a long bulk write runs on SQLite. In WAL mode every commit
// appends the pages it changed to the WAL, and the connection that commits past
// wal_autocheckpoint pages copies them back into the database there and then, fsyncs included:
// during a million-row import that was a ~0.3 s stall every few batches on the api's thread.
// SQLite's documentation suggests running checkpoints from another thread in such cases: this one
// runs a PASSIVE checkpoint (never blocks the writer) every few milliseconds, so the writer's own
// automatic checkpoint, kept as a bound on the WAL's size, finds little left to copy.

/** Where the thread checkpoints, and how often. */
export interface OpcionesCheckpoints {
  archivo: string;
  cadaMs: number;
}

/** A running checkpoint thread. */
export interface HiloCheckpoints {
  /** Stops the thread (after its current checkpoint) and waits for it to close its connection. */
  terminar(): Promise<void>;
}

/** Starts the checkpoint thread for the SQLite file `archivo`. A thread that fails is logged and
 * left stopped: the writer's automatic checkpoints still run. */
export function iniciarCheckpoints(archivo: string, cadaMs = 100): HiloCheckpoints {
  const hilo: Worker = iniciarHilo(new URL('./checkpoints-tarea.ts', import.meta.url), {
    archivo,
    cadaMs,
  } satisfies OpcionesCheckpoints);
  const fin = new Promise<void>((ok) => hilo.once('exit', () => ok()));
  hilo.on('error', (e) => console.error('hilo de checkpoints de SQLite:', e));
  return {
    async terminar() {
      hilo.postMessage('fin');
      await fin;
    },
  };
}
