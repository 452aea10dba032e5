import { describe, expect, it } from 'vitest';
import { CONTRASENAS_COMUNES } from './contrasenas-comunes.ts';
import {
  esContrasenaComun,
  fuerzaContrasena,
  MAX_PASSWORD,
  MIN_PASSWORD,
  problemaContrasena,
  type NivelContrasena,
} from './password.ts';
import { PasswordSchema } from '../api/usuarios.ts';

describe('problemaContrasena: la regla de toda contraseña (issue 49.4)', () => {
  it.each<[string, string | undefined]>([
    ['', 'contrasenaCorta'],
    ['Ab1-xyz', 'contrasenaCorta'],
    // A person's characters: 4 emoji are 8 UTF-16 units but 4 characters.
    ['🔥🔥🔥🔥', 'contrasenaCorta'],
    [' '.repeat(8), 'contrasenaEnBlanco'],
    ['\t \n \u00a0   ', 'contrasenaEnBlanco'],
    ['12345678', 'contrasenaDemasiadoComun'],
    ['qwertyui', 'contrasenaDemasiadoComun'],
    ['PASSWORD', 'contrasenaDemasiadoComun'],
    ['  password  ', 'contrasenaDemasiadoComun'],
    ['contraseña', 'contrasenaDemasiadoComun'],
    // The same word written with a combining tilde (NFD) is the same password.
    ['contrasen\u0303a', 'contrasenaDemasiadoComun'],
    ['Pregon123', 'contrasenaDemasiadoComun'],
    ['tequiero1', 'contrasenaDemasiadoComun'],
    ['x'.repeat(MAX_PASSWORD + 1), 'contrasenaLarga'],
    ['x'.repeat(MAX_PASSWORD), undefined],
    ['Secreta-123', undefined],
    ['hojas del arbol', undefined],
    ['password con más palabras', undefined],
    ['el tren de las nueve sale del andén tres cuando llueve', undefined],
  ])('%j → %s', (p, clave) => {
    expect(problemaContrasena(p)?.clave).toBe(clave);
  });

  it('the list: trimmed, lower case, NFC, no repeats, none shorter than the length rule', () => {
    const lista = CONTRASENAS_COMUNES.split('\n').filter(Boolean);
    expect(lista.length).toBeGreaterThan(3000);
    expect(new Set(lista).size).toBe(lista.length);
    for (const c of lista) {
      expect(c, c).toBe(c.normalize('NFC').trim().toLowerCase());
      expect([...c].length, c).toBeGreaterThanOrEqual(MIN_PASSWORD);
      expect(esContrasenaComun(c.toUpperCase()), c).toBe(true);
    }
  });

  it('PasswordSchema refuses with the Spanish message that names the field', () => {
    const r = PasswordSchema.safeParse('qwertyui');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/^La contraseña es demasiado común/);
    expect(PasswordSchema.safeParse('Tr0mpeta-Azul-2024').success).toBe(true);
  });
});

describe('fuerzaContrasena', () => {
  it.each<[string, NivelContrasena, string | undefined]>([
    ['', 0, 'contrasenaCorta'],
    ['Ab1-xyz', 0, 'contrasenaCorta'],
    ['12345678', 0, 'contrasenaDemasiadoComun'],
    ['        ', 0, 'contrasenaEnBlanco'],
    ['aaaaaaaaaaaa', 1, 'contrasenaComun'],
    ['abababababab', 1, 'contrasenaComun'],
    ['MiPassword-2024', 1, 'contrasenaComun'],
    ['qwerty-Larga-99', 1, 'contrasenaComun'],
    ['hojaverde', 1, 'consejoContrasena'],
    ['Hojaverde', 2, 'consejoContrasena'],
    ['hojas del arbol', 3, 'consejoContrasena'],
    ['Secreta-123', 3, 'consejoContrasena'],
    ['Nueva-clave-1', 4, undefined],
    ['Tr0mpeta-Azul-2024', 4, undefined],
    ['ñandú-Río-7', 3, 'consejoContrasena'],
  ])('%j → nivel %i', (p, nivel, consejo) => {
    const f = fuerzaContrasena(p);
    expect(f.nivel).toBe(nivel);
    expect(f.consejo).toBe(consejo);
  });

  it('labels each level with a catalogue key', () => {
    expect(fuerzaContrasena('').etiqueta).toBe('fuerzaMuyDebil');
    expect(fuerzaContrasena('Tr0mpeta-Azul-2024').etiqueta).toBe('fuerzaFuerte');
  });
});
