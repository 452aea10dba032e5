import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { DatosHilo } from '../hilos/hilo.ts';
import type { OpcionesLectura, PedidoLectura, RespuestaLectura } from './lectura.ts';

// The reading thread's task: its own read-only connection to the SQLite file runs the long reads
// the api's thread posts (a statement compiled there), one at a time, and posts each one's rows
// back, until the api's thread posts 'fin'.

const { archivo } = (workerData as DatosHilo<OpcionesLectura>).datos;
const puerto = parentPort!;
const db = new Database(archivo, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
puerto.on('message', (m: PedidoLectura | 'fin') => {
  if (m === 'fin') {
    db.close();
    puerto.close();
    return;
  }
  let r: RespuestaLectura;
  try {
    r = { id: m.id, filas: db.prepare(m.sql).all(...m.parametros) };
  } catch (e) {
    r = { id: m.id, error: (e as Error).message };
  }
  puerto.postMessage(r);
});
