import { describe, expect, it } from 'vitest';
import { MOTORES } from '../../testing/entorno.ts';
import { escenaHijosAmi } from '../../testing/despacho-ami.ts';
import { esperarCompletado, esperarQue, filas } from '@pregon/despacho/testing/comun';

// A call's lease is a short one renewed while the call lasts, not the longest a call could last.
// A dispatcher (a real process) places 20 calls of 10 s with a lease of 800 ms: while it lives
// nobody else takes them (on PostgreSQL a second dispatcher sweeps beside it); once it is
// SIGKILLed, the next dispatcher finds them past their lease within a second and follows each to
// its end, from CoreShowChannels, instead of calling them 'incierto' once they have ended unseen.

const N = 20;
const AUDIO_S = 10;

describe.each(MOTORES)('el lease de una llamada en vuelo (%s)', (motor) => {
  const e = escenaHijosAmi(motor, 'llamadas-lease', {
    audioS: AUDIO_S,
    guiones: [{ patron: /\d$/, accion: 'contestar', timbreMs: 200 }],
  });
  const lanzar = () =>
    e.lanzar({
      DESPACHO_LEASE_MS: '800',
      DESPACHO_RECUPERACION_MS: '200',
      DESPACHO_SONDEO_MS: '100',
      DESPACHO_TIMBRE_MS: '3000',
    });

  it(
    'renewed while its dispatcher lives, followed to its end once it dies',
    { timeout: 90_000 },
    async () => {
      const { db, sim } = e;
      const id = await e.ejercicio({ n: N, puertos: N, tasa: 50 });
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
      expect(e.hallado.vivas).toBe(0);
      expect(sim.vivasAhora).toBe(N);

      await e.matar(a.h, 'SIGKILL');
      const muerto = Date.now();
      const c = b ?? lanzar();
      await esperarQue(
        async () => c.hallado.vivas + c.hallado.inciertas >= N,
        'las llamadas halladas',
      );
      // Found well before the calls end (10 s from their answer): followed, none uncertain.
      expect(c.hallado).toEqual({ vivas: N, sinMarcar: 0, inciertas: 0 });
      expect(sim.vivasAhora).toBe(N);
      expect(Date.now() - muerto).toBeLessThan(AUDIO_S * 1000 - 2_500);

      await esperarCompletado(db, id, 30_000);
      await e.matar(c.h, 'SIGTERM');
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
