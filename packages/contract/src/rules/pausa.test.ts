import { describe, expect, it } from 'vitest';
import {
  esperaEquipoMs,
  motivoPausaAutomatica,
  textoEsperaEquipo,
  type PausaAutomatica,
} from './pausa.ts';

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

describe('esperaEquipoMs y textoEsperaEquipo (issue 45.5)', () => {
  it.each<[number | null, number, number, string]>([
    [null, 300_000, 300_000, 'Si el equipo no responde, esperar hasta 5 min y pausar el ejercicio'],
    [
      2_700,
      300_000,
      2_700_000,
      'Si el equipo no responde, esperar hasta 45 min y pausar el ejercicio',
    ],
    [
      90,
      300_000,
      90_000,
      'Si el equipo no responde, esperar hasta 1 min 30 s y pausar el ejercicio',
    ],
    [2, 300_000, 2_000, 'Si el equipo no responde, esperar hasta 2 s y pausar el ejercicio'],
    [0, 300_000, 0, 'Si el equipo no responde, esperar sin límite hasta que responda'],
    [null, 0, 0, 'Si el equipo no responde, esperar sin límite hasta que responda'],
  ])('propia %j, del servidor %j ms', (propia, defecto, ms, texto) => {
    expect(esperaEquipoMs(propia, defecto)).toBe(ms);
    expect(textoEsperaEquipo(esperaEquipoMs(propia, defecto))).toBe(texto);
  });
});
