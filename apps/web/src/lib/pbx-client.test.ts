import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { CLAVE_CONFIG, clientePbx } from './pbx-client.ts';

// Issue 26.7: with the telephony agent down, the operator reads that it is the agent, at which
// address, instead of the generic 'Error de red'. A real request to a loopback port where
// nothing listens.
describe('cliente del agente de telefonía', () => {
  beforeEach(() => vi.stubGlobal('localStorage', { getItem: () => null }));
  afterEach(() => vi.unstubAllGlobals());

  it('sin agente, cada llamada nombra al agente de telefonía y su dirección', async () => {
    const cliente = new QueryClient();
    const base = 'http://127.0.0.1:9';
    cliente.setQueryData(CLAVE_CONFIG, { status: 200, pbx: { base, software: 'asterisk' } });
    const pbx = clientePbx(cliente);
    const esperado =
      'El agente de telefonía no responde en http://127.0.0.1:9: revise que esté en marcha y que este equipo pueda alcanzarlo';
    await expect(pbx.subirAudio(new Blob([new Uint8Array(33)]), 'saludo')).rejects.toMatchObject({
      message: esperado,
      status: 0,
    });
    await expect(pbx.escribirLlamadas({ contenido: 'x', firma: 'y' })).rejects.toThrow(esperado);
    await expect(pbx.existeAudio('saludo')).rejects.toThrow(esperado);
  });

  // Issue 48.4: a frozen agent (SIGSTOP: the kernel still accepts the connection, nothing
  // answers) is a listener that accepts and never writes. Each call gives up at the agent's
  // deadline (GET /config/'s plazo_agente_s) saying so; the caller's cancellation ends it sooner.
  it('un agente congelado: cada llamada se rinde a su plazo y lo dice; «Cancelar» la corta antes', async () => {
    const colgadas: net.Socket[] = [];
    const congelado = net.createServer((s) => void colgadas.push(s));
    await new Promise<void>((r) => congelado.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(congelado.address() as net.AddressInfo).port}`;
    try {
      const cliente = new QueryClient();
      cliente.setQueryData(CLAVE_CONFIG, {
        status: 200,
        pbx: { base, software: 'asterisk' },
        plazo_agente_s: 1,
      });
      const pbx = clientePbx(cliente);
      const desde = Date.now();
      await expect(pbx.subirAudio(new Blob([new Uint8Array(33)]), 'saludo')).rejects.toMatchObject({
        message: `El agente de telefonía en ${base} no respondió en 1 s: revise que esté en marcha y vuelva a intentarlo`,
        status: 504,
      });
      const ms = Date.now() - desde;
      expect(ms).toBeGreaterThanOrEqual(900);
      expect(ms).toBeLessThan(5000);
      await expect(pbx.existeAudio('saludo')).rejects.toThrow('no respondió en 1 s');
      // Cancelled by the caller: its own AbortError, at once, not the deadline's message.
      const control = new AbortController();
      const subida = pbx.subirAudio(new Blob([new Uint8Array(33)]), 'saludo', control.signal);
      setTimeout(() => control.abort(), 100);
      await expect(subida).rejects.toMatchObject({ name: 'AbortError' });
      expect(colgadas.length).toBeGreaterThanOrEqual(3);
    } finally {
      for (const s of colgadas) s.destroy();
      congelado.close();
    }
  });
});
