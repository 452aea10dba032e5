import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialplanLlamadas } from '@pregon/contract/rules/dialplan';
import { SimuladorAmi } from '@pregon/simulators/ami';
import { openDb, type Db } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { seed } from '../db/seed.ts';
import { MOTORES, crearBasePostgres } from '../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../testing/fabrica.ts';
import { tonoGsm } from '../testing/audio.ts';
import { despachadoresHijos, esperarCompletado, esperarQue, filas } from './testing.ts';

// A call's lease is a short one renewed while the call lasts, not the longest a call could last.
// A dispatcher (a real process) places 20 calls of 10 s with a lease of 800 ms: while it lives
// nobody else takes them (on PostgreSQL a second dispatcher sweeps beside it); once it is
// SIGKILLed, the next dispatcher finds them past their lease within a second and follows each to
// its end, from CoreShowChannels, instead of calling them 'incierto' once they have ended unseen.

const N = 20;
const AUDIO_S = 10;

describe.each(MOTORES)('el lease de una llamada en vuelo (%s)', (motor) => {
  let db: Db;
  let url: string | undefined;
  let borrar: (() => Promise<void>) | undefined;
  let sim: SimuladorAmi;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-llamadas-lease-'));
  const { lanzar: lanzarCon, matar, todos } = despachadoresHijos('pipe');

  /** Starts a dispatcher; returns what its log said of calls found in flight, summed. */
  const lanzar = () => {
    const h = lanzarCon({
      DATABASE_URL: url ?? '',
      DATA_DIR: dir,
      LOG_LEVEL: 'info',
      DESPACHO_LEASE_MS: '800',
      DESPACHO_RECUPERACION_MS: '200',
      DESPACHO_SONDEO_MS: '100',
      DESPACHO_TIMBRE_MS: '3000',
    });
    const hallado = { vivas: 0, inciertas: 0 };
    h.stdout!.setEncoding('utf8').on('data', (t: string) => {
      for (const m of t.matchAll(
        /(\d+) siguen vivas, \d+ sin marcar vuelven a la cola, (\d+) inciertas/g,
      )) {
        hallado.vivas += Number(m[1]);
        hallado.inciertas += Number(m[2]);
      }
    });
    return { h, hallado };
  };

  beforeAll(async () => {
    if (motor === 'postgres') {
      ({ url, borrar } = await crearBasePostgres());
      db = openDb({ databaseUrl: url });
    } else db = openDb({ sqliteFile: path.join(dir, 'pregon.db') });
    await migrate(db);
    await seed(db, { adminUser: 'admin', adminPassword: 'Admin-prueba-1' });
    for (const d of ['dialplan', 'sonidos']) fs.mkdirSync(path.join(dir, d));
    tonoGsm(path.join(dir, 'sonidos', 'aviso.gsm'), AUDIO_S);
    sim = new SimuladorAmi({
      usuario: 'pregon',
      secreto: 'ami-secreto',
      dirDialplan: path.join(dir, 'dialplan'),
      dirSonidos: path.join(dir, 'sonidos'),
      guiones: [{ patron: /\d$/, accion: 'contestar', timbreMs: 200 }],
    });
    await sim.iniciar();
  });
  afterAll(async () => {
    await Promise.all(todos().map((h) => matar(h, 'SIGKILL')));
    await sim?.detener();
    await db?.close();
    await borrar?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'renewed while its dispatcher lives, followed to its end once it dies',
    { timeout: 90_000 },
    async () => {
      const id_equipo = await crearEquipo(db, {
        protocolo: 'asterisk',
        url: sim.url,
        credenciales: { usuario: 'pregon', secreto: 'ami-secreto', troncal: 'demo' },
        tasa: 50,
        puertos: N,
      });
      const id = await crearEjercicio(db, {
        id_equipo,
        tipo: 2,
        n: N,
        puertos: N,
        accion: 'aviso',
      });
      fs.writeFileSync(
        path.join(dir, 'dialplan', 'pregon-llamadas.conf'),
        dialplanLlamadas([{ id_ejercicio: id, audio: 'aviso', segundos: 35 }]),
      );
      sim.recargar();
      const enCurso = async () =>
        (await filas(db, id)).filter((f) => f.estatus === 'en_curso' && f.salio === 1);

      const a = lanzar();
      await esperarQue(
        async () => sim.registro.filter((l) => l.contestada).length === N,
        'las 20 llamadas contestadas',
      );
      // A second dispatcher sweeps beside the first (PostgreSQL: several share a database).
      const b = motor === 'postgres' ? lanzar() : undefined;
      // Three leases later every call is still this dispatcher's, leased ahead of now.
      await new Promise((r) => setTimeout(r, 2_500));
      const antes = await enCurso();
      expect(antes).toHaveLength(N);
      const ahora = Date.now();
      for (const f of antes) expect(f.lease_hasta!, f.telefono).toBeGreaterThan(ahora);
      for (const f of antes) expect(f.lease_hasta!, f.telefono).toBeLessThan(ahora + 1_000);
      expect(a.hallado.vivas + (b?.hallado.vivas ?? 0)).toBe(0);
      expect(sim.vivasAhora).toBe(N);

      await matar(a.h, 'SIGKILL');
      const muerto = Date.now();
      const c = b ?? lanzar();
      await esperarQue(
        async () => c.hallado.vivas + c.hallado.inciertas >= N,
        'las llamadas halladas',
      );
      // Found well before the calls end (10 s from their answer): followed, none uncertain.
      expect(c.hallado).toEqual({ vivas: N, inciertas: 0 });
      expect(sim.vivasAhora).toBe(N);
      expect(Date.now() - muerto).toBeLessThan(AUDIO_S * 1000 - 2_500);

      await esperarCompletado(db, id, 30_000);
      await matar(c.h, 'SIGTERM');
      const rs = await filas(db, id);
      expect(rs.map((f) => f.estatus)).toEqual(Array(N).fill('contestado'));
      // Each recipient called once, its talk time as Asterisk saw it.
      expect(sim.registro).toHaveLength(N);
      for (const f of rs) {
        const l = sim.registro.find((x) => x.numero === f.telefono)!;
        expect(l.uniqueid).toBe(`pregon-${f.id_detalle}-1`);
        expect(
          Math.abs(f.duracion! - Math.round((l.fin! - l.contestada!) / 1000)),
        ).toBeLessThanOrEqual(1);
      }
    },
  );
});
