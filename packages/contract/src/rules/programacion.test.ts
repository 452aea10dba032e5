import { describe, expect, it } from 'vitest';
import {
  cuentaRegresiva,
  fechaHoraEnZona,
  instanteEnZona,
  notaRetraso,
  zonaValida,
} from './programacion.ts';

describe('instanteEnZona', () => {
  it.each<[string, string, string, string | null]>([
    // Mexico City keeps no summer time since 2022: UTC−6 all year.
    ['2026-09-19', '11:00:00', 'America/Mexico_City', '2026-09-19T17:00:00.000Z'],
    ['2026-01-15', '08:30:00', 'America/Mexico_City', '2026-01-15T14:30:00.000Z'],
    // Cancún: UTC−5; Tijuana keeps US summer time: UTC−7 in July, UTC−8 in January.
    ['2026-07-01', '22:00:00', 'America/Cancun', '2026-07-02T03:00:00.000Z'],
    ['2026-07-01', '22:00:00', 'America/Tijuana', '2026-07-02T05:00:00.000Z'],
    ['2026-01-01', '22:00:00', 'America/Tijuana', '2026-01-02T06:00:00.000Z'],
    // Hermosillo: UTC−7, no summer time.
    ['2026-07-01', '12:00', 'America/Hermosillo', '2026-07-01T19:00:00.000Z'],
    // Tijuana's spring forward (2026-03-08 02:00 → 03:00): 02:30 does not exist, taken after.
    ['2026-03-08', '02:30:00', 'America/Tijuana', '2026-03-08T10:30:00.000Z'],
    // Its fall back (2026-11-01 02:00 → 01:00): 01:30 happens twice, the first one.
    ['2026-11-01', '01:30:00', 'America/Tijuana', '2026-11-01T08:30:00.000Z'],
    ['2026-02-30', '10:00:00', 'America/Mexico_City', null],
    ['2026-09-19', '25:00:00', 'America/Mexico_City', null],
    ['19/09/2026', '10:00:00', 'America/Mexico_City', null],
  ])('%s %s en %s → %s', (fecha, hora, zona, iso) => {
    const ms = instanteEnZona(fecha, hora, zona);
    expect(ms === null ? null : new Date(ms).toISOString()).toBe(iso);
  });

  it('fechaHoraEnZona es su inversa', () => {
    const ms = Date.UTC(2026, 6, 2, 5, 0, 0);
    expect(fechaHoraEnZona(ms, 'America/Tijuana')).toEqual({
      fecha_ini: '2026-07-01',
      hora_ini: '22:00:00',
    });
    expect(instanteEnZona('2026-07-01', '22:00:00', 'America/Tijuana')).toBe(ms);
  });

  it('conoce las zonas IANA y rechaza las inventadas', () => {
    expect(zonaValida('America/Mexico_City')).toBe(true);
    expect(zonaValida('America/Nowhere')).toBe(false);
  });
});

describe('notas y cuenta regresiva', () => {
  it.each([
    [20_000, null],
    [60_000, 'Iniciado con 1 min de retraso'],
    [14 * 60_000 + 59_000, 'Iniciado con 14 min de retraso'],
  ])('%i ms tarde: %s', (ms, nota) => expect(notaRetraso(ms)).toBe(nota));

  it.each([
    [9_000, 'inicia en 9 s'],
    [250_000, 'inicia en 4 min 10 s'],
    [7_500_000, 'inicia en 2 h 05 min'],
    [-5, 'inicia en 0 s'],
  ])('%i ms: %s', (ms, texto) => expect(cuentaRegresiva(ms)).toBe(texto));
});
