import { describe, expect, it } from 'vitest';
import * as ap from '../api/aprobaciones.ts';
import * as ej from '../api/ejercicios.ts';
import { msg, type ClaveMensaje } from '../messages.ts';
import {
  ACCIONES_CICLO,
  FASES,
  TRANSICIONES,
  estadoDe,
  faseDe,
  transicion,
  type AccionCiclo,
  type EstadoEjercicio,
  type Fase,
} from './ciclo-ejercicio.ts';

// Issue 44.5: every state × every transition. A cell is the phase the transition leads to, or the
// catalogue key of the api's refusal. The product itself ('sistema') takes them here; who else
// may is tested below.

/** Each phase as the product leaves it: started or not as its flags say, not archived, no
 * approval needed. */
const BASE: Record<Fase, EstadoEjercicio> = {
  preparado: estado('preparado', false),
  en_curso: estado('en_curso', true),
  pausado: estado('pausado', true),
  terminado: estado('terminado', true),
  detenido: estado('detenido', true),
  indeterminado: estado('indeterminado', false),
};

function estado(fase: Fase, iniciado: boolean, otros: Partial<EstadoEjercicio> = {}) {
  return {
    fase,
    iniciado,
    archivado: false,
    requiere_aprobacion: false,
    aprobacion: null,
    ...otros,
  } satisfies EstadoEjercicio;
}

type Celda = Fase | ClaveMensaje;
const COLUMNAS = FASES;
// prettier-ignore
const TABLA: Record<Exclude<AccionCiclo, 'crear'>, readonly Celda[]> = {
  //                     preparado                 en_curso                  pausado                   terminado              detenido               indeterminado
  editar:               ['preparado',             'noEditableIniciado',     'noEditableIniciado',     'noEditableIniciado',  'noEditableIniciado',  'noEditableIniciado'],
  eliminar:             ['preparado',             'noEliminableIniciado',   'noEliminableIniciado',   'noEliminableIniciado', 'noEliminableIniciado', 'indeterminado'],
  generar:              ['preparado',             'yaIniciado',             'yaIniciado',             'yaIniciado',          'yaIniciado',          'yaIniciado'],
  programar:            ['preparado',             'ejercicioYaIniciado',    'ejercicioYaIniciado',    'ejercicioYaIniciado', 'ejercicioYaIniciado', 'ejercicioYaIniciado'],
  solicitar_aprobacion: ['aprobacionNoRequerida', 'aprobacionYaIniciado',   'aprobacionYaIniciado',   'ejercicioCompletado', 'ejercicioCompletado', 'aprobacionNoRequerida'],
  aprobar:              ['aprobacionNoPendiente', 'aprobacionYaIniciado',   'aprobacionYaIniciado',   'ejercicioCompletado', 'ejercicioCompletado', 'aprobacionNoPendiente'],
  rechazar:             ['aprobacionNoPendiente', 'aprobacionYaIniciado',   'aprobacionYaIniciado',   'ejercicioCompletado', 'ejercicioCompletado', 'aprobacionNoPendiente'],
  emergencia:           ['aprobacionNoRequerida', 'aprobacionYaIniciado',   'aprobacionYaIniciado',   'ejercicioCompletado', 'ejercicioCompletado', 'aprobacionNoRequerida'],
  iniciar:              ['en_curso',              'ejercicioEnProceso',     'ejercicioEnProceso',     'ejercicioCompletado', 'ejercicioCompletado', 'ejercicioEnProceso'],
  reanudar:             ['ejercicioEnProceso',    'ejercicioEnProceso',     'en_curso',               'ejercicioCompletado', 'ejercicioCompletado', 'ejercicioEnProceso'],
  confirmar_inicio:     ['ejercicioNoIniciado',   'en_curso',               'en_curso',               'ejercicioCompletado', 'ejercicioCompletado', 'ejercicioNoIniciado'],
  pausar:               ['ejercicioNoEnProceso',  'pausado',                'ejercicioYaPausado',     'ejercicioCompletado', 'ejercicioCompletado', 'ejercicioNoEnProceso'],
  pausa_automatica:     ['ejercicioNoEnProceso',  'pausado',                'ejercicioNoEnProceso',   'ejercicioNoEnProceso', 'ejercicioNoEnProceso', 'ejercicioNoEnProceso'],
  detener:              ['detenido',              'detenido',               'detenido',               'ejercicioCompletado', 'ejercicioCompletado', 'detenido'],
  terminar:             ['ejercicioNoEnProceso',  'terminado',              'ejercicioNoEnProceso',   'ejercicioNoEnProceso', 'ejercicioNoEnProceso', 'ejercicioNoEnProceso'],
  archivar:             ['preparado',             'noArchivableEnCurso',    'noArchivableEnCurso',    'terminado',           'detenido',            'indeterminado'],
  restaurar:            ['preparado',             'en_curso',               'pausado',                'terminado',           'detenido',            'indeterminado'],
};

const celda = (r: ReturnType<typeof transicion>): string =>
  r.ok ? r.estado.fase : (r.clave ?? r.mensaje);

describe('transicion: cada estado × cada acción', () => {
  it('la tabla cubre cada acción (salvo crear) y cada fase', () => {
    expect(Object.keys(TABLA).sort()).toEqual(ACCIONES_CICLO.filter((a) => a !== 'crear').sort());
    for (const fila of Object.values(TABLA)) expect(fila).toHaveLength(FASES.length);
  });
  for (const [accion, fila] of Object.entries(TABLA) as [AccionCiclo, Celda[]][])
    it.each(COLUMNAS.map((f, i) => [f, fila[i]!] as const))(
      `${accion} desde %s → %s`,
      (f, esperado) => {
        const r = transicion(BASE[f], accion, 'sistema');
        expect(celda(r)).toBe(esperado);
        if (!r.ok) {
          expect(r.status).toBe(409);
          expect(r.mensaje).toBe(msg(r.clave!));
        }
      },
    );
});

describe('transicion: lo que escribe', () => {
  const cambios = (f: Fase, a: AccionCiclo) => {
    const r = transicion(BASE[f], a, 'sistema');
    if (!r.ok) throw new Error(r.mensaje);
    return r.cambios;
  };
  it('iniciar y reanudar: en curso, sin pausa, sin espera ni motivo, ya no programado', () => {
    const esperado = {
      en_proceso: 1,
      en_pausa: 0,
      motivo_pausa: null,
      en_espera: null,
      inicio_automatico: 0,
    };
    expect(cambios('preparado', 'iniciar')).toEqual(esperado);
    expect(cambios('pausado', 'reanudar')).toEqual(esperado);
    expect(transicion(BASE.preparado, 'iniciar', 'sistema')).toMatchObject({
      estado: { fase: 'en_curso', iniciado: true },
    });
  });
  it('la segunda llamada del cliente del SPEC: nada sobre uno en curso, reanuda uno en pausa', () => {
    expect(cambios('en_curso', 'confirmar_inicio')).toEqual({});
    expect(cambios('pausado', 'confirmar_inicio')).toEqual({
      en_proceso: 1,
      en_pausa: 0,
      motivo_pausa: null,
      en_espera: null,
    });
  });
  it('pausar (persona y despachador), detener, terminar, archivar, restaurar', () => {
    expect(cambios('en_curso', 'pausar')).toEqual({ en_proceso: 1, en_pausa: 1, en_espera: null });
    expect(cambios('en_curso', 'pausa_automatica')).toEqual({ en_pausa: 1, en_espera: null });
    expect(cambios('pausado', 'detener')).toEqual({
      completado: 1,
      en_proceso: 0,
      en_pausa: 0,
      detenido: 1,
    });
    expect(cambios('en_curso', 'terminar')).toEqual({ completado: 1, en_proceso: 0, en_pausa: 0 });
    expect(cambios('terminado', 'archivar')).toEqual({
      archivado: 1,
      inicio_automatico: 0,
      inicio_nota: null,
      comprobado_en: null,
    });
    expect(cambios('terminado', 'restaurar')).toEqual({ archivado: 0 });
  });
  it('lo escrito se vuelve a leer como el estado al que llevó', () => {
    const banderas = { completado: 0, en_proceso: 0, en_pausa: 0, detenido: 0 };
    for (const [a, desde] of [
      ['iniciar', 'preparado'],
      ['pausar', 'en_curso'],
      ['pausa_automatica', 'en_curso'],
      ['reanudar', 'pausado'],
      ['detener', 'en_curso'],
      ['terminar', 'en_curso'],
    ] as const) {
      const previas = {
        preparado: banderas,
        en_curso: { ...banderas, en_proceso: 1 },
        pausado: { ...banderas, en_proceso: 1, en_pausa: 1 },
      }[desde];
      expect(faseDe(previas)).toBe(desde);
      const r = transicion(BASE[desde], a, 'sistema');
      if (!r.ok) throw new Error(r.mensaje);
      expect(faseDe({ ...previas, ...r.cambios }), a).toBe(r.estado.fase);
    }
  });
});

describe('transicion: archivado, aprobación, condiciones', () => {
  const archivado = (f: Fase) => ({ ...BASE[f], archivado: true });
  it('archivado: ni se inicia ni se edita; se restaura', () => {
    expect(celda(transicion(archivado('preparado'), 'iniciar', 'sistema'))).toBe(
      'ejercicioArchivadoNoInicia',
    );
    expect(celda(transicion(archivado('preparado'), 'editar', 'sistema'))).toBe(
      'ejercicioArchivadoNoEdita',
    );
    expect(celda(transicion(archivado('preparado'), 'programar', 'sistema'))).toBe(
      'ejercicioArchivadoNoPrograma',
    );
    const r = transicion(archivado('terminado'), 'restaurar', 'sistema');
    expect(r.ok && r.estado.archivado).toBe(false);
  });
  it('el plan de inicio rechaza después de completado y archivado, antes de en curso', () => {
    const plan = { plan: 'API SMS NO DISPONIBLE' };
    expect(celda(transicion(BASE.terminado, 'iniciar', 'sistema', plan))).toBe(
      'ejercicioCompletado',
    );
    expect(celda(transicion(archivado('preparado'), 'iniciar', 'sistema', plan))).toBe(
      'ejercicioArchivadoNoInicia',
    );
    expect(celda(transicion(BASE.en_curso, 'iniciar', 'sistema', plan))).toBe(plan.plan);
    expect(celda(transicion(BASE.pausado, 'reanudar', 'sistema', plan))).toBe(plan.plan);
  });
  it('un primer inicio sin la aprobación que necesita se rechaza con el texto de la fila', () => {
    const sin = { ...BASE.preparado, requiere_aprobacion: true };
    for (const [aprobacion, clave] of [
      [null, 'aprobacionRequerida'],
      ['pendiente', 'aprobacionPendienteInicio'],
      ['expirada', 'aprobacionExpiradaInicio'],
    ] as const) {
      const r = transicion({ ...sin, aprobacion }, 'iniciar', 'sistema');
      expect(r).toMatchObject({ ok: false, status: 409, aprobacion: true, mensaje: msg(clave) });
    }
    const rechazada = transicion(
      {
        ...sin,
        aprobacion: 'rechazada',
        aprobacion_detalle: { resuelve: 'ana', motivo: 'no' },
      },
      'iniciar',
      'sistema',
    );
    expect(rechazada).toMatchObject({
      ok: false,
      mensaje: msg('aprobacionRechazadaInicio', { usuario: 'ana', motivo: 'no' }),
    });
    for (const aprobacion of ['aprobada', 'emergencia'] as const)
      expect(transicion({ ...sin, aprobacion }, 'iniciar', 'sistema').ok).toBe(true);
    // A resume never asks again.
    expect(
      transicion({ ...BASE.pausado, requiere_aprobacion: true }, 'reanudar', 'sistema').ok,
    ).toBe(true);
  });
  it('solicitar, aprobar, rechazar, emergencia según dónde está la solicitud', () => {
    const req = (aprobacion: EstadoEjercicio['aprobacion']) => ({
      ...BASE.preparado,
      requiere_aprobacion: true,
      aprobacion,
    });
    const t = (e: EstadoEjercicio, a: AccionCiclo, propio = false) =>
      transicion(e, a, 'sistema', { propio });
    expect(celda(t(req(null), 'solicitar_aprobacion'))).toBe('preparado');
    expect(celda(t(req('pendiente'), 'solicitar_aprobacion'))).toBe('aprobacionYaPendiente');
    expect(celda(t(req('aprobada'), 'solicitar_aprobacion'))).toBe('aprobacionYaAprobada');
    expect(celda(t(req('rechazada'), 'solicitar_aprobacion'))).toBe('preparado');
    const pedida = t(req(null), 'solicitar_aprobacion');
    expect(pedida.ok && pedida.estado.aprobacion).toBe('pendiente');
    const aprobada = t(req('pendiente'), 'aprobar');
    expect(aprobada.ok && aprobada.cambios).toEqual({ aprobacion: 'aprobada' });
    const rechazada = t(req('pendiente'), 'rechazar');
    expect(rechazada.ok && rechazada.estado.aprobacion).toBe('rechazada');
    expect(t(req('pendiente'), 'aprobar', true)).toMatchObject({
      ok: false,
      status: 403,
      clave: 'aprobacionPropia',
    });
    expect(celda(t(req('expirada'), 'aprobar'))).toBe('aprobacionExpirada');
    expect(celda(t(req('aprobada'), 'rechazar'))).toBe('aprobacionNoPendiente');
    expect(celda(t(req('pendiente'), 'emergencia'))).toBe('preparado');
    expect(celda(t(req('emergencia'), 'emergencia'))).toBe('aprobacionYaAprobada');
  });
  it('editar o generar con destinatarios ya trabajados se rechaza', () => {
    expect(celda(transicion(BASE.preparado, 'editar', 'sistema', { trabajados: true }))).toBe(
      'noEditableIniciado',
    );
    expect(celda(transicion(BASE.preparado, 'generar', 'sistema', { trabajados: true }))).toBe(
      'yaIniciado',
    );
  });
});

describe('transicion: quién', () => {
  const operador = { roles: ['operadores'] };
  const consulta = { roles: ['consulta'] };
  const aprobador = { roles: ['aprobadores'] };
  const admin = { roles: ['administradores'] };
  const pendiente = {
    ...BASE.preparado,
    requiere_aprobacion: true,
    aprobacion: 'pendiente' as const,
  };
  it.each(ACCIONES_CICLO)('%s: solo quien su nivel admite', (a) => {
    const nivel = TRANSICIONES[a].quien;
    const quienes = { operador, consulta, aprobador, admin };
    const esperados = {
      escritura: ['operador', 'admin'],
      aprobacion: ['aprobador'],
      admin: ['admin'],
      sistema: [],
    } as Record<string, string[]>;
    for (const [nombre, q] of Object.entries(quienes)) {
      const r = transicion(pendiente, a, q);
      const sinPermiso = !r.ok && r.clave === 'sinPermiso';
      expect(sinPermiso, `${a} por ${nombre}`).toBe(!esperados[nivel]!.includes(nombre));
      if (sinPermiso) expect(r).toMatchObject({ status: 403 });
    }
  });
});

describe('estadoDe', () => {
  it.each([
    [{ completado: '0', en_proceso: '0', en_pausa: '0' }, 'preparado'],
    [{ completado: 0, en_proceso: 1, en_pausa: 0 }, 'en_curso'],
    [{ completado: '0', en_proceso: '1', en_pausa: '1' }, 'pausado'],
    [{ completado: 1, en_proceso: 0, en_pausa: 0 }, 'terminado'],
    [{ completado: 1, en_proceso: 0, en_pausa: 0, detenido: 1 }, 'detenido'],
    [{ completado: '2', en_proceso: '1', en_pausa: '0' }, 'terminado'],
    [{ completado: '0', en_proceso: '', en_pausa: '0' }, 'indeterminado'],
  ] as const)('%o → %s', (f, fase) => {
    expect(estadoDe(f).fase).toBe(fase);
  });
  it('iniciado, archivado y la aprobación', () => {
    expect(
      estadoDe({
        completado: 0,
        en_proceso: 0,
        en_pausa: 0,
        iniciado: 5,
        archivado: '1',
        requiere_aprobacion: true,
        aprobacion: 'pendiente',
      }),
    ).toEqual({
      fase: 'preparado',
      iniciado: true,
      archivado: true,
      requiere_aprobacion: true,
      aprobacion: 'pendiente',
    });
  });
});

describe('los endpoints piden el mismo nivel que la transición que toman', () => {
  it.each([
    ['crear', ej.crearEjercicio],
    ['editar', ej.editarEjercicio],
    ['eliminar', ej.eliminarEjercicio],
    ['generar', ej.generarDestinatarios],
    ['programar', ej.programarEjercicio],
    ['iniciar', ej.iniciarEjercicio],
    ['reanudar', ej.iniciarEjercicio],
    ['pausar', ej.pausarEjercicio],
    ['confirmar_inicio', ej.pausarEjercicio],
    ['detener', ej.detenerEjercicio],
    ['archivar', ej.archivarEjercicio],
    ['restaurar', ej.archivarEjercicio],
    ['solicitar_aprobacion', ap.solicitarAprobacion],
    ['aprobar', ap.aprobarEjercicio],
    ['rechazar', ap.rechazarEjercicio],
    ['emergencia', ap.inicioEmergencia],
  ] as const)('%s', (accion, endpoint) => {
    expect(endpoint.acceso).toBe(TRANSICIONES[accion].quien);
  });
});
