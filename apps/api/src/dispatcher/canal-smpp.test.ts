import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { canalDe, type Canal } from './canal.ts';
import { leerRecibo } from './canal-smpp.ts';
import { CONFIG_PRUEBA } from './testing.ts';

// The SMPP channel against a gateway that misbehaves at connection time.

const crear = (url: string, timeoutEnvioMs: number): Canal =>
  canalDe('smpp')!.crear({
    equipo: { id_equipo: 1, alias: 'SMSC', url, protocolo: 'smpp', credenciales: {} },
    config: { ...CONFIG_PRUEBA, timeoutEnvioMs },
    alRecibo: () => {},
  });

const envio = {
  id_detalle: 1,
  telefono: '+525512345678',
  texto: 'Simulacro',
  intentos: 1,
  id_gateway: null,
};

describe('canal SMPP', () => {
  // Accepts TCP connections and never says a word: no bind_transceiver_resp, no close.
  const sockets = new Set<net.Socket>();
  let cerrados = 0;
  const mudo = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => cerrados++);
    s.resume();
  });
  let puerto = 0;
  beforeAll(async () => {
    await new Promise<void>((r) => mudo.listen(0, '127.0.0.1', r));
    puerto = (mudo.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => mudo.close(r));
  });

  it('una pasarela que acepta el socket y nunca responde al bind: reintentar tras el plazo, sin colgar los envíos', async () => {
    const canal = crear(`smpp://127.0.0.1:${puerto}`, 400);
    try {
      const t0 = Date.now();
      const r = await Promise.all([canal.enviar(envio), canal.enviar({ ...envio, id_detalle: 2 })]);
      expect(r).toEqual([
        { tipo: 'reintentar', motivo: 'SMPP: sin respuesta al conectar', pausar: false },
        { tipo: 'reintentar', motivo: 'SMPP: sin respuesta al conectar', pausar: false },
      ]);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(350);
      expect(Date.now() - t0).toBeLessThan(3_000);
      // The silent socket was dropped, not left open.
      await new Promise((r) => setTimeout(r, 100));
      expect(sockets.size).toBeGreaterThan(0);
      expect(cerrados).toBe(sockets.size);
    } finally {
      await canal.cerrar();
    }
  });

  it('tras el plazo vuelve a conectar: cuando la pasarela responde, el envío se acepta', async () => {
    const sim = new SimuladorSmpp();
    await sim.iniciar();
    const canal = crear(sim.url, 2_000);
    try {
      const r = await canal.enviar(envio);
      expect(r).toMatchObject({ tipo: 'aceptado' });
      expect(sim.registro.map((m) => m.telefono)).toEqual(['+525512345678']);
    } finally {
      await canal.cerrar();
      await sim.detener();
    }
  });

  it('lee id y stat del texto de un acuse de entrega', () => {
    expect(
      leerRecibo(
        'id:ab12 sub:001 dlvrd:001 submit date:2611220101 done date:2611220101 stat:DELIVRD err:000 text:x',
      ),
    ).toEqual({ id: 'ab12', stat: 'DELIVRD' });
    expect(leerRecibo('sin campos')).toEqual({ id: undefined, stat: undefined });
  });
});
