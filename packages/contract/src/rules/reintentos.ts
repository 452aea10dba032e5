/**
 * The call retry policy as an operator reads it (issue 26.7): what the server will really do with
 * a busy or unanswered recipient, and with a call the network refuses, in correct Spanish.
 */
import { msg } from '../messages.ts';

/** The server's default call retry policy (GET /config/ `llamadas`). */
export interface PoliticaReintentos {
  /** More attempts for a busy or unanswered recipient. */
  reintentos: number;
  /** Wait between those attempts, seconds. */
  espera_reintento_s: number;
  /** Attempts in all of a call the network or the PBX refuses (congestion, gateway errors). */
  intentos_red: number;
  /** Shortest and longest wait between those attempts, seconds. */
  espera_red_min_s: number;
  espera_red_max_s: number;
}

/** A duration in seconds in words: '30 segundos', '1 minuto', '10 minutos', '1 min 30 s'. */
export function duracionLegible(segundos: number): string {
  const t = Math.max(0, Math.round(segundos));
  if (t < 60) return t === 1 ? msg('duracionUnSegundo') : msg('duracionSegundos', { n: t });
  const m = Math.floor(t / 60);
  const s = t % 60;
  if (s) return msg('duracionMinutosSegundos', { m, s });
  return m === 1 ? msg('duracionUnMinuto') : msg('duracionMinutos', { n: m });
}

/** A duration in seconds in short: '30 s', '1 min', '1 min 30 s' (issue 45.5: a call's limit,
 * an audio's length). */
export function duracionCorta(segundos: number): string {
  const t = Math.max(0, Math.round(segundos));
  const m = Math.floor(t / 60);
  const s = t % 60;
  if (m === 0) return msg('duracionSegundosCorto', { s });
  return s ? msg('duracionMinutosSegundos', { m, s }) : msg('duracionMinutosCorto', { m });
}

/** The help under the retry fields: what an exercise that sets none will get. */
export function textoPoliticaReintentos(p: PoliticaReintentos): string {
  const ocupado =
    p.reintentos <= 0
      ? msg('reintentosNinguno')
      : msg('reintentosPorDefecto', {
          veces: p.reintentos === 1 ? msg('unaVezMas') : msg('vecesMas', { n: p.reintentos }),
          espera: duracionLegible(p.espera_reintento_s),
        });
  const red = msg('reintentosRed', {
    intentos: p.intentos_red,
    desde: duracionLegible(p.espera_red_min_s),
    hasta: duracionLegible(p.espera_red_max_s),
  });
  return `${ocupado} ${red}`;
}
