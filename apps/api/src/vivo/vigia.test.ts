import { describe, expect, it } from 'vitest';
import type { Rol } from '@pregon/contract/constants';
import { VigiaSesiones } from './vigia.ts';

// The watch over open streams' sessions: one question for all of them per check; a stream closes
// when its session ended, or when its roles now call for the other variant of its dashboard.

const soloLecturaDe = (roles: readonly Rol[]) => !roles.includes('operadores');

describe('VigiaSesiones', () => {
  it('cierra los flujos de sesiones terminadas o con otra variante, con una consulta por revisión', async () => {
    let vigentes = new Map<string, Rol[]>([
      ['a', ['operadores']],
      ['b', ['operadores']],
      ['c', ['consulta']],
    ]);
    const preguntas: string[][] = [];
    const vigia = new VigiaSesiones(
      async (sids) => (preguntas.push(sids), vigentes),
      soloLecturaDe,
      () => {},
      60_000,
    );
    const cerrados: string[] = [];
    const dejar = {
      a: vigia.vigilar('a', false, () => cerrados.push('a')),
      b: vigia.vigilar('b', false, () => cerrados.push('b')),
      c: vigia.vigilar('c', undefined, () => cerrados.push('c')),
    };
    await vigia.revisar();
    expect(cerrados).toEqual([]);
    // 'a' signed out, 'b' demoted to read-only, 'c' (same dashboard for every role) promoted.
    vigentes = new Map<string, Rol[]>([
      ['b', ['consulta']],
      ['c', ['operadores']],
    ]);
    await vigia.revisar();
    expect(cerrados).toEqual(['a', 'b']);
    expect(preguntas).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ]);
    for (const d of Object.values(dejar)) d();
    await vigia.revisar();
    expect(preguntas.length).toBe(2);
  });

  it('si la base no responde, los flujos siguen abiertos y el error se informa', async () => {
    const errores: unknown[] = [];
    const vigia = new VigiaSesiones(
      async () => {
        throw new Error('sin base');
      },
      soloLecturaDe,
      (e) => errores.push(e),
      60_000,
    );
    let cerrado = false;
    const dejar = vigia.vigilar('a', false, () => (cerrado = true));
    await vigia.revisar();
    expect(cerrado).toBe(false);
    expect(errores).toHaveLength(1);
    dejar();
  });
});
