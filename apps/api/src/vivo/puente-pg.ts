import crypto from 'node:crypto';
import pg from 'pg';
import type { Eventos } from '../contexto.ts';
import type { Db } from '@pregon/db/database';

/** The PostgreSQL channel that carries 'ejercicio' events between processes. */
export const CANAL_PG = 'pregon_ejercicio';
/** How long local events are gathered before one NOTIFY per exercise goes out (ms). */
export const AGRUPAR_MS = 100;

/** A running bridge; cerrar() stops listening and sends what is pending. */
export interface PuentePg {
  /** This process's origin tag in payloads ('origen:id'); its own notifications are ignored. */
  origen: string;
  cerrar(): Promise<void>;
}

/**
 * Carries the process's 'ejercicio' events across processes on PostgreSQL (ARCHITECTURE 2):
 * local events are gathered per exercise for AGRUPAR_MS and sent as one NOTIFY each (so a
 * dispatcher's stream of progress costs a few notifications a second), and notifications from
 * other processes are emitted locally, so the api's live streams (and its dispatcher) react to
 * a standalone dispatcher, and dispatchers to another api's start or pause. The listening
 * connection is its own client and reconnects after a drop.
 */
export async function puentePostgres(
  db: Db,
  eventos: Eventos,
  alError: (err: unknown) => void = () => {},
): Promise<PuentePg> {
  if (!db.pool) throw new Error('puentePostgres necesita PostgreSQL');
  const pool = db.pool;
  const origen = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const pendientes = new Set<number>();
  let temporizador: NodeJS.Timeout | undefined;
  let reemitiendo = false;
  let cerrado = false;
  let oyente: pg.Client | undefined;

  const enviar = async () => {
    temporizador = undefined;
    const ids = [...pendientes];
    pendientes.clear();
    if (ids.length === 0) return;
    try {
      await pool.query(`select pg_notify($1, x) from unnest($2::text[]) as x`, [
        CANAL_PG,
        ids.map((id) => `${origen}:${id}`),
      ]);
    } catch (err) {
      alError(err);
    }
  };
  const alLocal = (id: number) => {
    if (reemitiendo) return;
    pendientes.add(id);
    temporizador ??= setTimeout(() => void enviar(), AGRUPAR_MS);
  };

  const escuchar = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: pool.options.connectionString });
    c.on('notification', (n) => {
      const [de, id] = (n.payload ?? '').split(':');
      const num = Number(id);
      if (de === origen || !Number.isInteger(num) || num <= 0) return;
      reemitiendo = true;
      try {
        eventos.emit('ejercicio', num);
      } finally {
        reemitiendo = false;
      }
    });
    const caida = (err?: unknown) => {
      if (oyente !== c) return;
      if (err) alError(err);
      oyente = undefined;
      void c.end().catch(() => {});
      reintentar();
    };
    c.on('error', caida);
    c.on('end', () => caida());
    await c.connect();
    await c.query(`listen ${CANAL_PG}`);
    if (cerrado) await c.end();
    else oyente = c;
  };
  const reintentar = () => {
    if (cerrado) return;
    setTimeout(
      () =>
        void escuchar().catch((err) => {
          alError(err);
          reintentar();
        }),
      1000,
    ).unref();
  };

  await escuchar();
  eventos.on('ejercicio', alLocal);
  return {
    origen,
    cerrar: async () => {
      cerrado = true;
      eventos.off('ejercicio', alLocal);
      clearTimeout(temporizador);
      await enviar();
      const c = oyente;
      oyente = undefined;
      await c?.end().catch(() => {});
    },
  };
}
