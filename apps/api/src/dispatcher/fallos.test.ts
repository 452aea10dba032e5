import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { SimuladorAndroid } from '@pregon/simulators/android';
import { duplicados } from '@pregon/simulators/comun';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { openDb, type Db } from '@pregon/db/database';
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

// Crash tolerance with real processes: standalone dispatchers (`tsx main-despachador.ts`) over
// PostgreSQL, SIGKILLed at random moments and restarted; and two dispatchers sharing one exercise.

describe('despachador como proceso aparte sobre PostgreSQL', () => {
  let db: Db;
  let url: string;
  let borrar: () => Promise<void>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-fallos-'));

  const { lanzar: lanzarCon, matar, todos } = despachadoresHijos();
  const lanzar = () =>
    lanzarCon({
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DESPACHO_LEASE_MS: '2000',
      DESPACHO_RECUPERACION_MS: '500',
      DESPACHO_SONDEO_MS: '200',
      DESPACHO_BACKOFF_MS: '200',
      DESPACHO_TIMEOUT_MS: '1500',
    });
  const enviados = async (id: number) => {
    const c = await porEstatus(db, id);
    return (c.enviado ?? 0) + (c.entregado ?? 0) + (c.incierto ?? 0);
  };

  /** Runs the exercise to completion while SIGKILLing the dispatcher `kills` times. */
  async function conMuertes(id: number, n: number, kills: number): Promise<number> {
    let h = lanzar();
    let hechas = 0;
    while (hechas < kills) {
      const desde = await enviados(id);
      // Let it work a random while (some progress at least), then kill it mid-flight.
      await esperarQue(
        async () => (await enviados(id)) > desde + 50 || (await banderas(db, id)).completado,
        'avance',
        60_000,
      );
      await new Promise((r) => setTimeout(r, 200 + Math.random() * 1500));
      if ((await banderas(db, id)).completado) break;
      await matar(h, 'SIGKILL');
      hechas++;
      h = lanzar();
    }
    await esperarCompletado(db, id, 240_000);
    await matar(h, 'SIGTERM');
    expect(await enviados(id)).toBe(n);
    return hechas;
  }

  beforeAll(async () => {
    ({ url, borrar } = await crearBasePostgres());
    db = openDb({ databaseUrl: url });
    // Dropping the database at the end ends idle connections; that is expected here.
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
    'Android: 8 000 destinatarios, ≥5 SIGKILL: cada uno recibe exactamente un mensaje',
    { timeout: 600_000 },
    async () => {
      const sim = new SimuladorAndroid({ latenciaMs: 2, retrasoReciboMs: 100 });
      await sim.iniciar();
      try {
        const n = 8_000;
        // 10 per port and second, 500 a second: a dispatcher's life between two kills (progress,
        // then at most 1.7 s) sends at most ~900, so five lives never finish the drill. At 100 a
        // quiet machine sent it all in four (5,000 a second).
        const id_equipo = await crearEquipo(db, {
          protocolo: 'android',
          url: sim.url,
          tasa: 10,
          puertos: 50,
        });
        const id = await crearEjercicio(db, { id_equipo, n, puertos: 50 });
        // On a failure, what the rows and the gateway hold says which side lost or doubled one.
        const diagnostico = async () => {
          const rs = await filas(db, id);
          const dup = duplicados(sim.registro);
          console.log(
            'Android',
            await porEstatus(db, id),
            await banderas(db, id),
            rs.filter((r) => r.estatus !== 'enviado' && r.estatus !== 'entregado').slice(0, 20),
            `registro ${sim.registro.length}, duplicados ${dup.size}`,
            [...dup].slice(0, 10),
          );
        };
        let kills = 0;
        let rs: Awaited<ReturnType<typeof filas>> = [];
        try {
          kills = await conMuertes(id, n, 6);
          expect(kills).toBeGreaterThanOrEqual(5);
          rs = await filas(db, id);
          expect(rs.every((r) => r.estatus === 'enviado' || r.estatus === 'entregado')).toBe(true);
          expect(sim.registro).toHaveLength(n);
          expect(duplicados(sim.registro).size).toBe(0);
          expect(new Set(sim.registro.map((m) => m.telefono.replace(/^\+52/, '')))).toEqual(
            new Set(rs.map((r) => r.telefono)),
          );
        } catch (e) {
          await diagnostico();
          throw e;
        }
        console.log(
          `Android: ${kills} SIGKILL, ${sim.duplicadosRechazados} reenvíos con el mismo id rechazados por la pasarela, ` +
            `${rs.filter((r) => r.intentos > 1).length} filas con más de un intento`,
        );
      } finally {
        await sim.detener();
      }
    },
  );

  it(
    'SMPP: ninguno se pierde y los que estaban en vuelo al morir quedan inciertos, sin reenviarse',
    { timeout: 600_000 },
    async () => {
      const sim = new SimuladorSmpp({ latenciaMs: 5, retrasoReciboMs: 100 });
      await sim.iniciar();
      try {
        const n = 5_000;
        const id_equipo = await crearEquipo(db, {
          protocolo: 'smpp',
          url: sim.url,
          tasa: 100,
          puertos: 50,
        });
        const id = await crearEjercicio(db, { id_equipo, n, puertos: 50, base: 50_000 });
        const kills = await conMuertes(id, n, 5).catch(async (e) => {
          console.log(
            'SMPP',
            await porEstatus(db, id),
            (await filas(db, id)).slice(0, 1),
            await banderas(db, id),
          );
          throw e;
        });
        const rs = await filas(db, id);
        const recibidos = new Set(sim.registro.map((m) => m.id));
        const telefonos = new Set(sim.registro.map((m) => m.telefono.replace(/^\+52/, '')));
        for (const r of rs) {
          if (r.estatus === 'enviado' || r.estatus === 'entregado')
            expect(recibidos.has(r.id_gateway!)).toBe(true);
          else expect(r.estatus).toBe('incierto');
          if (!telefonos.has(r.telefono)) expect(r.estatus).toBe('incierto');
        }
        expect(duplicados(sim.registro).size).toBe(0);
        const inciertos = rs.filter((r) => r.estatus === 'incierto');
        expect(inciertos.length).toBeLessThanOrEqual(kills * 50);
        if (inciertos.length) expect(inciertos[0]!.motivo).toMatch(/reenvío idempotente/);
        console.log(
          `SMPP: ${kills} SIGKILL, ${inciertos.length} inciertos, ${sim.registro.length} recibidos de ${n}`,
        );
      } finally {
        await sim.detener();
      }
    },
  );

  it(
    'dos despachadores comparten un ejercicio y nadie recibe dos mensajes',
    { timeout: 300_000 },
    async () => {
      const sim = new SimuladorSmpp({ latenciaMs: 2, retrasoReciboMs: 50 });
      await sim.iniciar();
      try {
        const n = 4_000;
        const id_equipo = await crearEquipo(db, {
          protocolo: 'smpp',
          url: sim.url,
          tasa: 100,
          puertos: 40,
        });
        const id = await crearEjercicio(db, {
          id_equipo,
          n,
          puertos: 40,
          base: 70_000,
          iniciar: false,
        });
        const a = lanzar();
        const b = lanzar();
        // Both up before the drill starts (each LISTENs for the api's wake-ups as it starts):
        // under CI's load one child once took longer to start than the 4,000 messages took to
        // send, and the other sent them all (one origin, not two).
        await esperarQue(
          async () =>
            Number(
              (
                await sql<{ n: number | string }>`select count(*) as n from pg_stat_activity
                  where datname = current_database() and query ilike 'listen %'`.execute(db.kysely)
              ).rows[0]!.n,
            ) >= 2,
          'los dos despachadores en marcha',
          60_000,
        );
        await db.kysely
          .updateTable('ejercicios')
          .set({ en_proceso: 1, iniciado: Date.now() })
          .where('id_ejercicio', '=', id)
          .execute();
        await esperarCompletado(db, id, 240_000);
        await Promise.all([matar(a, 'SIGTERM'), matar(b, 'SIGTERM')]);
        expect(sim.registro).toHaveLength(n);
        expect(duplicados(sim.registro).size).toBe(0);
        const porOrigen = new Map<string, number>();
        for (const m of sim.registro) porOrigen.set(m.origen!, (porOrigen.get(m.origen!) ?? 0) + 1);
        // Both raced for the same queue; how the 4,000 split is up to the device's port leases
        // (issue 45.1: a dispatcher that keeps all 40 ports busy keeps its lease, so the other
        // may get none; stop 55's final run saw 4,000 + 0, stop 53's 3,481 + 519). What must
        // hold whatever the split: one or two origins, nobody twice, every row accounted for.
        expect(porOrigen.size).toBeGreaterThanOrEqual(1);
        expect(porOrigen.size).toBeLessThanOrEqual(2);
        const c = await porEstatus(db, id);
        expect((c.enviado ?? 0) + (c.entregado ?? 0)).toBe(n);
        console.log(`dos despachadores: ${[...porOrigen.values()].join(' + ')} mensajes`);
      } finally {
        await sim.detener();
      }
    },
  );
});
