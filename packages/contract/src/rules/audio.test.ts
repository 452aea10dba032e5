import { describe, expect, it } from 'vitest';
import { huellaCorta, nombreAlmacenAudio, nombreVisibleAudio } from './audio.ts';
import { PATRON_NOMBRE_AUDIO } from './questionnaire.ts';

const H = '0123456789abcdef'.repeat(4);

describe('nombreVisibleAudio', () => {
  it.each([
    ['aviso-0123456789abcdef', 'aviso'],
    ['aviso-0123456789abcdef.gsm', 'aviso.gsm'],
    ['aviso-0123456789ABCDEF.GSM', 'aviso.GSM'],
    ['q1-alerta-fedcba9876543210', 'q1-alerta'],
    ['aviso', 'aviso'],
    ['aviso.gsm', 'aviso.gsm'],
    // 15 or 17 hex digits, or no dash: not a stored suffix.
    ['aviso-0123456789abcde', 'aviso-0123456789abcde'],
    ['aviso-0123456789abcdef0', 'aviso-0123456789abcdef0'],
    ['aviso0123456789abcdef', 'aviso0123456789abcdef'],
    ['aviso-0123456789abcdeg', 'aviso-0123456789abcdeg'],
    // A name that is only a suffix is shown as it is.
    ['-0123456789abcdef', '-0123456789abcdef'],
    ['', ''],
  ])('%j → %j', (nombre, visible) => {
    expect(nombreVisibleAudio(nombre)).toBe(visible);
  });
});

describe('nombreAlmacenAudio', () => {
  it.each([
    ['aviso', 'aviso-0123456789abcdef'],
    ['aviso-fedcba9876543210', 'aviso-0123456789abcdef'],
    ['a'.repeat(64), `${'a'.repeat(47)}-0123456789abcdef`],
    ['x_y-z', 'x_y-z-0123456789abcdef'],
  ])('%j → %j', (base, nombre) => {
    const n = nombreAlmacenAudio(base, H);
    expect(n).toBe(nombre);
    expect(PATRON_NOMBRE_AUDIO.test(n)).toBe(true);
    expect(n.length).toBeLessThanOrEqual(64);
  });

  it('different content, different name; the visible name is the chosen one', () => {
    const otro = 'f'.repeat(64);
    expect(nombreAlmacenAudio('aviso', H)).not.toBe(nombreAlmacenAudio('aviso', otro));
    expect(nombreVisibleAudio(nombreAlmacenAudio('aviso', otro))).toBe('aviso');
    expect(() => nombreAlmacenAudio('aviso', 'zz')).toThrow();
    expect(huellaCorta(H)).toBe('0123456789abcdef');
  });
});
