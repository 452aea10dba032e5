/**
 * Scheduled starts (issue 24.3): the instant a 'Fecha de inicio' + 'Hora de inicio' names in a
 * time zone, what a scheduled start that ran late says, and the countdown shown until it. Pure,
 * on the platform's IANA time-zone data (Intl), never hand-written offsets.
 */
import { msg } from '../messages.ts';
import { fechaHoraDe, paredEn } from './zona-horaria.ts';

export { zonaValida } from './zona-horaria.ts';

/**
 * The instant (epoch ms) that fecha 'YYYY-MM-DD' and hora 'HH:mm:ss' name in the time zone, or
 * null when they are not a real date and time. A wall time skipped by a clock change is taken
 * after the change; one that happens twice, the first time.
 */
export function instanteEnZona(fecha: string, hora: string, zona: string): number | null {
  const f = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fecha);
  const h = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(hora);
  if (!f || !h) return null;
  const pared = Date.UTC(+f[1]!, +f[2]! - 1, +f[3]!, +h[1]!, +h[2]!, +(h[3] ?? 0));
  const d = new Date(pared);
  if (d.getUTCDate() !== +f[3]! || d.getUTCHours() !== +h[1]! || d.getUTCMinutes() !== +h[2]!)
    return null;
  // Offset at the guess, then at the corrected instant (they differ only across a change).
  const primero = pared - (paredEn(pared, zona) - pared);
  const segundo = pared - (paredEn(primero, zona) - primero);
  const candidatos = [Math.min(primero, segundo), Math.max(primero, segundo)];
  return candidatos.find((c) => paredEn(c, zona) === pared) ?? Math.max(primero, segundo);
}

/** The 'Fecha de inicio' and 'Hora de inicio' an instant shows in the time zone (the inverse of
 * instanteEnZona). */
export function fechaHoraEnZona(ms: number, zona: string): { fecha_ini: string; hora_ini: string } {
  const { fecha, hora } = fechaHoraDe(ms, zona);
  return { fecha_ini: fecha, hora_ini: hora };
}

/** What a scheduled start that ran `retrasoMs` late says: nothing under a minute, else 'Iniciado
 * con N min de retraso'. */
export function notaRetraso(retrasoMs: number): string | null {
  const minutos = Math.floor(retrasoMs / 60_000);
  return minutos >= 1 ? msg('inicioConRetraso', { N: minutos }) : null;
}

/** The countdown to a scheduled start: 'en 2 h 05 min', 'en 4 min 10 s', 'en 9 s'. */
export function cuentaRegresiva(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const dos = (n: number) => String(n).padStart(2, '0');
  const texto = h > 0 ? `${h} h ${dos(m)} min` : m > 0 ? `${m} min ${dos(s % 60)} s` : `${s} s`;
  return msg('cuentaRegresiva', { tiempo: texto });
}
