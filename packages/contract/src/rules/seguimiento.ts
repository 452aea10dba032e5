/**
 * 'Reenviar a no alcanzados' (issue 25.1): the outcome sets an operator picks from a finished,
 * stopped or paused drill to aim a new one at. Each set is a list of outcomes of the one reach
 * rule (rules/alcance.ts `Resultado`), so the dialog's counts, the server's copy and the reports
 * agree on who was not reached.
 *
 * SMS and WhatsApp 'enviado' count as reached in the semáforo (the gateway took the message); as
 * a follow-up set they read 'no entregado': no delivery receipt came. WhatsApp 'read' is stored
 * as 'entregado' (the webhook does not keep it apart), so no 'not read' set is offered.
 */
import {
  TIPO_CUESTIONARIO,
  TIPO_LLAMADA,
  TIPO_SMS,
  TIPO_WHATSAPP,
  ESTATUS_DESTINATARIO,
} from '../constants.ts';
import type { ClaveMensaje } from '../messages.ts';
import { resultadoDe, type Resultado } from './alcance.ts';

/** The follow-up sets, in the dialog's order. */
export const GRUPOS_SEGUIMIENTO = [
  'no_contesto',
  'ocupado',
  'colgo',
  'cuestionario_incompleto',
  'sms_no_entregado',
  'whatsapp_no_entregado',
  'fallido',
  'cancelado',
] as const;
/** One follow-up set. */
export type GrupoSeguimiento = (typeof GRUPOS_SEGUIMIENTO)[number];

/** The outcomes each set holds. */
export const RESULTADOS_GRUPO: Readonly<Record<GrupoSeguimiento, readonly Resultado[]>> = {
  no_contesto: ['no_contesto'],
  ocupado: ['ocupado'],
  colgo: ['colgo'],
  cuestionario_incompleto: ['respondio_parcial', 'sin_respuesta'],
  sms_no_entregado: ['enviado'],
  whatsapp_no_entregado: ['enviado'],
  fallido: ['fallido', 'invalido', 'incierto'],
  cancelado: ['cancelado'],
};

/** Catalogue label of each set ('Ocupado', shown as 'Ocupado (37)'). */
export const ETIQUETA_GRUPO: Readonly<Record<GrupoSeguimiento, ClaveMensaje>> = {
  no_contesto: 'estatusNoContesto',
  ocupado: 'estatusOcupado',
  colgo: 'resultadoColgoAntes',
  cuestionario_incompleto: 'grupoCuestionarioIncompleto',
  sms_no_entregado: 'grupoSmsNoEntregado',
  whatsapp_no_entregado: 'grupoWhatsappNoEntregado',
  fallido: 'grupoFallido',
  cancelado: 'estatusCancelado',
};

/** The sets an exercise type offers: the outcomes its channel can produce. */
export function gruposDeTipo(tipo: number): GrupoSeguimiento[] {
  if (tipo === TIPO_SMS) return ['sms_no_entregado', 'fallido', 'cancelado'];
  if (tipo === TIPO_WHATSAPP) return ['whatsapp_no_entregado', 'fallido', 'cancelado'];
  if (tipo === TIPO_LLAMADA) return ['no_contesto', 'ocupado', 'colgo', 'fallido', 'cancelado'];
  if (tipo === TIPO_CUESTIONARIO)
    return ['no_contesto', 'ocupado', 'cuestionario_incompleto', 'fallido', 'cancelado'];
  return [];
}

/** The outcomes a choice of sets copies (deduplicated; sets foreign to the type add nothing). */
export function resultadosDeGrupos(tipo: number, grupos: readonly GrupoSeguimiento[]): Resultado[] {
  const validos = gruposDeTipo(tipo);
  return [
    ...new Set(grupos.filter((g) => validos.includes(g)).flatMap((g) => RESULTADOS_GRUPO[g])),
  ];
}

/** A follow-up can be made from a drill that is finished, stopped or paused. */
export function admiteSeguimiento(e: {
  completado: string | number;
  en_proceso: string | number;
  en_pausa: string | number;
}): boolean {
  const uno = (f: string | number) => String(f).trim() === '1';
  return uno(e.completado) || (uno(e.en_proceso) && uno(e.en_pausa));
}

/** Recipients per set of the type, from `GROUP BY estatus, alcance` rows (counts may be strings). */
export function conteoGrupos(
  tipo: number,
  rows: readonly { estatus: string; alcance?: string | null; total: number | string }[],
): { grupo: GrupoSeguimiento; total: number }[] {
  const porResultado = new Map<Resultado, number>();
  for (const row of rows) {
    if (!(ESTATUS_DESTINATARIO as readonly string[]).includes(row.estatus)) continue;
    const r = resultadoDe(row.estatus, row.alcance);
    porResultado.set(r, (porResultado.get(r) ?? 0) + (Number(row.total) || 0));
  }
  return gruposDeTipo(tipo).map((grupo) => ({
    grupo,
    total: RESULTADOS_GRUPO[grupo].reduce((s, r) => s + (porResultado.get(r) ?? 0), 0),
  }));
}
