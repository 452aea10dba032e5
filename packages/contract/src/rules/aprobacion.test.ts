import { describe, expect, it } from 'vitest';
import { msg } from '../messages.ts';
import { PROCEDENCIA_CAP, razonSinAprobacion, requiereAprobacion } from './aprobacion.ts';
import { accionesFila } from './row-actions.ts';

// Issue 47.4: an exercise a CAP alert created needs approval whatever its mode and size; one
// created in Pregón only when real or over the threshold.
describe('requiereAprobacion', () => {
  it('toda alerta llegada por CAP, también un simulacro bajo el umbral', () => {
    const cap = { procedencia: PROCEDENCIA_CAP, destinatarios: 2 };
    for (const modo of ['simulacro', 'prueba', 'real'])
      for (const umbral of [0, 100])
        expect(requiereAprobacion({ ...cap, modo }, umbral)).toBe(true);
    expect(
      requiereAprobacion({ modo: 'simulacro', destinatarios: 2, procedencia: null }, 100),
    ).toBe(false);
    expect(requiereAprobacion({ modo: 'simulacro', destinatarios: 2 }, 0)).toBe(false);
    expect(requiereAprobacion({ modo: 'simulacro', destinatarios: 101 }, 100)).toBe(true);
    expect(requiereAprobacion({ modo: 'real', destinatarios: 0 }, 0)).toBe(true);
  });
});

// Issue 47.2: why the web shows 'Iniciar' disabled, the same text the api's refusal gives.
describe('razonSinAprobacion', () => {
  const detalle = { resuelve: 'aprobadora', motivo: 'Falta el refugio' };
  it('sin solicitar, pendiente, rechazada (quién y por qué) y expirada', () => {
    const base = { iniciado: null, requiere_aprobacion: true, aprobacion_detalle: detalle };
    expect(razonSinAprobacion({ ...base, aprobacion: null })).toBe(msg('aprobacionRequerida'));
    expect(razonSinAprobacion({ ...base, aprobacion: 'pendiente' })).toBe(
      msg('aprobacionPendienteInicio'),
    );
    expect(razonSinAprobacion({ ...base, aprobacion: 'rechazada' })).toBe(
      'La aprobación de este ejercicio fue rechazada por aprobadora: Falta el refugio. Corríjalo y solicite aprobación de nuevo',
    );
    expect(razonSinAprobacion({ ...base, aprobacion: 'expirada' })).toBe(
      msg('aprobacionExpiradaInicio'),
    );
  });
  it('aprobada, sin necesidad de aprobación o ya iniciada: nada la detiene', () => {
    expect(
      razonSinAprobacion({ iniciado: null, requiere_aprobacion: true, aprobacion: 'aprobada' }),
    ).toBeNull();
    expect(razonSinAprobacion({ iniciado: null, requiere_aprobacion: false })).toBeNull();
    // An administrator's emergency start (APROBACION_EMERGENCIA) stands for the approval: no
    // reason, and the row no longer offers to ask for one.
    const emergencia = {
      iniciado: null,
      requiere_aprobacion: true,
      aprobacion: 'emergencia',
    } as const;
    expect(razonSinAprobacion(emergencia)).toBeNull();
    const flags = { completado: '0', en_proceso: '0', en_pausa: '0', id_tipo_ejercicio: 1 };
    expect(accionesFila({ ...flags, ...emergencia })).toMatchObject({
      iniciar: true,
      solicitar_aprobacion: false,
    });
    expect(accionesFila({ ...flags, ...emergencia, aprobacion: 'rechazada' })).toMatchObject({
      solicitar_aprobacion: true,
    });
    // A resumed real alert was approved at its first start.
    expect(
      razonSinAprobacion({ iniciado: 1, requiere_aprobacion: true, aprobacion: null }),
    ).toBeNull();
  });
});
