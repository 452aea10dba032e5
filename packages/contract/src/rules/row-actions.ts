/**
 * Which actions a row of the exercises list offers, from its status flags (SPEC 2 "Row actions"
 * and SPEC 4 "Exercise status"). The api sends the result with each row so the web never
 * recomputes it.
 */
import { TIPO_CUESTIONARIO } from '../constants.ts';
import { ROLES_POR_ACCESO } from '../api/endpoint.ts';
import {
  accionDeInicio,
  estadoDe,
  transicion,
  type AccionCiclo,
  type Quien,
} from './ciclo-ejercicio.ts';
import { admiteSeguimiento } from './seguimiento.ts';

/** A '0'/'1' flag as the list sends it; numbers are accepted for rows read from the database. */
export type Bandera = string | number;

/** The fields of an exercise row the actions depend on. */
export interface FlagsEjercicio {
  completado: Bandera;
  en_proceso: Bandera;
  en_pausa: Bandera;
  id_tipo_ejercicio: number | string;
  /** Epoch ms of its first start; null (or absent) when it never started (issue 26.1). */
  iniciado?: number | null;
  /** '1' when archived (issue 26.1): hidden from 'Activos' and 'Todos'. */
  archivado?: Bandera;
  /** Issue 47.2: true when it may start only once a second person approved it. */
  requiere_aprobacion?: boolean;
  /** Issue 47.2: where its approval stands now (rules/aprobacion.ts estadoAprobacion). */
  aprobacion?: string | null;
}

/** Report download buttons: one for types 1 to 3, 'Reporte 1' and 'Reporte 2' for type 4. */
export type Descarga = 'reporte' | 'reporte1' | 'reporte2';

/** The actions a row offers. */
export interface AccionesFila {
  /** Opens the 'Crear cuestionario' dialog (type 4 only). */
  cuestionario: boolean;
  /** Starts the exercise, or resumes it when paused (ARCHITECTURE correction 4). */
  iniciar: boolean;
  pausar: boolean;
  detener: boolean;
  /** Schedules, reschedules or unschedules its start (issue 24.3): only before it ever started. */
  programar: boolean;
  ver: true;
  /** 'Reenviar a no alcanzados' (issue 25.1): once finished, stopped or paused. */
  reenviar: boolean;
  descargas: readonly Descarga[];
  /** Issue 26.1: changes every field of the create dialog; only before it ever started. */
  editar: boolean;
  /** Opens the create dialog prefilled with a copy ('Copia de {nombre}'); any exercise. */
  duplicar: boolean;
  /** Hides it under 'Archivados'; any exercise not running (nor paused). */
  archivar: boolean;
  /** Brings an archived exercise back to the list. */
  restaurar: boolean;
  /** Deletes it, after a confirmation naming it; only when it never started. */
  eliminar: boolean;
  /** Issue 47.2: 'Solicitar aprobación': it needs approval, has none pending nor granted, and
   * never started. */
  solicitar_aprobacion: boolean;
  /** Issue 47.2: opens the approval screen ('Aprobar'/'Rechazar'): a pending request, for an
   * approver who neither created it nor asked. */
  aprobar: boolean;
  /** Issue 47.2: 'Enviar corrección' and 'Cancelar alerta' (from approved templates, no new
   * approval): once it started, not archived. */
  corregir: boolean;
}

/** Options of `accionesFila`. */
export interface OpcionesAcciones {
  /** The user may not change exercises (role 'consulta'): only View and Download remain. */
  soloLectura?: boolean;
  /** Issue 47.2: the user holds 'aprobadores' and neither created this exercise nor asked for
   * its approval. */
  puedeAprobar?: boolean;
}

/**
 * Actions of one row: the lifecycle's transitions (rules/ciclo-ejercicio.ts) this user may take
 * from the row's state, plus what the row offers only in some of the states the server accepts.
 *
 * SPEC 4 status table, row by row:
 * - Not started (completado '0', en_proceso '0'): Start.
 * - Running (completado '0', en_proceso '1', en_pausa '0'): Pause, Stop.
 * - Paused (en_proceso '1', en_pausa '1'): Stop, and Start to resume (ARCHITECTURE correction 4;
 *   the SPEC's original did not show resume).
 * - Completed (completado not '0'): View and Download only.
 * SPEC 2 row actions: Questionnaire whenever id_tipo_ejercicio is 4 (also when completed, so a
 * finished quiz can be cloned with 'Guardar como nuevo cuestionario'); View always; Download as
 * one 'reporte' button, or 'reporte1' and 'reporte2' for type 4.
 * Issue 26.1 (never for a read-only user): Edit before the first start; Duplicate always; Archive
 * unless running or paused; Restore when archived; Delete when it never started. An archived
 * exercise offers none of Start, Pause, Stop, Schedule or Edit until restored.
 * Issue 47.2: a first start waiting for its approval keeps Start (the web shows it disabled with
 * the server's reason) beside 'Solicitar aprobación'; Stop is offered only while it runs (the
 * SPEC's /quiz/stop/ accepts any open exercise).
 */
export function accionesFila(ej: FlagsEjercicio, opciones: OpcionesAcciones = {}): AccionesFila {
  const esCuestionario = Number(ej.id_tipo_ejercicio) === TIPO_CUESTIONARIO;
  const escribe = !opciones.soloLectura;
  const estado = estadoDe(ej);
  const quien: Quien = {
    roles: [
      ...(escribe ? ROLES_POR_ACCESO.escritura : []),
      ...(opciones.puedeAprobar ? ROLES_POR_ACCESO.aprobacion : []),
    ],
  };
  const puede = (a: AccionCiclo) => transicion(estado, a, quien).ok;
  const inicio = transicion(estado, accionDeInicio(estado), quien);
  const vivo = !estado.archivado;
  const corriendo = estado.fase === 'en_curso' || estado.fase === 'pausado';
  return {
    cuestionario: esCuestionario && escribe,
    iniciar: vivo && (inicio.ok || !!inicio.aprobacion),
    pausar: vivo && puede('pausar'),
    detener: vivo && corriendo && puede('detener'),
    programar: vivo && puede('programar'),
    ver: true,
    reenviar: escribe && admiteSeguimiento(ej),
    descargas: esCuestionario ? ['reporte1', 'reporte2'] : ['reporte'],
    editar: puede('editar'),
    duplicar: escribe,
    archivar: vivo && puede('archivar'),
    restaurar: estado.archivado && puede('restaurar'),
    eliminar: puede('eliminar'),
    solicitar_aprobacion:
      vivo && estado.aprobacion !== 'emergencia' && puede('solicitar_aprobacion'),
    aprobar: vivo && puede('aprobar'),
    corregir: escribe && vivo && estado.iniciado,
  };
}
