import { describe, expect, it } from 'vitest';
import { LimitadorIngreso } from './signin-limiter.ts';

describe('LimitadorIngreso', () => {
  it('bloquea a un usuario tras 5 fallos y lo libera al pasar la ventana', () => {
    const l = new LimitadorIngreso(5, 30, 60_000);
    const claves = ['u:ana', 'ip:1.2.3.4'];
    for (let i = 0; i < 4; i++) l.fallo(claves, 1000 + i);
    expect(l.bloqueo(claves, 2000)).toBe(0);
    l.fallo(claves, 1500);
    expect(l.bloqueo(claves, 2000)).toBe(1);
    expect(l.bloqueo(claves, 1000 + 60_001)).toBe(0);
  });

  it('una dirección compartida aguanta más fallos que un usuario', () => {
    const l = new LimitadorIngreso(5, 30, 60_000);
    for (let i = 0; i < 29; i++) l.fallo([`u:persona${i}`, 'ip:oficina'], 1000);
    expect(l.bloqueo(['u:nueva', 'ip:oficina'], 2000)).toBe(0);
    l.fallo(['u:otra', 'ip:oficina'], 1000);
    expect(l.bloqueo(['u:nueva', 'ip:oficina'], 2000)).toBe(1);
  });

  it('un ingreso exitoso olvida los fallos del usuario', () => {
    const l = new LimitadorIngreso(2, 30, 60_000);
    l.fallo(['u:ana'], 1000);
    l.fallo(['u:ana'], 1001);
    expect(l.bloqueo(['u:ana'], 1002)).toBe(1);
    l.exito('u:ana');
    expect(l.bloqueo(['u:ana'], 1003)).toBe(0);
  });
});
