import { describe, expect, it } from 'vitest';
import { motivoPausaAutomatica, type PausaAutomatica } from './pausa.ts';

describe('motivoPausaAutomatica', () => {
  it.each<[PausaAutomatica, string]>([
    [
      { errores: 5, alias: 'SIM', error: 'HTTP 500', inmediata: false },
      'Pausa automática: 5 errores consecutivos al enviar por el equipo SIM; último error: HTTP 500',
    ],
    [
      { errores: 1, alias: 'SIM', error: 'HTTP 500', inmediata: false },
      'Pausa automática: 1 error consecutivo al enviar por el equipo SIM: HTTP 500',
    ],
    // A refusal that pauses at once: its cause first, no count.
    [
      {
        errores: 1,
        alias: 'Asterisk 1',
        error: 'El Asterisk del equipo Asterisk 1 no tiene cargado el contexto pregon-llamada-7',
        inmediata: true,
      },
      'Pausa automática: El Asterisk del equipo Asterisk 1 no tiene cargado el contexto pregon-llamada-7',
    ],
    [
      { errores: 3, alias: 'SMSC', error: 'La extensión 55 no existe', inmediata: true },
      'Pausa automática: La extensión 55 no existe (equipo SMSC)',
    ],
  ])('%j', (p, texto) => {
    expect(motivoPausaAutomatica(p)).toBe(texto);
  });

  it('never reads «1 errores»', () => {
    for (const inmediata of [false, true])
      expect(motivoPausaAutomatica({ errores: 1, alias: 'A', error: 'x', inmediata })).not.toMatch(
        /\b1 errores\b/,
      );
  });
});
