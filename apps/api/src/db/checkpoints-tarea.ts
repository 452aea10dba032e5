import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { DatosHilo } from '../hilos/hilo.ts';
import type { OpcionesCheckpoints } from './checkpoints.ts';

// The checkpoint thread's task: its own connection to the SQLite file runs a PASSIVE checkpoint
// every `cadaMs` (it copies what the WAL holds back into the database without waiting for, or
// blocking, the writer) until the api's thread posts 'fin'.

const { archivo, cadaMs } = (workerData as DatosHilo<OpcionesCheckpoints>).datos;
const puerto = parentPort!;
const db = new Database(archivo, { fileMustExist: true });
const reloj = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Another checkpoint running (SQLITE_BUSY) or a passing lock: the next tick tries again.
  }
}, cadaMs);
puerto.on('message', (m) => {
  if (m !== 'fin') return;
  clearInterval(reloj);
  db.close();
  puerto.close();
});
