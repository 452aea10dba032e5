import { describe, expect, it } from 'vitest';
import { curvaAlcance, hitosAlcance, tasaReciente, tiempoRestante } from './tableros.ts';

describe('reglas del tablero', () => {
  const seg = (t: number, procesados: number, alcanzados = procesados) => ({
    t: t * 1000,
    procesados,
    alcanzados,
  });

  it('curvaAlcance acumula por segundo y agrupa en pasos enteros de segundos', () => {
    expect(curvaAlcance([])).toEqual([]);
    expect(curvaAlcance([seg(10, 5, 4), seg(11, 5, 5), seg(13, 2, 0)])).toEqual([
      { t: 10_000, procesados: 5, alcanzados: 4 },
      { t: 11_000, procesados: 10, alcanzados: 9 },
      { t: 13_000, procesados: 12, alcanzados: 9 },
    ]);
    // 1,000 seconds into at most 10 points of 100 s: each keeps the totals at its end.
    const mil = Array.from({ length: 1000 }, (_, i) => seg(i, 1));
    const c = curvaAlcance(mil, 10);
    expect(c).toHaveLength(10);
    expect(c[0]).toEqual({ t: 0, procesados: 100, alcanzados: 100 });
    expect(c.at(-1)).toEqual({ t: 900_000, procesados: 1000, alcanzados: 1000 });
  });

  it.each([
    [100, { p50: 3000, p90: 4000, p100: 5000 }],
    [200, { p50: 5000, p90: null, p100: null }],
    [0, { p50: null, p90: null, p100: null }],
  ])('hitosAlcance con total %i', (total, esperado) => {
    const curva = [1, 2, 3, 4, 5].map((t) => ({
      t: t * 1000,
      procesados: t * 20,
      alcanzados: t * 20 + (t === 4 ? 10 : 0),
    }));
    curva[3]!.alcanzados = 90;
    expect(hitosAlcance(curva, total)).toEqual(esperado);
  });

  it('tasaReciente cuenta la última ventana y tiempoRestante estima con ella', () => {
    const s = [seg(0, 100), seg(50, 100), seg(59, 100)];
    expect(tasaReciente(s, 60_000, 60_000)).toBe(5);
    expect(tasaReciente(s, 200_000, 60_000)).toBe(0);
    // Started 10 s ago: the rate is over those 10 s, not the whole window.
    expect(tasaReciente([seg(100, 50), seg(105, 50)], 110_000, 60_000)).toBe(10);
    expect(tiempoRestante(1000, 10)).toBe(100_000);
    expect(tiempoRestante(0, 10)).toBeNull();
    expect(tiempoRestante(10, 0)).toBeNull();
    // 400 of 1000 wait for a window that opens in an hour: not before it opens, plus their turn.
    const ahora = Date.UTC(2026, 10, 25, 12);
    expect(tiempoRestante(1000, 10, { esperan: 400, ultima: ahora + 3_600_000, ahora })).toBe(
      3_600_000 + 40_000,
    );
    // A window about to open: the ones sending now take longer than the wait.
    expect(tiempoRestante(1000, 10, { esperan: 400, ultima: ahora + 1_000, ahora })).toBe(60_000);
    expect(tiempoRestante(1000, 10, { esperan: 0, ultima: null, ahora })).toBe(100_000);
  });
});
