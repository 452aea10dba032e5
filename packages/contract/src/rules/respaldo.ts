import { esLlamada } from '../constants.ts';
import { alcanzado, LUZ_RESULTADO, resultadoDe } from './alcance.ts';

// Automatic fallback inside one exercise (issue 25.2): 'Si no se alcanza, enviar SMS'. One rule
// for the dispatcher (who gets the SMS) and the dialog and api (which exercises may have one).

/** Only calls and quizzes name a fallback SMS. */
export const admiteRespaldo = (id_tipo_ejercicio: number): boolean => esLlamada(id_tipo_ejercicio);

/**
 * Whether a recipient whose last attempt ended with this outcome gets the fallback: a final
 * outcome that did not reach them by the one rule of 'reached' (rules/alcance.ts): busy, no
 * answer, failed, invalid, hung up early, a quiz answered in part or not at all. Never while it
 * may still be retried or is in flight, never after a stop ('cancelado'), and never for an
 * 'incierto' call, which may have reached them.
 */
export function llevaRespaldo(estatus: string, alcance?: string | null): boolean {
  if (estatus === 'pendiente' || estatus === 'en_curso' || estatus === 'incierto') return false;
  const r = resultadoDe(estatus, alcance);
  return LUZ_RESULTADO[r] !== 'cancelado' && !alcanzado(r);
}
