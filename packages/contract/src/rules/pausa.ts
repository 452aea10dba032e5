import { msg } from '../messages.ts';
import { duracionCorta } from './reintentos.ts';

/** Why the dispatcher paused an exercise by itself: the errors counted, the device and the last
 * error; `inmediata` when one refusal that no retry can mend (an unknown extension, a context
 * not loaded, credentials refused) paused it at once. */
export interface PausaAutomatica {
  errores: number;
  alias: string;
  error: string;
  inmediata: boolean;
}

/** The Spanish reason of an automatic pause (issue 45.6): a refusal that pauses at once leads with
 * its cause (naming the device when the cause does not); a count agrees in number ('1 error
 * consecutivo', '5 errores consecutivos'). */
export function motivoPausaAutomatica(p: PausaAutomatica): string {
  if (p.inmediata)
    return p.error.includes(p.alias)
      ? msg('pausaAutomaticaInmediata', { error: p.error })
      : msg('pausaAutomaticaInmediataEquipo', { error: p.error, alias: p.alias });
  if (p.errores === 1) return msg('pausaAutomaticaUnError', { alias: p.alias, error: p.error });
  return msg('pausaAutomatica', { n: p.errores, alias: p.alias, error: p.error });
}

/** Issue 45.5: the longest an exercise waits for a device that does not answer, in seconds (a
 * day); the dialog asks for whole minutes. */
export const ESPERA_EQUIPO_MAX_S = 24 * 60 * 60;

/** How long (ms) an exercise waits for its device before pausing itself: its own espera_equipo_s
 * when set (0 = without limit), else the dispatcher's DESPACHO_PAUSA_SIN_CONEXION_MS. */
export function esperaEquipoMs(
  esperaEquipoS: number | null | undefined,
  defectoMs: number,
): number {
  return esperaEquipoS == null ? defectoMs : Math.max(0, esperaEquipoS) * 1000;
}

/** The start confirmation's line (issue 45.5): 'Si el equipo no responde, esperar hasta 5 min y
 * pausar el ejercicio', or without limit. */
export function textoEsperaEquipo(esperaMs: number): string {
  return esperaMs > 0
    ? msg('esperaEquipoHasta', { espera: duracionCorta(esperaMs / 1000) })
    : msg('esperaEquipoSinLimite');
}
