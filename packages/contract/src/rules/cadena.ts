/**
 * One report for the follow-up chain (issue 25.3): a drill, its follow-ups ('Reenviar a no
 * alcanzados', `ejercicios.origen_id`), their follow-ups, and so on. Per person (by phone) the
 * chain keeps the BEST outcome over every attempt of every link; 'reached' is the one rule of
 * rules/alcance.ts (`alcanzado`), so a person reached by any attempt is reached by the chain and
 * the chain's 'No alcanzados' are those never reached by any attempt.
 *
 * Best outcome: the attempt of the highest rank (`RANGO_LUZ` of its outcome's light: green, then
 * amber, red, cancelled). Every green attempt ranks alike: reached is reached, and the chain shows
 * the FIRST attempt that reached the person (link, channel, time), which is also when the chain's
 * reach curve counts them. Among attempts of the same rank that did not reach the person, the
 * latest one tells where they stand now.
 *
 * An attempt is any try of a person on one channel: a recipient row of one link (its channel is
 * the link's type). A drill's automatic fallback (issue 25.2) is a hidden companion exercise
 * (`ejercicios.respaldo_de`) whose rows are one more attempt of the same persons with their own
 * channel (the companion's type, read from its row: SMS today, maybe WhatsApp) and time, ranked by
 * the same rule; the chain shows it as a link of its own right after its drill ('SMS de
 * respaldo', same level), so its 'N de M' counts its own rows.
 */
import { tipoPorId, type LuzSemaforo } from '../constants.ts';
import { msg } from '../messages.ts';
import { LUZ_RESULTADO, alcanzado, type Resultado } from './alcance.ts';
import { RESPALDO_POR_CANAL, canalDeRespaldo } from './respaldo.ts';

/** Rank of each light for the best outcome: higher is better. */
export const RANGO_LUZ: Readonly<Record<LuzSemaforo | 'cancelado', number>> = {
  verde: 3,
  amarillo: 2,
  rojo: 1,
  cancelado: 0,
};

/** Rank of an outcome for the best outcome over a chain. */
export const rangoResultado = (r: Resultado): number => RANGO_LUZ[LUZ_RESULTADO[r]];

/** One attempt of a person in the chain, as far as choosing the best matters. */
export interface IntentoCadena {
  /** The link (exercise) it belongs to. */
  id_ejercicio: number;
  resultado: Resultado;
  /** Local send time 'YYYY-MM-DD HH:mm:ss'; null or '' while never sent. */
  momento: string | null;
}

/** Negative when `a` is a better attempt than `b` (sort ascending: best first). The SQL of the
 * api (repositories/cadena.ts) orders by exactly these keys. */
export function compararIntentos(a: IntentoCadena, b: IntentoCadena): number {
  const ra = rangoResultado(a.resultado);
  const rb = rangoResultado(b.resultado);
  if (ra !== rb) return rb - ra;
  const ma = a.momento ?? '';
  const mb = b.momento ?? '';
  // Reached: the first attempt that reached them; not reached: the latest attempt.
  if (ma !== mb) return alcanzado(a.resultado) ? (ma < mb ? -1 : 1) : ma < mb ? 1 : -1;
  return b.id_ejercicio - a.id_ejercicio;
}

/** The best of a person's attempts (undefined for none). */
export function mejorIntento<T extends IntentoCadena>(intentos: readonly T[]): T | undefined {
  return [...intentos].sort(compararIntentos)[0];
}

/** A chain is shown (dashboard section, report sheets) when it has more than one link. */
export const esCadena = (eslabones: readonly unknown[]): boolean => eslabones.length > 1;

/** The label of a fallback of channel `id_tipo_ejercicio` ('SMS de respaldo'): the chain's link
 * type and channel, and the phone's history. */
export const etiquetaRespaldo = (id_tipo_ejercicio: number): string =>
  msg(RESPALDO_POR_CANAL[canalDeRespaldo(id_tipo_ejercicio) ?? 'sms'].columna);

/** The type label of a link of the chain: a fallback's says it is one. */
export const etiquetaEslabon = (e: {
  id_tipo_ejercicio: number;
  respaldo_de: number | null;
}): string =>
  e.respaldo_de !== null
    ? etiquetaRespaldo(e.id_tipo_ejercicio)
    : (tipoPorId(e.id_tipo_ejercicio)?.etiqueta ?? '');
