import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { duplicados } from '@pregon/simulators/comun';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { openDb, type Db } from '@pregon/db/database';
import type { Engine } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { seed } from '../db/seed.ts';
import { crearBasePostgres } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import {
  banderas,
  esperarCompletado,
  esperarQue,
  filas,
  porEstatus,
} from '@pregon/despacho/testing/comun';
import { despachadoresHijos } from '../../testing/despacho-hijos.ts';

// Issue 48.6: after `kill -9` of the api mid-drill (SMS through an SMSC that delivers receipts
// a while after the submit, as real ones do), rows stayed 'Enviado' although their receipts had
// come, and one stayed 'Incierto' with 'acuse sin destinatario' in the log. A standalone
// dispatcher (`tsx main-despachador.ts`, the api's own dispatcher code) is SIGKILLed three times
// while receipts are in flight (some on the wire unanswered, some in the SMSC's timers, some
// whose submit answer was not written yet) and restarted; the SMSC re-delivers the receipts it
// got no deliver_sm_resp for at the next bind. Every row the SMSC took must end with its
// receipt's state ('entregado'), nobody sent twice, on both engines.

const MOTORES: Engine[] = ['sqlite', 'postgres'];

describe.each(MOTORES)('acuses SMPP a través de SIGKILL (%s)', (motor) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-fallos-recibos-'));
  const { lanzar: lanzarCon, matar, todos } = despachadoresHijos();
  let db: Db | undefined;
  let borrar: (() => Promise<void>) | undefined;

  afterAll(async () => {
    await Promise.all(todos().map((h) => matar(h, 'SIGKILL')));
    await db?.close();
    await borrar?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'los acuses en vuelo al morir llegan a su fila: ninguno queda Enviado ni Incierto por un acuse sin fila',
    { timeout: 400_000 },
    async () => {
      let url = '';
      if (motor === 'postgres') {
        ({ url, borrar } = await crearBasePostgres());
        db = openDb({ databaseUrl: url });
        db.pool?.on('error', () => {});
      } else db = openDb({ sqliteFile: path.join(dataDir, 'pregon.db') });
      await migrate(db);
      await seed(db, { adminUser: 'admin', adminPassword: 'Admin-prueba-1' });
      const base = db;
      const lanzar = () =>
        lanzarCon({
          ...(url ? { DATABASE_URL: url } : { DATABASE_URL: '' }),
          DATA_DIR: dataDir,
          LOG_LEVEL: 'silent',
          DESPACHO_LEASE_MS: '2000',
          DESPACHO_RECUPERACION_MS: '500',
          DESPACHO_SONDEO_MS: '200',
          DESPACHO_BACKOFF_MS: '200',
          DESPACHO_TIMEOUT_MS: '1500',
        });
      // Receipts 300-1,500 ms after the submit: at any kill hundreds are on their way.
      const sim = new SimuladorSmpp({ latenciaMs: 3, retrasoReciboMs: 900 });
      await sim.iniciar();
      try {
        const n = 2_000;
        const id_equipo = await crearEquipo(base, {
          protocolo: 'smpp',
          url: sim.url,
          tasa: 30,
          puertos: 10,
        });
        const id = await crearEjercicio(base, { id_equipo, n, puertos: 10 });
        const salidos = async () => {
          const c = await porEstatus(base, id);
          return (c.enviado ?? 0) + (c.entregado ?? 0) + (c.incierto ?? 0);
        };
        let h = lanzar();
        let kills = 0;
        while (kills < 3) {
          const desde = await salidos();
          await esperarQue(
            async () => (await salidos()) > desde + 150 || (await banderas(base, id)).completado,
            'avance',
            90_000,
          );
          await new Promise((r) => setTimeout(r, 200 + Math.random() * 600));
          if ((await banderas(base, id)).completado) break;
          await matar(h, 'SIGKILL');
          kills++;
          h = lanzar();
        }
        await esperarCompletado(base, id, 240_000);
        const tomados = new Set(sim.registro.map((m) => m.telefono.replace(/^\+52/, '')));
        // Every receipt the SMSC delivered is applied within a few sweeps of the last start.
        const pendientes = async () =>
          (await filas(base, id)).filter(
            (r) => tomados.has(r.telefono) && r.estatus !== 'entregado',
          );
        await esperarQue(
          async () => (await pendientes()).length === 0,
          'cada fila que el SMSC tomó, entregada',
          60_000,
          async () => ({
            porEstatus: await porEstatus(base, id),
            ejemplos: (await pendientes()).slice(0, 5),
            reenviados: sim.recibosReenviados,
          }),
        );
        await matar(h, 'SIGTERM');
        const rs = await filas(base, id);
        expect(kills).toBe(3);
        expect(duplicados(sim.registro).size).toBe(0);
        for (const r of rs)
          if (tomados.has(r.telefono)) expect(r.estatus).toBe('entregado');
          // Never reached the SMSC (in flight at a kill, no answer): uncertain, never resent.
          else expect(r.estatus).toBe('incierto');
        // No receipt left waiting for a row.
        const esperan = await base.kysely
          .selectFrom('recibos_en_espera')
          .select((e) => e.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(esperan.n)).toBe(0);
        const c = await porEstatus(base, id);
        // A row whose submit answer died unwritten has no send date: its receipt found it by its
        // recipient (recibos_en_espera, aplicarPorTelefono).
        const porTelefono = rs.filter((r) => r.estatus === 'entregado' && !r.fecha_envio).length;
        console.log(
          `${motor}: ${kills} SIGKILL, ${JSON.stringify(c)}, ${sim.registro.length} tomados por el SMSC, ` +
            `${sim.recibosReenviados} acuses reenviados por el SMSC, ${porTelefono} filas halladas por su destinatario`,
        );
      } finally {
        await sim.detener();
      }
    },
  );
});
