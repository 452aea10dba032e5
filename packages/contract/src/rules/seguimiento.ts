/**
 * 'Reenviar a no alcanzados' (issue 25.1): the outcome sets an operator picks from a finished,
 * stopped or paused drill to aim a new one at. Each set is a list of outcomes of the one reach
 * rule (rules/alcance.ts `Resultado`), so the dialog's counts, the server's copy and the reports
 * agree on who was not reached.
 *
 * SMS and WhatsApp 'enviado' count as reached in the semáforo (the gateway took the message); as
 * a follow-up set they read 'no entregado': no delivery receipt came. A WhatsApp 'read' is kept
 * apart (outcome 'leido', rules/alcance.ts), so a WhatsApp drill also offers 'WhatsApp entregado,
 * no leído': outcome 'entregado', delivered with no read status (the recipient may have turned
 * read receipts off, so it is 'no read status came', like 'no entregado' is 'no receipt came').
 *
 * A drill's automatic fallback (issue 25.2) is one more attempt of the same person, so the sets
 * look at it too (`efectoRespaldo`). Decided here, for the counts and the server's copy alike:
 * - whom the fallback delivered to (a reaching outcome outside its channel's 'no entregado' set:
 *   'entregado') was reached: they are in no set, whatever their call did;
 * - whom it did not deliver to (sent without a receipt, failed, invalid) stays in the set of their
 *   own outcome ('Ocupado') AND is in the fallback channel's 'no entregado' set ('SMS no
 *   entregado', offered by a drill with a fallback): the operator may re-call the busy or re-send
 *   the undelivered messages; a person in two chosen sets is copied once, and the dialog counts
 *   them once (`celdasSeguimiento`, `totalElegido`);
 * - a fallback not sent yet, in flight, or cancelled by a stop changes nothing: their own set.
 * The fallback's channel is its companion's type (SMS today; a WhatsApp one reads 'WhatsApp no
 * entregado'). A fallback WhatsApp delivered or read reached the person: there is no 'no leído'
 * set of a fallback.
 *
 * A poll exercise (issue 46.2) also offers sets by its answers, each person's CURRENT answer
 * (rules/respuestas.ts respuestaVigente): 'No respondieron' (reached, no answer: the dashboard's
 * 'Sin respuesta') and one set per option ('Respondieron: 2 - Necesito ayuda'). A person is in
 * their outcome's set and in their answer's set alike; the dialog counts them once. These sets
 * are never checked from the start: re-sending to people by their answer is a choice.
 */
import {
  TIPO_CUESTIONARIO,
  TIPO_LLAMADA,
  TIPO_SMS,
  TIPO_WHATSAPP,
  ESTATUS_DESTINATARIO,
} from '../constants.ts';
import { msg, type ClaveMensaje } from '../messages.ts';
import { alcanzado, RESULTADOS, resultadoDe, type Resultado } from './alcance.ts';

/** The follow-up sets, in the dialog's order. */
export const GRUPOS_SEGUIMIENTO = [
  'no_contesto',
  'ocupado',
  'colgo',
  'cuestionario_incompleto',
  'sms_no_entregado',
  'whatsapp_no_entregado',
  'whatsapp_no_leido',
  'fallido',
  'cancelado',
  'no_respondieron',
  'respondieron_0',
  'respondieron_1',
  'respondieron_2',
  'respondieron_3',
  'respondieron_4',
  'respondieron_5',
  'respondieron_6',
  'respondieron_7',
  'respondieron_8',
  'respondieron_9',
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
  whatsapp_no_leido: ['entregado'],
  fallido: ['fallido', 'invalido', 'incierto'],
  cancelado: ['cancelado'],
  // By answer, not by outcome (gruposRespuestaDePersona).
  no_respondieron: [],
  respondieron_0: [],
  respondieron_1: [],
  respondieron_2: [],
  respondieron_3: [],
  respondieron_4: [],
  respondieron_5: [],
  respondieron_6: [],
  respondieron_7: [],
  respondieron_8: [],
  respondieron_9: [],
};

/** Catalogue label of each set ('Ocupado', shown as 'Ocupado (37)'). */
export const ETIQUETA_GRUPO: Readonly<Record<GrupoSeguimiento, ClaveMensaje>> = {
  no_contesto: 'estatusNoContesto',
  ocupado: 'estatusOcupado',
  colgo: 'resultadoColgoAntes',
  cuestionario_incompleto: 'grupoCuestionarioIncompleto',
  sms_no_entregado: 'grupoSmsNoEntregado',
  whatsapp_no_entregado: 'grupoWhatsappNoEntregado',
  whatsapp_no_leido: 'grupoWhatsappNoLeido',
  fallido: 'grupoFallido',
  cancelado: 'estatusCancelado',
  no_respondieron: 'grupoNoRespondieron',
  respondieron_0: 'grupoRespondieron',
  respondieron_1: 'grupoRespondieron',
  respondieron_2: 'grupoRespondieron',
  respondieron_3: 'grupoRespondieron',
  respondieron_4: 'grupoRespondieron',
  respondieron_5: 'grupoRespondieron',
  respondieron_6: 'grupoRespondieron',
  respondieron_7: 'grupoRespondieron',
  respondieron_8: 'grupoRespondieron',
  respondieron_9: 'grupoRespondieron',
};

/** An option of a poll as the answer sets read it. */
export interface OpcionGrupo {
  digito: number;
  texto: string;
}

/** The set of those whose current answer is option `digito`. */
export const grupoRespuesta = (digito: number): GrupoSeguimiento =>
  `respondieron_${digito}` as GrupoSeguimiento;

/** The option digit of an answer set (null for 'no_respondieron' and outcome sets). */
export function digitoDeGrupo(g: GrupoSeguimiento): number | null {
  const m = /^respondieron_(\d)$/.exec(g);
  return m ? Number(m[1]) : null;
}

/** Whether a set is one by answer. */
export const esGrupoRespuesta = (g: GrupoSeguimiento): boolean =>
  g === 'no_respondieron' || digitoDeGrupo(g) !== null;

/** The answer sets a poll offers: 'No respondieron', then one per option in its order. */
export const gruposDeEncuesta = (opciones: readonly OpcionGrupo[]): GrupoSeguimiento[] => [
  'no_respondieron',
  ...opciones.map((o) => grupoRespuesta(o.digito)),
];

/** A set's label: 'Ocupado', 'No respondieron', 'Respondieron: 2 - Necesito ayuda'. */
export function etiquetaGrupo(g: GrupoSeguimiento, opciones: readonly OpcionGrupo[] = []): string {
  const d = digitoDeGrupo(g);
  if (d === null) return msg(ETIQUETA_GRUPO[g]);
  const texto = opciones.find((o) => o.digito === d)?.texto ?? '';
  return msg('grupoRespondieron', {
    opcion: texto ? msg('opcionConTexto', { digito: d, texto }) : String(d),
  });
}

/** The answer sets one person is in: their current answer's option (`digito`, null for none),
 * or 'No respondieron' when reached without one; none without a poll. */
export function gruposRespuestaDePersona(
  opciones: readonly OpcionGrupo[] | null | undefined,
  propio: Resultado,
  digito: number | null | undefined,
): GrupoSeguimiento[] {
  if (!opciones) return [];
  if (digito !== null && digito !== undefined && opciones.some((o) => o.digito === digito))
    return [grupoRespuesta(digito)];
  return alcanzado(propio) && (digito === null || digito === undefined) ? ['no_respondieron'] : [];
}

/** Whether the dialog checks a set with someone in it from the start: every set but 'WhatsApp
 * entregado, no leído', whose people got the message (and may only have read receipts off), so
 * re-sending to them is the operator's explicit choice. */
export const marcadoDeInicio = (g: GrupoSeguimiento): boolean =>
  g !== 'whatsapp_no_leido' && !esGrupoRespuesta(g);

/** The sets an exercise type offers: the outcomes its channel can produce. */
export function gruposDeTipo(tipo: number): GrupoSeguimiento[] {
  if (tipo === TIPO_SMS) return ['sms_no_entregado', 'fallido', 'cancelado'];
  if (tipo === TIPO_WHATSAPP)
    return ['whatsapp_no_entregado', 'whatsapp_no_leido', 'fallido', 'cancelado'];
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

/** The 'no entregado' set of a message channel (SMS, WhatsApp); null for calls and quizzes. */
export function grupoNoEntregado(tipo: number): GrupoSeguimiento | null {
  if (tipo === TIPO_SMS) return 'sms_no_entregado';
  if (tipo === TIPO_WHATSAPP) return 'whatsapp_no_entregado';
  return null;
}

/** The sets a drill offers: its type's, and with a fallback of type `tipoRespaldo` the fallback
 * channel's 'no entregado' set, in the dialog's order. */
export function gruposDeEjercicio(tipo: number, tipoRespaldo: number | null): GrupoSeguimiento[] {
  const propios = gruposDeTipo(tipo);
  const extra = tipoRespaldo === null ? null : grupoNoEntregado(tipoRespaldo);
  if (extra === null || propios.includes(extra)) return propios;
  return GRUPOS_SEGUIMIENTO.filter((g) => g === extra || propios.includes(g));
}

/** What a fallback attempt with outcome `r` means for the follow-up (see the note above):
 * 'entregado' reached the person, 'no_entregado' ended without delivering, null changes nothing
 * (never sent, pending, in flight or cancelled). */
export function efectoRespaldo(
  tipoRespaldo: number,
  r: Resultado | null,
): 'entregado' | 'no_entregado' | null {
  if (r === null || r === 'pendiente' || r === 'en_curso' || r === 'cancelado') return null;
  const ne = grupoNoEntregado(tipoRespaldo);
  const noEntregado = ne !== null && RESULTADOS_GRUPO[ne].includes(r);
  return alcanzado(r) && !noEntregado ? 'entregado' : 'no_entregado';
}

/** The fallback's outcomes with one effect, for SQL lists. */
export const resultadosRespaldo = (tipoRespaldo: number, efecto: 'entregado' | 'no_entregado') =>
  RESULTADOS.filter((r) => efectoRespaldo(tipoRespaldo, r) === efecto);

/** The sets one recipient is in: by its own outcome and its fallback's (`respaldo`: the
 * fallback's outcome, null without one; `tipoRespaldo` null when the drill has no fallback). */
export function gruposDePersona(
  tipo: number,
  propio: Resultado,
  tipoRespaldo: number | null,
  respaldo: Resultado | null,
): GrupoSeguimiento[] {
  const propios = gruposDeTipo(tipo).filter((g) => RESULTADOS_GRUPO[g].includes(propio));
  if (tipoRespaldo === null) return propios;
  const efecto = efectoRespaldo(tipoRespaldo, respaldo);
  if (efecto === 'entregado') return [];
  const extra = grupoNoEntregado(tipoRespaldo);
  if (efecto === null || extra === null || propios.includes(extra)) return propios;
  return GRUPOS_SEGUIMIENTO.filter((g) => g === extra || propios.includes(g));
}

/** A row of `GROUP BY estatus, alcance` (and the fallback's, when the drill has one). */
export interface FilaConteoSeguimiento {
  estatus: string;
  alcance?: string | null;
  respaldo_estatus?: string | null;
  respaldo_alcance?: string | null;
  /** A poll exercise's rows: the current answer's digit (null: none). */
  digito?: number | string | null;
  total: number | string;
}

const esEstatus = (e: string | null | undefined): e is string =>
  typeof e === 'string' && (ESTATUS_DESTINATARIO as readonly string[]).includes(e);

/** Recipients per combination of sets they are in (a person in no set is left out): the
 * dialog's total of a choice counts each person once (`totalElegido`). Counts may be strings;
 * unknown states are ignored. */
export function celdasSeguimiento(
  tipo: number,
  rows: readonly FilaConteoSeguimiento[],
  tipoRespaldo: number | null = null,
  opciones: readonly OpcionGrupo[] | null = null,
): { grupos: GrupoSeguimiento[]; total: number }[] {
  const celdas = new Map<string, { grupos: GrupoSeguimiento[]; total: number }>();
  for (const row of rows) {
    if (!esEstatus(row.estatus)) continue;
    const respaldo = esEstatus(row.respaldo_estatus)
      ? resultadoDe(row.respaldo_estatus, row.respaldo_alcance)
      : null;
    const propio = resultadoDe(row.estatus, row.alcance);
    const digito = row.digito === null || row.digito === undefined ? null : Number(row.digito);
    const grupos = [
      ...gruposDePersona(tipo, propio, tipoRespaldo, respaldo),
      ...gruposRespuestaDePersona(opciones, propio, digito),
    ];
    if (grupos.length === 0) continue;
    const clave = grupos.join(',');
    const c = celdas.get(clave) ?? { grupos, total: 0 };
    c.total += Number(row.total) || 0;
    celdas.set(clave, c);
  }
  return [...celdas.values()].filter((c) => c.total > 0);
}

/** Recipients per set of the drill (its type's, and its fallback's 'no entregado' set), from
 * `GROUP BY estatus, alcance` rows (with the fallback's columns when it has one). */
export function conteoGrupos(
  tipo: number,
  rows: readonly FilaConteoSeguimiento[],
  tipoRespaldo: number | null = null,
  opciones: readonly OpcionGrupo[] | null = null,
): { grupo: GrupoSeguimiento; total: number }[] {
  const celdas = celdasSeguimiento(tipo, rows, tipoRespaldo, opciones);
  return [
    ...gruposDeEjercicio(tipo, tipoRespaldo),
    ...(opciones ? gruposDeEncuesta(opciones) : []),
  ].map((grupo) => ({
    grupo,
    total: celdas.filter((c) => c.grupos.includes(grupo)).reduce((s, c) => s + c.total, 0),
  }));
}

/** Recipients a choice of sets copies: each person once, however many chosen sets hold them. */
export const totalElegido = (
  celdas: readonly { grupos: readonly GrupoSeguimiento[]; total: number }[],
  elegidos: readonly GrupoSeguimiento[],
): number =>
  celdas.filter((c) => c.grupos.some((g) => elegidos.includes(g))).reduce((s, c) => s + c.total, 0);

/** What the server copies for a choice of sets: the drill's own outcomes, and with a fallback
 * which of its outcomes leave a person out ('entregado') and, when its 'no entregado' set was
 * chosen, which bring them in. */
export function copiaSeguimiento(
  tipo: number,
  tipoRespaldo: number | null,
  grupos: readonly GrupoSeguimiento[],
  opciones: readonly OpcionGrupo[] | null = null,
) {
  const validos = gruposDeEjercicio(tipo, tipoRespaldo);
  const elegidos = grupos.filter((g) => validos.includes(g));
  const extra = tipoRespaldo === null ? null : grupoNoEntregado(tipoRespaldo);
  const porRespuesta = opciones ? gruposDeEncuesta(opciones).filter((g) => grupos.includes(g)) : [];
  return {
    /** By answer (only with a poll's options): those reached without an answer, and the
     * options' digits. */
    ...(opciones
      ? {
          respuestas: {
            sin: porRespuesta.includes('no_respondieron'),
            digitos: porRespuesta.map(digitoDeGrupo).filter((d): d is number => d !== null),
          },
        }
      : {}),
    propios: resultadosDeGrupos(tipo, elegidos),
    respaldo:
      tipoRespaldo === null
        ? null
        : {
            entregados: resultadosRespaldo(tipoRespaldo, 'entregado'),
            noEntregados:
              extra !== null && elegidos.includes(extra) && !gruposDeTipo(tipo).includes(extra)
                ? resultadosRespaldo(tipoRespaldo, 'no_entregado')
                : [],
          },
  };
}
