import { describe, expect, it } from 'vitest';
import {
  errorPuertos,
  estimarDuracion,
  puertosDeRango,
  puertosPorDefecto,
  textoCapacidad,
  textoEstimacion,
  type DatosEstimacion,
} from './capacidad.ts';

describe('puertos de un ejercicio', () => {
  it('por defecto, todos los del equipo', () => {
    expect(puertosPorDefecto({ puertos: 10 })).toEqual({
      numero_puertos: 10,
      puerto_ini: 1,
      puerto_fin: 10,
    });
    expect(puertosPorDefecto({ puertos: 0 })).toEqual({
      numero_puertos: 1,
      puerto_ini: 1,
      puerto_fin: 1,
    });
  });

  it.each([
    [{ puerto_ini: 1, puerto_fin: 1 }, 1],
    [{ puerto_ini: 3, puerto_fin: 7 }, 5],
    [{ puerto_ini: 1, puerto_fin: 10 }, 10],
  ])('%o son %i puertos', (r, n) => expect(puertosDeRango(r)).toBe(n));

  it.each([
    [{ puerto_ini: 1, puerto_fin: 10 }, 10, null],
    [{ puerto_ini: 1, puerto_fin: 1 }, 1, null],
    [{ puerto_ini: 4, puerto_fin: 3 }, 10, 'puerto_ini'],
    [{ puerto_ini: 1, puerto_fin: 11 }, 10, 'puerto_fin'],
  ])('%o en un equipo de %i puertos: %s', (r, puertos, campo) => {
    expect(errorPuertos(r, { puertos })?.campo ?? null).toBe(campo);
  });

  it('el mensaje nombra el campo y los puertos del equipo', () => {
    expect(errorPuertos({ puerto_ini: 1, puerto_fin: 12 }, { puertos: 10 })?.mensaje).toBe(
      'El campo Al puerto no puede pasar de 10: el equipo tiene 10 puertos',
    );
  });

  it('la capacidad en palabras, por tipo', () => {
    expect(textoCapacidad({ puertos: 4, tasa: 5 }, 1)).toBe(
      'Equipo de 4 puertos, 5 msg/s por puerto (20 msg/s en total)',
    );
    expect(textoCapacidad({ puertos: 10, tasa: 1 }, 2)).toBe(
      'Equipo de 10 puertos: hasta 10 llamadas a la vez',
    );
    expect(textoCapacidad({ puertos: 1, tasa: 10 }, 1)).toBe('Equipo de 1 puerto, 10 msg/s');
    expect(textoCapacidad({ puertos: 1, tasa: 1 }, 4)).toBe(
      'Equipo de 1 puerto: una llamada a la vez',
    );
  });
});

describe('estimarDuracion', () => {
  const base: DatosEstimacion = { tipo: 1, destinatarios: 0, puertos: 1, tasa: 1 };
  it.each<[string, Partial<DatosEstimacion>, number, number]>([
    ['SMS: 1,200 a 4 × 5 msg/s', { destinatarios: 1200, puertos: 4, tasa: 5 }, 60, 60],
    ['SMS: el resto redondea hacia arriba', { destinatarios: 21, puertos: 4, tasa: 5 }, 2, 2],
    [
      'WhatsApp sin reintentos de llamada',
      { tipo: 3, destinatarios: 100, tasa: 10, reintentos: 2, espera_reintento: 10 },
      10,
      10,
    ],
    [
      'llamadas: 600 de 30 s… tiempo 1 min en 10 puertos',
      { tipo: 2, destinatarios: 600, puertos: 10, tasa: 5, tiempo: 1 },
      3600,
      3600,
    ],
    ['llamadas sin tiempo: 35 s', { tipo: 2, destinatarios: 20, puertos: 10, tasa: 5 }, 70, 70],
    [
      'llamadas con reintentos: + 2 × (10 min + 1 min)',
      {
        tipo: 2,
        destinatarios: 600,
        puertos: 10,
        tasa: 5,
        tiempo: 1,
        reintentos: 2,
        espera_reintento: 10,
      },
      3600,
      3600 + 2 * 660,
    ],
    [
      'cuestionario: su tiempo de corrida',
      { tipo: 4, destinatarios: 30, puertos: 10, tasa: 5, minutosCuestionario: 2 },
      360,
      360,
    ],
    [
      'el ritmo de originación acota: 100 en 100 puertos a 0.5/s',
      { tipo: 2, destinatarios: 100, puertos: 100, tasa: 0.5, tiempo: 1 },
      60,
      60,
    ],
    [
      'el ritmo manda cuando es más lento que las llamadas',
      { tipo: 2, destinatarios: 1000, puertos: 100, tasa: 0.01, tiempo: 1 },
      1000,
      1000,
    ],
    [
      'sin destinatarios, nada que esperar',
      { tipo: 2, destinatarios: 0, puertos: 10, tasa: 1, reintentos: 3, espera_reintento: 10 },
      0,
      0,
    ],
  ])('%s', (_, datos, segundos, conReintentos) => {
    const e = estimarDuracion({ ...base, ...datos });
    expect(e.segundos).toBe(segundos);
    expect(e.segundosConReintentos).toBe(conReintentos);
  });

  it('el ritmo es puertos × tasa y una llamada sin tiempo dura 35 s', () => {
    const e = estimarDuracion({ tipo: 2, destinatarios: 1, puertos: 10, tasa: 5 });
    expect(e.ritmo).toBe(50);
    expect(e.segundosPorLlamada).toBe(35);
    expect(estimarDuracion({ ...base, destinatarios: 5 }).segundosPorLlamada).toBeNull();
  });
});

describe('textoEstimacion', () => {
  it('mensajes: duración y ritmo', () => {
    expect(
      textoEstimacion(estimarDuracion({ tipo: 1, destinatarios: 1200, puertos: 4, tasa: 5 })),
    ).toBe('00:01:00 a 20 msg/s');
  });
  it('SMS de varias partes: destinatarios por segundo y partes por segundo (issue 48.6)', () => {
    const e = estimarDuracion({ tipo: 1, destinatarios: 3000, puertos: 4, tasa: 5 });
    expect(textoEstimacion(e, 2)).toBe(
      '00:02:30 a 20 destinatarios/s (40 partes de SMS/s: 2 por destinatario)',
    );
    expect(textoEstimacion(e, 1)).toBe('00:02:30 a 20 msg/s');
  });
  it('llamadas: primera vuelta y, con reintentos, hasta cuándo', () => {
    expect(
      textoEstimacion(
        estimarDuracion({
          tipo: 2,
          destinatarios: 600,
          puertos: 10,
          tasa: 5,
          tiempo: 1,
          reintentos: 2,
          espera_reintento: 10,
        }),
      ),
    ).toBe('01:00:00 si cada llamada dura su máximo (00:01:00); hasta 01:22:00 con los reintentos');
    expect(
      textoEstimacion(estimarDuracion({ tipo: 2, destinatarios: 20, puertos: 10, tasa: 5 })),
    ).toBe('00:01:10 si cada llamada dura su máximo (00:00:35)');
  });
});
