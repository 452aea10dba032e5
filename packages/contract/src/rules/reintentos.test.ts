import { describe, expect, it } from 'vitest';
import { duracionLegible, textoPoliticaReintentos } from './reintentos.ts';

describe('duracionLegible', () => {
  it.each([
    [1, '1 segundo'],
    [30, '30 segundos'],
    [60, '1 minuto'],
    [90, '1 min 30 s'],
    [600, '10 minutos'],
  ])('%i s → %s', (s, texto) => expect(duracionLegible(s)).toBe(texto));
});

describe('textoPoliticaReintentos (issue 26.7)', () => {
  const red = { intentos_red: 8, espera_red_min_s: 1, espera_red_max_s: 60 };
  it.each([
    [
      'the walk: 2 retries every 30 s, congestion 8 times',
      { reintentos: 2, espera_reintento_s: 30, ...red },
      'Si los deja vacíos, se usa lo configurado en el servidor: a quien esté ocupado o no conteste se le llama 2 veces más, con 30 segundos entre intentos. Aparte, si la red o el conmutador fallan, cada llamada se intenta hasta 8 veces en total, con esperas de 1 segundo a 1 minuto.',
    ],
    [
      'one retry, one minute',
      { reintentos: 1, espera_reintento_s: 60, ...red },
      'Si los deja vacíos, se usa lo configurado en el servidor: a quien esté ocupado o no conteste se le llama una vez más, con 1 minuto entre intentos. Aparte, si la red o el conmutador fallan, cada llamada se intenta hasta 8 veces en total, con esperas de 1 segundo a 1 minuto.',
    ],
    [
      'no retries',
      { reintentos: 0, espera_reintento_s: 600, ...red },
      'Si los deja vacíos, se usa lo configurado en el servidor: a quien esté ocupado o no conteste no se le vuelve a llamar. Aparte, si la red o el conmutador fallan, cada llamada se intenta hasta 8 veces en total, con esperas de 1 segundo a 1 minuto.',
    ],
  ])('%s', (_, p, texto) => expect(textoPoliticaReintentos(p)).toBe(texto));
});
