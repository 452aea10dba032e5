import { describe, expect, it } from 'vitest';
import { lineasHitos } from './graficas.tsx';

// Issue 26.7: '90 %' and '100 %' reached seconds apart were drawn over each other.
describe('lineasHitos', () => {
  const curva = [{ t: 0 }, { t: 600_000 }] as never[];
  it('marks close in time share one label; every mark keeps its line', () => {
    expect(
      lineasHitos(
        [
          [50, 100_000],
          [90, 500_000],
          [100, 505_000],
        ],
        curva,
      ),
    ).toEqual([
      { t: 100_000, etiqueta: '50 %' },
      { t: 500_000, etiqueta: '90 % · 100 %' },
      { t: 505_000, etiqueta: undefined },
    ]);
  });
  it('marks far apart keep their own labels; the same instant is one line', () => {
    expect(
      lineasHitos(
        [
          [50, 100_000],
          [90, 300_000],
          [100, 300_000],
        ],
        curva,
      ),
    ).toEqual([
      { t: 100_000, etiqueta: '50 %' },
      { t: 300_000, etiqueta: '90 % · 100 %' },
    ]);
  });
});
