import type { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import { iniciarHilo } from '../hilos/hilo.ts';
import type { Db } from '@pregon/db/database';

// Long reads off the api's thread on SQLite. better-sqlite3 runs a statement on the calling
// thread: a count that scans a million rows (the phones list's exact total, a search's count)
// held the api, and every request behind it, for its whole length (~100-600 ms measured), and a
// follow-up chain's figures for seconds. Such a
// read goes to a thread with its own read-only connection (WAL lets it read beside the writer);
// PostgreSQL runs a statement on the server, so there it runs as any other.

/** Which file the thread reads. */
export interface OpcionesLectura {
  archivo: string;
}
/** A statement for the thread, compiled by Kysely on the api's thread. */
export interface PedidoLectura {
  id: number;
  sql: string;
  parametros: unknown[];
}
/** The rows of a statement, or its error's message. */
export type RespuestaLectura = { id: number; filas?: unknown[]; error?: string };

interface HiloLectura {
  hilo: Worker;
  pendientes: Map<number, { ok: (f: unknown[]) => void; falla: (e: Error) => void }>;
  siguiente: number;
}

const hilos = new WeakMap<Db, HiloLectura>();

/** The database's reading thread, started on first use and ended when the database closes. */
function hiloDe(db: Db): HiloLectura {
  const ya = hilos.get(db);
  if (ya) return ya;
  const hilo = iniciarHilo(new URL('./lectura-tarea.ts', import.meta.url), {
    archivo: db.sqlite!.name,
  } satisfies OpcionesLectura);
  const h: HiloLectura = { hilo, pendientes: new Map(), siguiente: 0 };
  const fallarTodo = (e: Error) => {
    for (const p of h.pendientes.values()) p.falla(e);
    h.pendientes.clear();
    hilos.delete(db);
  };
  hilo.on('message', (r: RespuestaLectura) => {
    const p = h.pendientes.get(r.id);
    h.pendientes.delete(r.id);
    if (r.error !== undefined) p?.falla(new Error(r.error));
    else p?.ok(r.filas ?? []);
  });
  hilo.on('error', fallarTodo);
  hilo.on('exit', () => fallarTodo(new Error('el hilo de lectura de SQLite terminó')));
  // An idle thread does not keep the process alive; closing the database ends it.
  hilo.unref();
  db.alCerrar?.(async () => {
    if (hilos.get(db) !== h) return;
    hilos.delete(db);
    const fin = new Promise<void>((listo) => hilo.once('exit', () => listo()));
    hilo.postMessage('fin');
    await fin;
  });
  hilos.set(db, h);
  return h;
}

/** The rows of `consulta`: on SQLite from the reading thread (a file database; an in-memory one
 * has no file to share), else as any statement. */
export async function leerFilas<T>(db: Db, consulta: CompiledQuery<T>): Promise<T[]> {
  if (db.engine !== 'sqlite' || !db.sqlite || db.sqlite.memory || !db.alCerrar)
    return (await db.kysely.executeQuery(consulta)).rows;
  const h = hiloDe(db);
  const id = ++h.siguiente;
  return new Promise<T[]>((ok, falla) => {
    h.pendientes.set(id, { ok: (f) => ok(f as T[]), falla });
    h.hilo.ref();
    h.hilo.postMessage({
      id,
      sql: consulta.sql,
      parametros: [...consulta.parameters],
    } satisfies PedidoLectura);
  }).finally(() => {
    if (h.pendientes.size === 0) h.hilo.unref();
  });
}

/** The first row of `consulta`, read as `leerFilas` does. */
export async function leerFila<T>(db: Db, consulta: CompiledQuery<T>): Promise<T | undefined> {
  return (await leerFilas(db, consulta))[0];
}

/** The rows of a statement in batches of `tamano`, iterated on a read-only connection of its own
 * to the SQLite file `archivo`: the shared connection stays free for other requests while the
 * statement is open (WAL lets readers and the writer work at once). For streams (reports, the
 * chain's persons) whose rows must not all sit in memory. */
export function* lotesLectorSqlite<T>(
  archivo: string,
  texto: string,
  parametros: readonly unknown[],
  tamano: number,
): Generator<T[]> {
  const lector = new Database(archivo, { readonly: true, fileMustExist: true });
  try {
    let lote: T[] = [];
    for (const fila of lector.prepare(texto).iterate(...parametros)) {
      lote.push(fila as T);
      if (lote.length >= tamano) {
        yield lote;
        lote = [];
      }
    }
    if (lote.length > 0) yield lote;
  } finally {
    lector.close();
  }
}
