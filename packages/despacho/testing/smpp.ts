import { afterEach } from 'vitest';
import { SimuladorSmpp, type OpcionesSmpp } from '@pregon/simulators/smpp';
import { canalDe, type Canal, type Recibo } from '../src/canal.ts';
import '../src/canales/smpp/canal.ts';
import type { ConfigDespachador } from '../src/config.ts';
import { CONFIG_PRUEBA } from './comun.ts';

// The SMPP channel alone against a simulator over loopback, for the channel's own tests.

/** A channel under test, its SMSC, and what it reported. */
export interface PruebaSmpp {
  sim: SimuladorSmpp;
  canal: Canal;
  recibos: Recibo[];
  /** What the channel reported as receipts it could not apply. */
  sinDestino: string[];
}

/**
 * A factory of SMPP channels bound as system_id 'u' / password 'p' to a simulator of their own
 * (or to `otra`), with `base` as the simulator's and the dispatcher's defaults; registers an
 * afterEach that closes every channel and simulator a test opened.
 */
export function canalesSmpp(base: { sim?: OpcionesSmpp; config?: Partial<ConfigDespachador> }) {
  const abiertos: PruebaSmpp[] = [];
  afterEach(async () => {
    const ps = abiertos.splice(0);
    for (const p of ps) await p.canal.cerrar(); // closing twice is harmless
    for (const sim of new Set(ps.map((p) => p.sim))) await sim.detener();
  });
  return async function preparar(
    smpp: Record<string, unknown> = {},
    sim: OpcionesSmpp = {},
    otra?: SimuladorSmpp,
    config: Partial<ConfigDespachador> = {},
  ): Promise<PruebaSmpp> {
    const s = otra ?? new SimuladorSmpp({ system_id: 'u', password: 'p', ...base.sim, ...sim });
    if (!otra) await s.iniciar();
    const recibos: Recibo[] = [];
    const sinDestino: string[] = [];
    const canal = canalDe('smpp')!.crear({
      equipo: {
        id_equipo: 7,
        alias: 'SMSC',
        url: s.url,
        protocolo: 'smpp',
        credenciales: { smpp: { system_id: 'u', password: 'p', ...smpp } },
      },
      config: { ...CONFIG_PRUEBA, ...base.config, ...config },
      alRecibo: (r) => {
        recibos.push(r);
      },
      alReciboSinDestino: (d) => sinDestino.push(d),
    });
    const p = { sim: s, canal, recibos, sinDestino };
    abiertos.push(p);
    return p;
  };
}
