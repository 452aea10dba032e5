import { msg } from '../messages.ts';

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
