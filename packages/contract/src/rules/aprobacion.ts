/**
 * Issue 47.2: two people for a real alert. Which exercises need a second person's approval before
 * their first start, where a request stands, and why a start is refused. Pure: the api applies it
 * in the start path (web, the SPEC's client and the scheduler alike) and the list's actions.
 */
import { msg, type ClaveMensaje } from '../messages.ts';
import type { EstadoAprobacion } from '../constants.ts';

/** Where an exercise came from when not from a person's dialog (ejercicios.procedencia): a CAP
 * alert (POST /cap/ or a CAP feed, issue 47.4). */
export const PROCEDENCIA_CAP = 'cap';

/** The fields of an exercise the approval depends on (epoch ms). */
export interface DatosAprobacion {
  modo: string;
  destinatarios: number | string;
  /** 'cap' when a CAP alert created it; null or absent when created in Pregón. */
  procedencia?: string | null;
  aprobacion: string | null;
  aprobacion_expira: number | string | null;
}

/**
 * True when the exercise may start only once approved: every 'Alerta real', every exercise a CAP
 * alert created whatever its mode (issue 47.4: another system's alert never goes out on one
 * person's click), and a drill or test over `umbral` recipients when the setting
 * (APROBACION_DESDE_DESTINATARIOS) is above 0.
 */
export function requiereAprobacion(
  e: Pick<DatosAprobacion, 'modo' | 'destinatarios' | 'procedencia'>,
  umbral: number,
): boolean {
  return (
    e.modo === 'real' ||
    e.procedencia === PROCEDENCIA_CAP ||
    (umbral > 0 && Number(e.destinatarios) > umbral)
  );
}

/** Where its request stands at `ahora`: a pending one past its expiry reads 'expirada'. */
export function estadoAprobacion(
  e: Pick<DatosAprobacion, 'aprobacion' | 'aprobacion_expira'>,
  ahora: number,
): EstadoAprobacion | null {
  const a = e.aprobacion;
  if (a === 'pendiente' && e.aprobacion_expira !== null && Number(e.aprobacion_expira) <= ahora)
    return 'expirada';
  return a === 'pendiente' ||
    a === 'aprobada' ||
    a === 'rechazada' ||
    a === 'expirada' ||
    a === 'emergencia'
    ? a
    : null;
}

/** The catalogue text refusing the start of an exercise that needs approval and lacks it, or null
 * when it may start (approved, or no approval needed). */
export function motivoSinAprobacion(
  estado: EstadoAprobacion | null,
  requiere: boolean,
): ClaveMensaje | null {
  if (!requiere || estado === 'aprobada' || estado === 'emergencia') return null;
  if (estado === 'pendiente') return 'aprobacionPendienteInicio';
  if (estado === 'rechazada') return 'aprobacionRechazadaInicio';
  if (estado === 'expirada') return 'aprobacionExpiradaInicio';
  return 'aprobacionRequerida';
}

/** True when `quien` created the exercise or asked for its approval: never its approver. */
export function esPropio(
  e: {
    creado_por: number | null;
    aprobacion_solicitante_id: number | null;
    aprobacion_solicitante: string | null;
  },
  quien: { id_usuario: number; usuario: string },
): boolean {
  return (
    (quien.id_usuario > 0 &&
      (quien.id_usuario === e.creado_por || quien.id_usuario === e.aprobacion_solicitante_id)) ||
    quien.usuario === e.aprobacion_solicitante
  );
}

/** What a list row or dashboard knows of its approval (api/ejercicios.ts EjercicioFila). */
export interface AprobacionDeFila {
  iniciado: number | null;
  requiere_aprobacion?: boolean;
  aprobacion?: EstadoAprobacion | null;
  aprobacion_detalle?: { resuelve: string | null; motivo: string | null };
}

/** Why 'Iniciar' is not offered yet (the web disables it and says this, issue 47.2): the same
 * text the api's refusal gives; null when the first start needs no approval or has it. */
export function razonSinAprobacion(f: AprobacionDeFila): string | null {
  if (f.iniciado !== null) return null;
  const clave = motivoSinAprobacion(f.aprobacion ?? null, !!f.requiere_aprobacion);
  if (!clave) return null;
  return msg(clave, {
    usuario: f.aprobacion_detalle?.resuelve ?? '',
    motivo: f.aprobacion_detalle?.motivo ?? '',
  });
}
