/**
 * Opt-out and its limits (issue 46.4): which suppression list a channel's reply or drill uses,
 * and what the start confirmation says about the phones a drill will skip. Pure functions: the
 * api (replies, start, the phones screen) and the web read them alike.
 */
import { msg } from '../messages.ts';
import { descriptorDe } from '../protocolos.ts';

/** The suppression lists: one per reply channel. 'sms' covers every SMS gateway (SMPP and the
 * Android gateway): a person who writes BAJA to one SMS number opts out of SMS drills, whichever
 * gateway sends them. Calls have no list: a call cannot be replied to with a word. */
export const CANALES_BAJA = ['sms', 'whatsapp'] as const;
/** One suppression list. */
export type CanalBaja = (typeof CANALES_BAJA)[number];

/** How a phone entered a list: its own reply, an imported list, or an operator. */
export const ORIGENES_BAJA = ['respuesta', 'importacion', 'operador'] as const;
/** One origin. */
export type OrigenBaja = (typeof ORIGENES_BAJA)[number];

/** The text the report shows as the motivo of a recipient skipped because it opted out. */
export const MOTIVO_DADO_DE_BAJA = msg('motivoDadoDeBaja');

/** The suppression list of a protocol or channel name ('smpp', 'android', 'sms' → 'sms';
 * 'whatsapp' → 'whatsapp'): a list's own name, else the protocol record's capacidades.bajas;
 * null for calls, which no list covers. */
export function canalDeBaja(canal: string): CanalBaja | null {
  if ((CANALES_BAJA as readonly string[]).includes(canal)) return canal as CanalBaja;
  return descriptorDe(canal)?.capacidades.bajas ?? null;
}

/** The start confirmation's line for `n` phones a drill will skip ('1 teléfono dado de baja no
 * recibirá este simulacro'), or null when it skips none. */
export function avisoBajasInicio(n: number): string | null {
  if (n <= 0) return null;
  return n === 1 ? msg('bajasInicioUno') : msg('bajasInicio', { N: n });
}
