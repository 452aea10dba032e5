import { describe, expect, it } from 'vitest';
import { fuerzaContrasena, type NivelContrasena } from './password.ts';

describe('fuerzaContrasena', () => {
  it.each<[string, NivelContrasena, string | undefined]>([
    ['', 0, 'contrasenaCorta'],
    ['Ab1-xyz', 0, 'contrasenaCorta'],
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
