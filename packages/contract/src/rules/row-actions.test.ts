import { describe, expect, it } from 'vitest';
import { accionesFila, type FlagsEjercicio } from './row-actions.ts';

type Caso = [string, Omit<FlagsEjercicio, 'id_tipo_ejercicio'>, boolean, boolean, boolean];

// [case (SPEC 4 status row), flags, iniciar, pausar, detener]
const CASOS: Caso[] = [
  ['Not started', { completado: '0', en_proceso: '0', en_pausa: '0' }, true, false, false],
  [
    'Not started, stale pause flag',
    { completado: '0', en_proceso: '0', en_pausa: '1' },
    true,
    false,
    false,
  ],
  ['Running', { completado: '0', en_proceso: '1', en_pausa: '0' }, false, true, true],
  // Paused: Stop, plus Start to resume (ARCHITECTURE correction 4)
  ['Paused', { completado: '0', en_proceso: '1', en_pausa: '1' }, true, false, true],
  ['Completed', { completado: '1', en_proceso: '0', en_pausa: '0' }, false, false, false],
  [
    'Completed while flagged running',
    { completado: '1', en_proceso: '1', en_pausa: '0' },
    false,
    false,
    false,
  ],
  [
    'Completed while flagged paused',
    { completado: '1', en_proceso: '1', en_pausa: '1' },
    false,
    false,
    false,
  ],
  [
    'Completed with another non-zero value',
    { completado: '2', en_proceso: '0', en_pausa: '0' },
    false,
    false,
    false,
  ],
  [
    'Numeric flags from the database',
    { completado: 0, en_proceso: 1, en_pausa: 0 },
    false,
    true,
    true,
  ],
  [
    'Unknown en_proceso value',
    { completado: '0', en_proceso: '', en_pausa: '0' },
    false,
    false,
    false,
  ],
];

describe('accionesFila: status flags (SPEC 4 table)', () => {
  it.each(CASOS)('%s', (_, flags, iniciar, pausar, detener) => {
    const a = accionesFila({ ...flags, id_tipo_ejercicio: 1 });
    expect({ iniciar: a.iniciar, pausar: a.pausar, detener: a.detener, ver: a.ver }).toEqual({
      iniciar,
      pausar,
      detener,
      ver: true,
    });
  });

  it.each(CASOS)('%s, read-only user: only View and Download', (_, flags) => {
    const a = accionesFila({ ...flags, id_tipo_ejercicio: 4 }, { soloLectura: true });
    expect(a).toEqual({
      cuestionario: false,
      iniciar: false,
      pausar: false,
      detener: false,
      programar: false,
      ver: true,
      reenviar: false,
      descargas: ['reporte1', 'reporte2'],
      editar: false,
      duplicar: false,
      archivar: false,
      restaurar: false,
      eliminar: false,
      solicitar_aprobacion: false,
      aprobar: false,
      corregir: false,
    });
  });

  // Issue 47.2: a real alert's first start waits for a second person's approval.
  it('Alerta real: Solicitar aprobación, Aprobar for another approver, Start once approved', () => {
    const base = { completado: '0', en_proceso: '0', en_pausa: '0', id_tipo_ejercicio: 1 };
    const sin = accionesFila({ ...base, requiere_aprobacion: true, aprobacion: null });
    expect(sin).toMatchObject({
      programar: true,
      solicitar_aprobacion: true,
      aprobar: false,
    });
    const pendiente = { ...base, requiere_aprobacion: true, aprobacion: 'pendiente' };
    expect(accionesFila(pendiente)).toMatchObject({
      solicitar_aprobacion: false,
      aprobar: false,
    });
    expect(accionesFila(pendiente, { soloLectura: true, puedeAprobar: true }).aprobar).toBe(true);
    for (const otra of ['rechazada', 'expirada'])
      expect(accionesFila({ ...base, requiere_aprobacion: true, aprobacion: otra })).toMatchObject({
        solicitar_aprobacion: true,
      });
    expect(
      accionesFila({ ...base, requiere_aprobacion: true, aprobacion: 'aprobada' }),
    ).toMatchObject({ iniciar: true, solicitar_aprobacion: false });
    // Paused after its approved start: resumes without asking again.
    expect(
      accionesFila({
        ...base,
        en_proceso: '1',
        en_pausa: '1',
        iniciado: 1,
        requiere_aprobacion: true,
      }),
    ).toMatchObject({ iniciar: true, solicitar_aprobacion: false });
  });

  it.each<[string, Record<string, string>, boolean]>([
    ['not started', { completado: '0', en_proceso: '0', en_pausa: '0' }, false],
    ['running', { completado: '0', en_proceso: '1', en_pausa: '0' }, false],
    ['paused', { completado: '0', en_proceso: '1', en_pausa: '1' }, true],
    ['completed or stopped', { completado: '1', en_proceso: '0', en_pausa: '0' }, true],
  ])("'Reenviar a no alcanzados' once finished, stopped or paused: %s → %s", (_, f, reenviar) => {
    const a = accionesFila({
      completado: f.completado!,
      en_proceso: f.en_proceso!,
      en_pausa: f.en_pausa!,
      id_tipo_ejercicio: 2,
    });
    expect(a.reenviar).toBe(reenviar);
  });

  it.each<[string, Record<string, string>, boolean]>([
    ['not started', { completado: '0', en_proceso: '0', en_pausa: '0' }, true],
    ['running', { completado: '0', en_proceso: '1', en_pausa: '0' }, false],
    ['paused', { completado: '0', en_proceso: '1', en_pausa: '1' }, false],
    ['completed or stopped', { completado: '1', en_proceso: '0', en_pausa: '0' }, false],
  ])('schedule its start only before it ever started: %s → %s', (_, flags, programar) => {
    const a = accionesFila({
      completado: flags.completado!,
      en_proceso: flags.en_proceso!,
      en_pausa: flags.en_pausa!,
      id_tipo_ejercicio: 1,
    });
    expect(a.programar).toBe(programar);
  });
});

describe('accionesFila: type-dependent actions (SPEC 2 row actions)', () => {
  it.each([
    [1, false, ['reporte']],
    [2, false, ['reporte']],
    [3, false, ['reporte']],
    [4, true, ['reporte1', 'reporte2']],
    ['4', true, ['reporte1', 'reporte2']],
  ])('type %j: questionnaire %s, downloads %j', (tipo, cuestionario, descargas) => {
    for (const completado of ['0', '1']) {
      const a = accionesFila({
        completado,
        en_proceso: '0',
        en_pausa: '0',
        id_tipo_ejercicio: tipo,
      });
      expect(a.cuestionario).toBe(cuestionario);
      expect(a.descargas).toEqual(descargas);
    }
  });
});

describe('accionesFila: lifecycle actions (issue 26.1)', () => {
  type Flags = Omit<FlagsEjercicio, 'id_tipo_ejercicio'>;
  const base = { en_pausa: '0', archivado: '0' };
  // [case, flags, editar, duplicar, archivar, restaurar, eliminar, iniciar]
  it.each<[string, Flags, boolean, boolean, boolean, boolean, boolean, boolean]>([
    [
      'never started',
      { ...base, completado: '0', en_proceso: '0', iniciado: null },
      true,
      true,
      true,
      false,
      true,
      true,
    ],
    [
      'running',
      { ...base, completado: '0', en_proceso: '1', iniciado: 1 },
      false,
      true,
      false,
      false,
      false,
      false,
    ],
    [
      'paused',
      { ...base, completado: '0', en_proceso: '1', en_pausa: '1', iniciado: 1 },
      false,
      true,
      false,
      false,
      false,
      true,
    ],
    [
      'completed',
      { ...base, completado: '1', en_proceso: '0', iniciado: 1 },
      false,
      true,
      true,
      false,
      false,
      false,
    ],
    [
      'stopped before it started',
      { ...base, completado: '1', en_proceso: '0', iniciado: null },
      false,
      true,
      true,
      false,
      true,
      false,
    ],
    [
      'archived, never started',
      { completado: '0', en_proceso: '0', en_pausa: '0', iniciado: null, archivado: '1' },
      false,
      true,
      false,
      true,
      true,
      false,
    ],
    [
      'archived, completed',
      { completado: '1', en_proceso: '0', en_pausa: '0', iniciado: 5, archivado: 1 },
      false,
      true,
      false,
      true,
      false,
      false,
    ],
  ])('%s', (_, flags, editar, duplicar, archivar, restaurar, eliminar, iniciar) => {
    const a = accionesFila({ ...flags, id_tipo_ejercicio: 1 });
    expect({
      editar: a.editar,
      duplicar: a.duplicar,
      archivar: a.archivar,
      restaurar: a.restaurar,
      eliminar: a.eliminar,
      iniciar: a.iniciar,
      programar: a.programar && !a.iniciar,
    }).toEqual({ editar, duplicar, archivar, restaurar, eliminar, iniciar, programar: false });
  });

  it('a read-only user gets none of them', () => {
    const a = accionesFila(
      {
        completado: '0',
        en_proceso: '0',
        en_pausa: '0',
        iniciado: null,
        archivado: '1',
        id_tipo_ejercicio: 1,
      },
      { soloLectura: true },
    );
    expect([a.editar, a.duplicar, a.archivar, a.restaurar, a.eliminar]).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('accionesFila: Enviar corrección / Cancelar alerta (issue 47.2)', () => {
  const base = { id_tipo_ejercicio: 1, en_pausa: '0' } as const;
  it.each([
    ['never started', { completado: '0', en_proceso: '0', iniciado: null }, {}, false],
    ['running', { completado: '0', en_proceso: '1', iniciado: 1 }, {}, true],
    ['finished', { completado: '1', en_proceso: '0', iniciado: 1 }, {}, true],
    ['archived', { completado: '1', en_proceso: '0', iniciado: 1, archivado: '1' }, {}, false],
    [
      'read-only user',
      { completado: '1', en_proceso: '0', iniciado: 1 },
      { soloLectura: true },
      false,
    ],
  ] as const)('%s', (_, flags, opciones, corregir) => {
    expect(accionesFila({ ...base, ...flags }, opciones).corregir).toBe(corregir);
  });
});
