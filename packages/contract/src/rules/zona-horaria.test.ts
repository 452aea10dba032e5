import { describe, expect, it } from 'vitest';
import {
  abreviaturaZona,
  desfaseZona,
  fechaHoraDe,
  fechaHoraTexto,
  horaTexto,
  hoyEn,
  nombreZona,
} from './zona-horaria.ts';

// 2026-11-28 08:39:00 UTC: 02:39 in Mexico City (UTC-6), 00:39 in Tijuana (UTC-8, PST).
const T = Date.UTC(2026, 10, 28, 8, 39, 0, 250);

describe('the one clock (issue 48.5, 44.8)', () => {
  it('formats an instant in the named zone, never the process zone', () => {
    expect(fechaHoraTexto(T, 'America/Mexico_City')).toBe('2026-11-28 02:39:00');
    expect(fechaHoraTexto(T, 'America/Tijuana')).toBe('2026-11-28 00:39:00');
    expect(horaTexto(T, 'Europe/Madrid')).toBe('09:39:00');
    expect(fechaHoraDe(T - 3 * 3_600_000, 'America/Tijuana')).toEqual({
      fecha: '2026-11-27',
      hora: '21:39:00',
    });
    expect(hoyEn('Asia/Tokyo', T)).toBe('2026-11-28');
  });

  it('gives the offset across a clock change, and the same answer from its per-second cache', () => {
    expect(desfaseZona('America/Mexico_City', T)).toBe(-6 * 3_600_000);
    expect(desfaseZona('America/Mexico_City', T + 1)).toBe(-6 * 3_600_000);
    // Tijuana keeps daylight time (PDT, UTC-7) in July and PST (UTC-8) in November.
    expect(desfaseZona('America/Tijuana', Date.UTC(2026, 6, 1, 12))).toBe(-7 * 3_600_000);
    expect(desfaseZona('America/Tijuana', T)).toBe(-8 * 3_600_000);
  });

  it("names the zone once per screen: 'America/Mexico_City (CST)'", () => {
    expect(abreviaturaZona('America/Mexico_City', T)).toBe('CST');
    expect(nombreZona('America/Tijuana', T)).toBe('America/Tijuana (PST)');
    expect(nombreZona('America/Tijuana', Date.UTC(2026, 6, 1, 12))).toBe('America/Tijuana (PDT)');
    expect(nombreZona('Europe/Madrid', T)).toBe('Europe/Madrid (GMT+1)');
  });
});
