import { msg } from '@pregon/contract/messages';
import { fechaHoraTexto } from '../../../lib/fecha.ts';

/** A device's last contact (epoch ms) as date and time, or 'Nunca'. */
export function ultimoContacto(ms: number | null): string {
  return fechaHoraTexto(ms, msg('nunca'));
}
