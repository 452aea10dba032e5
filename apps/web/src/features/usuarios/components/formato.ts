import dayjs from 'dayjs';
import { msg } from '@pregon/contract/messages';

/** The 'Bloqueado' cell: 'Sí, hasta las HH:mm' while a sign-in lock holds, otherwise 'No'. */
export function textoBloqueo(hasta: number | null): string {
  return estaBloqueado(hasta)
    ? msg('bloqueadoHasta', { hora: dayjs(hasta).format('HH:mm') })
    : msg('no');
}

/** Whether a sign-in lock still holds now (the list may be older than the lock). */
export function estaBloqueado(hasta: number | null): hasta is number {
  return hasta !== null && hasta > Date.now();
}
