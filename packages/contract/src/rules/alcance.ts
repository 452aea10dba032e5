/**
 * Who was reached (issue 23, points 4 and 5): the one rule the semáforo, the dashboards, the
 * reports, the after-action report and its 'No alcanzados' sheet share.
 *
 * A recipient's outcome (`Resultado`) is its estatus, refined for answered calls by how the call
 * went (`alcance`, stored beside the estatus in ejercicio_detalle):
 * - calls: 'escucho' when the audio reached its end (the dialplan's `PregonFin` UserEvent came),
 *   'colgo' when the callee hung up (or the call was cut) before;
 * - quizzes: 'respondio_todo' (every question answered), 'respondio_parcial' (some), and
 *   'sin_respuesta' (none);
 * - WhatsApp messages: 'leido' when Meta's webhook said the message was read (the row stays
 *   'entregado', so every count of delivered keeps it; a read is delivered and reached).
 * Reached means green: delivered or sent messages, a call heard to its end, a quiz answered in
 * full. A partly heard call or a partly answered quiz is amber and not reached; a cancelled
 * recipient (a stopped drill) is not reached either, and every percentage is of all recipients.
 */
import {
  ESTATUS_AMARILLO,
  ESTATUS_DESTINATARIO,
  ESTATUS_ROJO,
  ESTATUS_VERDE,
  ETIQUETA_ESTATUS,
  UMBRALES_SEMAFORO,
  type ConteoLuces,
  type EstatusDestinatario,
  type LuzSemaforo,
  type Semaforo,
} from '../constants.ts';
import { msg, type ClaveMensaje } from '../messages.ts';
import { duracionCorta } from './reintentos.ts';

/** How an answered call went; null for everything else (and for calls answered before issue 23). */
export const ALCANCES_LLAMADA = [
  'escucho',
  'colgo',
  'respondio_todo',
  'respondio_parcial',
  'sin_respuesta',
] as const;
/** How a delivered message went: read (a WhatsApp 'read' status, issue 25.1). */
export const ALCANCES_MENSAJE = ['leido'] as const;
/** Every refinement an estatus may have. */
export const ALCANCES = [...ALCANCES_LLAMADA, ...ALCANCES_MENSAJE] as const;
/** One refinement of an answered call or a delivered message. */
export type Alcance = (typeof ALCANCES)[number];

/** The estatus each kind of refinement refines: answered calls, delivered messages. */
export const ESTATUS_REFINADOS = {
  llamada: ['contestado', 'respondido'],
  mensaje: ['entregado'],
} as const satisfies Record<string, readonly EstatusDestinatario[]>;

/** A recipient's outcome: its estatus, or for an answered call how it went. */
export type Resultado = EstatusDestinatario | Alcance;
/** Every outcome, estatus first. */
export const RESULTADOS: readonly Resultado[] = [...ESTATUS_DESTINATARIO, ...ALCANCES];

/** Where each outcome counts: a light, or apart for cancelled recipients. */
export const LUZ_RESULTADO: Readonly<Record<Resultado, LuzSemaforo | 'cancelado'>> = {
  ...(Object.fromEntries([
    ...ESTATUS_VERDE.map((e) => [e, 'verde']),
    ...ESTATUS_AMARILLO.map((e) => [e, 'amarillo']),
    ...ESTATUS_ROJO.map((e) => [e, 'rojo']),
    ['cancelado', 'cancelado'],
  ]) as Record<EstatusDestinatario, LuzSemaforo | 'cancelado'>),
  escucho: 'verde',
  colgo: 'amarillo',
  respondio_todo: 'verde',
  respondio_parcial: 'amarillo',
  sin_respuesta: 'amarillo',
  leido: 'verde',
};

/** Catalogue label of each outcome as a group (charts, the results sheet). */
export const ETIQUETA_RESULTADO: Readonly<Record<Resultado, ClaveMensaje>> = {
  ...ETIQUETA_ESTATUS,
  escucho: 'resultadoEscucho',
  colgo: 'resultadoColgoAntes',
  respondio_todo: 'resultadoRespondioTodo',
  respondio_parcial: 'resultadoRespondioEnParte',
  sin_respuesta: 'resultadoSinRespuesta',
  leido: 'resultadoLeido',
};

const en = (xs: readonly string[], x: unknown): boolean => typeof x === 'string' && xs.includes(x);

/** The outcome of a recipient row: `alcance` refines an answered call (contestado or respondido)
 * with a call's refinement and a delivered message (entregado) with 'leido'; anything else is its
 * estatus. */
export function resultadoDe(estatus: string, alcance?: string | null): Resultado {
  if (en(ESTATUS_REFINADOS.llamada, estatus) && en(ALCANCES_LLAMADA, alcance))
    return alcance as Alcance;
  if (en(ESTATUS_REFINADOS.mensaje, estatus) && en(ALCANCES_MENSAJE, alcance))
    return alcance as Alcance;
  return estatus as Resultado;
}

/** True when the outcome reached the person (green); the one definition of 'reached'. */
export function alcanzado(r: Resultado): boolean {
  return LUZ_RESULTADO[r] === 'verde';
}

/** Outcomes that reached the person, for SQL lists. */
export const RESULTADOS_ALCANZADOS: readonly Resultado[] = RESULTADOS.filter(alcanzado);

/** How an answered call went, from what Asterisk said during it: for a quiz (`preguntas` > 0) the
 * questions answered, for a call whether the audio reached its end (`PregonFin`). */
export function alcanceLlamada(e: {
  preguntas: number;
  respondidas: number;
  audioCompleto: boolean;
}): Alcance {
  if (e.preguntas > 0) {
    if (e.respondidas >= e.preguntas) return 'respondio_todo';
    return e.respondidas > 0 ? 'respondio_parcial' : 'sin_respuesta';
  }
  return e.audioCompleto ? 'escucho' : 'colgo';
}

/** The estatus an answered call is stored with: a quiz answered in full is 'respondido'. */
export const estatusContestada = (a: Alcance): 'contestado' | 'respondido' =>
  a === 'respondio_todo' ? 'respondido' : 'contestado';

/** The Spanish text of one recipient's outcome: 'Colgó a los N s' with its talk seconds,
 * 'Respondió N de M' with its answers and the questionnaire's questions. A call that lasted its
 * exercise's limit (`limite`, the 'Tiempo' in seconds: the dialplan's TIMEOUT(absolute), set on
 * answer) was hung up by the exercise, not by the callee (issue 45.5): 'El ejercicio colgó al
 * cumplirse 1 min'; a second short of it still counts (talk seconds are rounded). */
export function textoResultado(
  r: Resultado,
  d: {
    duracion?: number | null;
    respondidas?: number | null;
    preguntas?: number | null;
    limite?: number | null;
  } = {},
): string {
  if (r === 'colgo') {
    const s = Number(d.duracion ?? 0);
    const limite = Number(d.limite ?? 0);
    if (limite > 0 && s >= limite - 1)
      return msg('resultadoColgoLimite', { tiempo: duracionCorta(limite) });
    // 'a los 1 s' and 'a los 0 s' are not Spanish.
    if (s < 1) return msg('resultadoColgoAlContestar');
    if (s < 2) return msg('resultadoColgoUnSegundo');
    return msg('resultadoColgo', { s });
  }
  if (r === 'respondio_parcial')
    return msg('resultadoRespondioParcial', {
      n: Number(d.respondidas ?? 0),
      m: Number(d.preguntas ?? 0),
    });
  return msg(ETIQUETA_RESULTADO[r]);
}

/** Recipients per light and cancelled, the input of `luzSemaforo`. */
export interface ConteoAlcance extends ConteoLuces {
  cancelado: number;
}

/** Overall light of an exercise; every recipient counts, cancelled ones as not reached. Green only
 * when nothing is pending, partly reached or cancelled and failures stay under `amarillo` %. */
export function luzSemaforo(c: ConteoAlcance): LuzSemaforo {
  const base = c.verde + c.amarillo + c.rojo + c.cancelado;
  if (base <= 0) return 'verde';
  const rojoPct = (c.rojo * 100) / base;
  const perdidosPct = ((c.rojo + c.cancelado) * 100) / base;
  if (perdidosPct >= UMBRALES_SEMAFORO.rojo) return 'rojo';
  if (c.amarillo > 0 || c.cancelado > 0 || rojoPct >= UMBRALES_SEMAFORO.amarillo) return 'amarillo';
  return 'verde';
}

const redondear1 = (x: number): number => Math.round(x * 10) / 10;

/**
 * Builds the semáforo from `GROUP BY estatus, alcance` rows (totals may be numeric strings, as
 * PostgreSQL returns counts; `alcance` may be absent); repeated rows add up, unknown states are
 * ignored. Percentages are of every recipient, cancelled ones included.
 */
export function conteoSemaforo(
  rows: readonly { estatus: string; alcance?: string | null; total: number | string }[],
): Semaforo {
  const porEstatus = Object.fromEntries(ESTATUS_DESTINATARIO.map((e) => [e, 0])) as Record<
    EstatusDestinatario,
    number
  >;
  const porResultado = Object.fromEntries(RESULTADOS.map((e) => [e, 0])) as Record<
    Resultado,
    number
  >;
  const c: ConteoAlcance = { verde: 0, amarillo: 0, rojo: 0, cancelado: 0 };
  for (const row of rows) {
    const n = Number(row.total);
    if (!Object.hasOwn(porEstatus, row.estatus) || !Number.isFinite(n)) continue;
    porEstatus[row.estatus as EstatusDestinatario] += n;
    const r = resultadoDe(row.estatus, row.alcance);
    porResultado[r] += n;
    c[LUZ_RESULTADO[r]] += n;
  }
  const total = c.verde + c.amarillo + c.rojo + c.cancelado;
  const pct = (x: number): number => (total === 0 ? 0 : redondear1((x * 100) / total));
  return {
    verde: c.verde,
    amarillo: c.amarillo,
    rojo: c.rojo,
    cancelado: c.cancelado,
    total,
    porcentajes: {
      verde: pct(c.verde),
      amarillo: pct(c.amarillo),
      rojo: pct(c.rojo),
      cancelado: pct(c.cancelado),
    },
    porEstatus,
    porResultado,
    luz: luzSemaforo(c),
  };
}
