import dayjs from 'dayjs';
import { FORMATO_FECHA, FORMATO_HORA } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';

/** A device's last contact (epoch ms) as date and time, or 'Nunca'. */
export function ultimoContacto(ms: number | null): string {
  return ms === null ? msg('nunca') : dayjs(ms).format(`${FORMATO_FECHA} ${FORMATO_HORA}`);
}
