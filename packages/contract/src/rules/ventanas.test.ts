import { describe, expect, it } from 'vitest';
import { estimarDuracion, textoEstimacion } from './capacidad.ts';
import { zonaValida } from './programacion.ts';
import {
  ZONAS_ESTADOS_MEXICO,
  dentroDeVentana,
  errorVentana,
  esperaVentana,
  estadosEnVentana,
  proximaApertura,
  textoEsperaVentana,
  zonaDeEstado,
} from './ventanas.ts';

const iso = (s: string) => Date.parse(s);

describe('ZONAS_ESTADOS_MEXICO', () => {
  it('names the 32 states, each with a zone the platform knows', () => {
    expect(Object.keys(ZONAS_ESTADOS_MEXICO)).toHaveLength(32);
    for (const z of Object.values(ZONAS_ESTADOS_MEXICO)) expect(zonaValida(z)).toBe(true);
  });

  it.each<[string, string, number, number]>([
    // state, zone, UTC offset (h) in January 2026, in July 2026 (per the platform's IANA data)
    ['Quintana Roo', 'America/Cancun', -5, -5],
    ['Baja California', 'America/Tijuana', -8, -7],
    ['Sonora', 'America/Hermosillo', -7, -7],
    ['Baja California Sur', 'America/Mazatlan', -7, -7],
    ['Sinaloa', 'America/Mazatlan', -7, -7],
    ['Nayarit', 'America/Mazatlan', -7, -7],
    ['Chihuahua', 'America/Chihuahua', -6, -6],
    ['Ciudad de México', 'America/Mexico_City', -6, -6],
    ['Yucatán', 'America/Mexico_City', -6, -6],
  ])('%s → %s (UTC%d en enero, UTC%d en julio)', (estado, zona, enero, julio) => {
    expect(ZONAS_ESTADOS_MEXICO[estado]).toBe(zona);
    const offset = (ms: number) => {
      const p = new Intl.DateTimeFormat('en-US', { timeZone: zona, timeZoneName: 'longOffset' })
        .formatToParts(ms)
        .find((x) => x.type === 'timeZoneName')!.value;
      const m = /GMT([+-])(\d{2})/.exec(p)!;
      return (m[1] === '-' ? -1 : 1) * +m[2]!;
    };
    expect(offset(iso('2026-01-15T12:00:00Z'))).toBe(enero);
    expect(offset(iso('2026-07-15T12:00:00Z'))).toBe(julio);
  });

  it('the catalogue overrides the table when its zone is valid', () => {
    expect(zonaDeEstado({ estado: 'Sonora' }, 'America/Mexico_City')).toBe('America/Hermosillo');
    expect(
      zonaDeEstado({ estado: 'Sonora', zona_horaria: 'America/Tijuana' }, 'America/Mexico_City'),
    ).toBe('America/Tijuana');
    expect(zonaDeEstado({ estado: 'Sonora', zona_horaria: 'Marte/Olimpo' }, 'UTC')).toBe(
      'America/Hermosillo',
    );
    expect(zonaDeEstado({ estado: 'Texas' }, 'America/Chicago')).toBe('America/Chicago');
  });
});

describe('dentroDeVentana and proximaApertura', () => {
  const dia = { inicio: '09:00', fin: '21:00' };
  const noche = { inicio: '22:00', fin: '06:00' };
  it.each<[string, { inicio: string; fin: string }, string, string, boolean, string]>([
    // Tijuana in summer (UTC−7): 04:30Z is 21:30 the day before: closed, opens 09:00 PDT = 16:00Z.
    [
      'Tijuana verano',
      dia,
      '2026-07-15T04:30:00Z',
      'America/Tijuana',
      false,
      '2026-07-15T16:00:00.000Z',
    ],
    // The same instant in Mexico City is 22:30: closed too; opens 09:00 = 15:00Z.
    ['CDMX', dia, '2026-07-15T04:30:00Z', 'America/Mexico_City', false, '2026-07-15T15:00:00.000Z'],
    // 03:30Z in July: Tijuana 20:30 (open), Mexico City 21:30 (closed).
    [
      'Tijuana verano abierta',
      dia,
      '2026-07-15T03:30:00Z',
      'America/Tijuana',
      true,
      '2026-07-15T03:30:00.000Z',
    ],
    // Tijuana in winter (UTC−8): 04:30Z is 20:30: open; 05:30Z is 21:30: closed, opens 17:00Z.
    [
      'Tijuana invierno',
      dia,
      '2026-01-15T04:30:00Z',
      'America/Tijuana',
      true,
      '2026-01-15T04:30:00.000Z',
    ],
    [
      'Tijuana invierno cerrada',
      dia,
      '2026-01-15T05:30:00Z',
      'America/Tijuana',
      false,
      '2026-01-15T17:00:00.000Z',
    ],
    // Before opening the same morning: Cancún 07:00 (12:00Z) opens at 09:00 (14:00Z) that day.
    [
      'Cancún mañana',
      dia,
      '2026-01-15T12:00:00Z',
      'America/Cancun',
      false,
      '2026-01-15T14:00:00.000Z',
    ],
    // The start is included, the end is not.
    [
      'inicio incluido',
      dia,
      '2026-01-15T15:00:00Z',
      'America/Mexico_City',
      true,
      '2026-01-15T15:00:00.000Z',
    ],
    [
      'fin excluido',
      dia,
      '2026-01-16T03:00:00Z',
      'America/Mexico_City',
      false,
      '2026-01-16T15:00:00.000Z',
    ],
    // A window wrapping midnight, 22:00-06:00: 23:30 and 05:59 inside, 06:00 and 12:00 outside.
    [
      'noche 23:30',
      noche,
      '2026-01-16T05:30:00Z',
      'America/Mexico_City',
      true,
      '2026-01-16T05:30:00.000Z',
    ],
    [
      'noche 05:59',
      noche,
      '2026-01-16T11:59:00Z',
      'America/Mexico_City',
      true,
      '2026-01-16T11:59:00.000Z',
    ],
    [
      'noche 06:00',
      noche,
      '2026-01-16T12:00:00Z',
      'America/Mexico_City',
      false,
      '2026-01-17T04:00:00.000Z',
    ],
    [
      'noche 12:00',
      noche,
      '2026-01-16T18:00:00Z',
      'America/Mexico_City',
      false,
      '2026-01-17T04:00:00.000Z',
    ],
    // Tijuana's spring forward (2026-03-08): opening at 09:00 that day is already PDT (16:00Z).
    [
      'Tijuana cambio de hora',
      dia,
      '2026-03-08T09:00:00Z',
      'America/Tijuana',
      false,
      '2026-03-08T16:00:00.000Z',
    ],
  ])('%s', (_n, v, ahora, zona, dentro, abre) => {
    expect(dentroDeVentana(v, iso(ahora), zona)).toBe(dentro);
    expect(new Date(proximaApertura(v, iso(ahora), zona)).toISOString()).toBe(abre);
  });

  it('a 22:00 call in Tijuana is at midnight in Cancún: the states allowed now', () => {
    // 2026-07-15T05:00Z: Tijuana 22:00, Hermosillo 22:00, Mexico City 23:00, Cancún 00:00.
    const estados = [
      { id_estado: 2, zona: 'America/Tijuana' },
      { id_estado: 26, zona: 'America/Hermosillo' },
      { id_estado: 7, zona: 'America/Mexico_City' },
      { id_estado: 23, zona: 'America/Cancun' },
    ];
    const v = { inicio: '21:00', fin: '23:00' };
    expect(estadosEnVentana(v, iso('2026-07-15T05:00:00Z'), estados)).toEqual([2, 26]);
  });
});

describe('errorVentana', () => {
  it.each<[string | null, string | null, string | null]>([
    [null, null, null],
    ['', '', null],
    ['09:00', '21:00', null],
    ['22:00', '06:00', null],
    ['09:00', null, 'ventana_fin'],
    [null, '21:00', 'ventana_inicio'],
    ['9:00', '21:00', 'ventana_inicio'],
    ['09:00', '24:00', 'ventana_fin'],
    ['09:00', '09:00', 'ventana_fin'],
  ])('%s-%s → %s', (ventana_inicio, ventana_fin, campo) => {
    const e = errorVentana({ ventana_inicio, ventana_fin });
    expect(e?.campo ?? null).toBe(campo);
    if (e) expect(e.mensaje).toContain(campo!);
  });
});

describe('esperaVentana', () => {
  it('counts the pending recipients outside the window and when the first window opens', () => {
    const v = { inicio: '09:00', fin: '21:00' };
    // 2026-01-15T04:30Z: Tijuana 20:30 (open), Mexico City 22:30, Cancún 23:30 (both closed).
    const ahora = iso('2026-01-15T04:30:00Z');
    const e = esperaVentana(v, ahora, [
      { zona: 'America/Tijuana', pendientes: 10 },
      { zona: 'America/Mexico_City', pendientes: 5 },
      { zona: 'America/Cancun', pendientes: 3 },
    ]);
    expect(e).toEqual({
      esperan: 8,
      abre: iso('2026-01-15T14:00:00Z'),
      ultima: iso('2026-01-15T15:00:00Z'),
      hora: '09:00',
    });
    expect(textoEsperaVentana(e, ahora)).toBe(
      '8 destinatarios esperan su horario (abre a las 09:00 de su zona, en 9 h 30 min)',
    );
    expect(esperaVentana(null, ahora, [{ zona: 'UTC', pendientes: 4 }]).esperan).toBe(0);
    expect(textoEsperaVentana(esperaVentana(null, ahora, []), ahora)).toBeNull();
  });
});

describe('estimarDuracion with a window', () => {
  const base = { tipo: 2, puertos: 10, tasa: 5, tiempo: 1, destinatarios: 100 };
  it('recipients outside the window are called after it opens', () => {
    // 100 calls of 60 s on 10 ports: 600 s. 40 outside for 3600 s: 3600 + 4 × 60.
    const e = estimarDuracion({ ...base, ventana: { fuera: 40, esperaSegundos: 3600 } });
    expect(e.segundos).toBe(3840);
    expect(e.ventana).toEqual({ fuera: 40, esperaSegundos: 3600 });
    expect(textoEstimacion(e)).toContain(
      'incluye la espera de 40 destinatarios fuera de su horario permitido (hasta 01:00:00)',
    );
    // Everyone inside: the same as without a window.
    expect(estimarDuracion({ ...base, ventana: { fuera: 0, esperaSegundos: 0 } })).toEqual(
      estimarDuracion(base),
    );
    // A short wait: those inside still take longer.
    expect(estimarDuracion({ ...base, ventana: { fuera: 10, esperaSegundos: 60 } }).segundos).toBe(
      540,
    );
  });
});
