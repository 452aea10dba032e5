/**
 * Reminders of a poll (issue 46.2): an SMS or WhatsApp exercise with a poll may re-ask whoever it
 * reached and has no current answer, `recordatorio_minutos` after it (or its previous reminder)
 * finished sending, at most `recordatorios_max` times. Both absent (what the SPEC's client sends)
 * or `recordatorios_max` 0 = no reminders.
 *
 * A reminder is a link of the follow-up chain ('Recordatorio 1: {ejercicio}', its origen the link
 * it follows), made and started by the api's scheduler. It sends the SAME text (question and
 * options) through the same device, but holds no poll of its own: a reply is matched to the
 * latest POLL sent to that number on that device (rules/respuestas.ts encuestaAbierta), and
 * since the reminder is not one, that is still the original exercise's send, so the answer
 * counts for the person in the original poll (its dashboard, cases, reports). Were the reminder a
 * poll of its own, it would close the original (a later poll closes the earlier) and its answers
 * would count in a second poll nobody reads. The original's window (ENCUESTA_VENTANA_HORAS, from
 * its send) therefore bounds the reminders: minutes × times must fit in it.
 */
import { z } from 'zod';
import { TIPO_SMS, TIPO_WHATSAPP, VENTANA_ENCUESTA_HORAS } from '../constants.ts';
import { msg } from '../messages.ts';
import { enteroSchema, vacioComoAusente } from '../zod-helpers.ts';

/** Longest wait before a reminder: one day. */
export const RECORDATORIO_MINUTOS_MAX = 24 * 60;
/** Most reminders of one poll. */
export const RECORDATORIOS_MAX = 5;

/** The two fields of the create/edit body (blank = absent). */
export const CamposRecordatorioSchema = {
  recordatorio_minutos: vacioComoAusente(
    enteroSchema('recordatorio_minutos', 1, RECORDATORIO_MINUTOS_MAX).optional(),
  ),
  recordatorios_max: vacioComoAusente(
    enteroSchema('recordatorios_max', 0, RECORDATORIOS_MAX).optional(),
  ),
};

/** What the reminder rules read of a create/edit body. */
export interface CuerpoRecordatorio {
  tipo_ejercicio: number;
  encuesta?: unknown;
  recordatorio_minutos?: number | undefined;
  recordatorios_max?: number | undefined;
}

/** Whether a body asks for reminders. */
export const pideRecordatorios = (b: CuerpoRecordatorio): boolean =>
  (b.recordatorios_max ?? 0) > 0 || b.recordatorio_minutos !== undefined;

/** Where a body's reminders do not fit (each names its field): they need a poll of an SMS or
 * WhatsApp exercise, both fields, and must all leave within the poll's window (`ventanaHoras`,
 * the api's setting). */
export function erroresRecordatorio(
  b: CuerpoRecordatorio,
  ventanaHoras: number = VENTANA_ENCUESTA_HORAS,
): { campo: string; mensaje: string }[] {
  if (!pideRecordatorios(b)) return [];
  const campo = b.recordatorios_max !== undefined ? 'recordatorios_max' : 'recordatorio_minutos';
  if ((b.tipo_ejercicio !== TIPO_SMS && b.tipo_ejercicio !== TIPO_WHATSAPP) || !b.encuesta)
    return [{ campo, mensaje: msg('recordatoriosSinEncuesta', { campo }) }];
  // 'recordatorios_max 0' with minutes is no reminders: accepted.
  if (b.recordatorios_max === 0) return [];
  if (b.recordatorio_minutos === undefined || b.recordatorios_max === undefined) {
    const falta =
      b.recordatorio_minutos === undefined ? 'recordatorio_minutos' : 'recordatorios_max';
    return [{ campo: falta, mensaje: msg('recordatoriosIncompletos', { campo: falta }) }];
  }
  if (b.recordatorio_minutos * b.recordatorios_max > ventanaHoras * 60)
    return [
      {
        campo: 'recordatorio_minutos',
        mensaje: msg('recordatoriosFueraDeVentana', {
          campo: 'recordatorio_minutos',
          horas: ventanaHoras,
          minutos: b.recordatorio_minutos,
          veces: b.recordatorios_max,
        }),
      },
    ];
  return [];
}

/** The exercise's columns for a body: none unless it has a poll and asks for at least one. */
export function columnasRecordatorio(b: CuerpoRecordatorio): {
  recordatorio_minutos: number | null;
  recordatorios_max: number;
} {
  const si =
    Boolean(b.encuesta) &&
    (b.tipo_ejercicio === TIPO_SMS || b.tipo_ejercicio === TIPO_WHATSAPP) &&
    (b.recordatorios_max ?? 0) > 0 &&
    b.recordatorio_minutos !== undefined;
  return si
    ? { recordatorio_minutos: b.recordatorio_minutos!, recordatorios_max: b.recordatorios_max! }
    : { recordatorio_minutos: null, recordatorios_max: 0 };
}

/** A reminder's title: 'Recordatorio 1: {ejercicio}'. */
export const tituloRecordatorio = (n: number, ejercicio: string): string =>
  msg('recordatorioTitulo', { n, ejercicio }).slice(0, 200);

/** The list row's fields (the dialog shows a saved poll's reminders when editing). */
export const FilaRecordatorioSchema = {
  recordatorio_minutos: z.number().nullable().optional(),
  recordatorios_max: z.number().optional(),
  /** On a reminder: the poll exercise it re-asks, and its number. */
  recordatorio_de: z.number().nullable().optional(),
  recordatorio_n: z.number().nullable().optional(),
};

/** When reminder `n` (1-based) of a poll is due: `minutos` after the previous link ended. */
export const vencimientoRecordatorio = (terminadoPrevio: number, minutos: number): number =>
  terminadoPrevio + minutos * 60_000;
