import { describe, expect, it } from 'vitest';
import { MOTORES } from '../../testing/entorno.ts';
import { escenaHijosAmi } from '../../testing/despacho-ami.ts';
import { esperarCompletado, esperarQue } from '@pregon/despacho/testing/comun';

// Issue 45.1, a dispatcher SIGKILLed mid-drill: a standalone dispatcher (a real process) holds the
// 10 ports of a 10-port device with live calls of 4 s and is killed; the next dispatcher follows
// its live calls, which keep their ports (CapacidadEquipos.tomarSinPedir), and dials the rest as
// they end: the AMI simulator never has more than 10 live channels, and the drill ends.

const PUERTOS = 10;
const N = 30;
const AUDIO_S = 4;
const LEASE_MS = 1_500;

describe.each(MOTORES)('los puertos de un equipo tras un despachador muerto (%s)', (motor) => {
  const e = escenaHijosAmi(motor, 'fallos-capacidad', {
    audioS: AUDIO_S,
    guiones: [{ patron: /\d$/, accion: 'contestar', timbreMs: 100 }],
  });
  const lanzar = () =>
    e.lanzar({
      DESPACHO_LEASE_MS: String(LEASE_MS),
      DESPACHO_RECUPERACION_MS: '200',
      DESPACHO_SONDEO_MS: '100',
      DESPACHO_TIMBRE_MS: '3000',
    });

  it(
    'SIGKILL con los 10 puertos ocupados: nunca más de 10 vivas, y el equipo vuelve a marcar al acabar las llamadas',
    { timeout: 90_000 },
    async () => {
      const { db, sim } = e;
      const id = await e.ejercicio({ n: N, puertos: PUERTOS, tasa: 50 });
      const a = lanzar();
      await esperarQue(async () => sim.vivasAhora === PUERTOS, 'los 10 puertos ocupados');
      await e.matar(a.h, 'SIGKILL');
      const muerto = Date.now();
      const antes = sim.registro.length;
      const b = lanzar();
      let max = 0;
      const reloj = setInterval(() => (max = Math.max(max, sim.vivasAhora)), 20);
      try {
        await esperarCompletado(db, id, 60_000);
      } finally {
        clearInterval(reloj);
        await e.matar(b.h, 'SIGTERM');
      }
      expect(sim.maxVivas).toBeLessThanOrEqual(PUERTOS);
      expect(max).toBeLessThanOrEqual(PUERTOS);
      // The next calls leave once the first ones end (4 s) and the dead one's leases do (1.5 s),
      // plus the new process's start and its recovery sweep: 12.6 and 15.9 s were seen at a load
      // average of 17-19, so the time is printed, not bounded (capacidad-equipo.test.ts bounds
      // the lease itself, in one process).
      const siguiente = sim.registro.slice(antes).map((l) => l.inicio);
      expect(siguiente.length).toBeGreaterThan(0);
      const espera = Math.min(...siguiente) - muerto;
      console.info(
        `[${motor}] primera llamada nueva ${espera} ms tras el SIGKILL; máx ${max} vivas`,
      );
      expect(espera).toBeGreaterThan(0);
    },
  );
});
