import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { openDb, type Db } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { seed } from '../db/seed.ts';
import { crearBasePostgres } from '../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../testing/fabrica.ts';
import { despachadoresHijos, esperarQue, porEstatus } from './testing.ts';

// Issue 48.6: after `kill -9` of the process mid-drill, rows stayed 'Enviado' although their
// receipts had come: the SMPP channel answered each deliver_sm_resp at once and kept the receipt
// in memory until the next write, so the SMSC, told it was taken, never delivered it again. Now a
// receipt is answered only once it is durable, and one the dead process held comes again (SMSCs
// store and forward receipts until answered) to the dispatcher that takes over.

describe('acuses SMPP y un despachador que muere antes de escribirlos (PostgreSQL)', () => {
  let db: Db;
  let url: string;
  let borrar: () => Promise<void>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-recibos-caida-'));
  const { lanzar: lanzarCon, matar, todos } = despachadoresHijos();
  const lanzar = () =>
    lanzarCon({
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DESPACHO_LEASE_MS: '2000',
      DESPACHO_RECUPERACION_MS: '500',
      DESPACHO_SONDEO_MS: '200',
    });

  beforeAll(async () => {
    ({ url, borrar } = await crearBasePostgres());
    db = openDb({ databaseUrl: url });
    db.pool?.on('error', () => {});
    await migrate(db);
    await seed(db, { adminUser: 'admin', adminPassword: 'Admin-prueba-1' });
  });
  afterAll(async () => {
    await Promise.all(todos().map((h) => matar(h, 'SIGKILL')));
    await db?.close();
    await borrar?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'los acuses que llegaron mientras la escritura esperaba no se pierden con SIGKILL',
    { timeout: 240_000 },
    async () => {
      const sim = new SimuladorSmpp({ latenciaMs: 2, reintentoReciboMs: 1_000 });
      sim.retenerRecibos = true;
      await sim.iniciar();
      const bloqueo = new pg.Client({ connectionString: url });
      await bloqueo.connect();
      try {
        const n = 20;
        const id_equipo = await crearEquipo(db, { protocolo: 'smpp', url: sim.url, puertos: 5 });
        const id = await crearEjercicio(db, { id_equipo, n, puertos: 5 });
        const a = lanzar();
        // Every row sent and its gateway id written; the SMSC holds the receipts meanwhile.
        await esperarQue(
          async () => (await porEstatus(db, id)).enviado === n,
          'enviados',
          90_000,
          () => porEstatus(db, id),
        );
        // The receipts' write waits behind these row locks, as behind a slow database.
        await bloqueo.query('begin');
        await bloqueo.query(
          'select id_detalle from ejercicio_detalle where id_ejercicio = $1 for update',
          [id],
        );
        sim.soltarRecibos();
        await esperarQue(async () => sim.recibosEscritos >= n, 'acuses escritos', 10_000);
        // They reach the dispatcher over loopback at once; it dies before it could write them.
        await new Promise((r) => setTimeout(r, 1_500));
        await matar(a, 'SIGKILL');
        // A dead client's statement that waits on a lock still runs, and commits, once the lock
        // is free (PostgreSQL notices the lost client only when it answers): end those backends
        // first, as the process's death would have if its write had not been waiting.
        await bloqueo.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()
              and wait_event_type = 'Lock'`,
        );
        await bloqueo.query('rollback');
        expect((await porEstatus(db, id)).enviado).toBe(n);
        const b = lanzar();
        try {
          await esperarQue(
            async () => (await porEstatus(db, id)).entregado === n,
            'todos entregados tras el reinicio',
            90_000,
          ).catch(async (e: unknown) => {
            console.log(await porEstatus(db, id), `reenviados ${sim.recibosReenviados}`);
            throw e;
          });
          // They came again: answered by nobody, delivered again to the new bind.
          expect(sim.recibosReenviados).toBeGreaterThanOrEqual(n);
        } finally {
          await matar(b, 'SIGTERM');
        }
      } finally {
        await bloqueo.end();
        await sim.detener();
      }
    },
  );
});
