import dayjs from 'dayjs';
import { FORMATO_FECHA, FORMATO_HORA } from '@pregon/contract/constants';

/** A moment (epoch ms) in the product's one date format, the SPEC's 'YYYY-MM-DD HH:mm:ss' (issue
 * 26.7: screens mixed it with '24/11/2026, 19:49:35'); `vacio` when there is none. */
export function fechaHoraTexto(ms: number | null, vacio = '—'): string {
  return ms === null ? vacio : dayjs(ms).format(`${FORMATO_FECHA} ${FORMATO_HORA}`);
}

/** The time of day of a moment (epoch ms), 'HH:mm:ss'. */
export function horaTexto(ms: number): string {
  return dayjs(ms).format(FORMATO_HORA);
}
