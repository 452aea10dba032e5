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
});
