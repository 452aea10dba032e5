/**
 * A device's capacity as an exercise uses it (issue 24): which ports an exercise runs on, what the
 * device can do, and how long a drill will take. Pure rules, shared by the create dialog, the start
 * confirmation and the api's checks, so every screen states the same figures.
 */
import { MS_LLAMADA_DEFECTO, TIPO_CUESTIONARIO, TIPO_LLAMADA, esLlamada } from '../constants.ts';
import { duracionTexto } from '../api/tableros.ts';
import { msg } from '../messages.ts';

/** A device as these rules read it: its ports (channels, SIMs, lines) and sends per second per port. */
export interface CapacidadEquipo {
  puertos: number;
  tasa: number;
}

/** An exercise's ports as SPEC 3 stores them: how many and the range of the device's ports. */
export interface PuertosEjercicio {
  numero_puertos: number;
  puerto_ini: number;
  puerto_fin: number;
}

/** The ports an exercise takes by default: every port of its device (1…puertos). */
export function puertosPorDefecto(equipo: Pick<CapacidadEquipo, 'puertos'>): PuertosEjercicio {
  const puertos = Math.max(1, Math.floor(equipo.puertos));
  return { numero_puertos: puertos, puerto_ini: 1, puerto_fin: puertos };
}

/** Ports in a range puerto_ini…puerto_fin (at least 1). */
export const puertosDeRango = (r: Pick<PuertosEjercicio, 'puerto_ini' | 'puerto_fin'>): number =>
  Math.max(1, Math.floor(r.puerto_fin) - Math.floor(r.puerto_ini) + 1);

/**
 * Why a port range does not fit its device, naming the field, or null when it fits: ports are
 * numbered 1…the device's ports and the range may not run backwards.
 */
export function errorPuertos(
  r: Pick<PuertosEjercicio, 'puerto_ini' | 'puerto_fin'>,
  equipo: Pick<CapacidadEquipo, 'puertos'>,
): { campo: 'puerto_ini' | 'puerto_fin'; mensaje: string } | null {
  if (r.puerto_ini > r.puerto_fin) return { campo: 'puerto_ini', mensaje: msg('puertosInvalidos') };
  if (r.puerto_fin > equipo.puertos)
    return {
      campo: 'puerto_fin',
      mensaje: msg('puertosExcedenEquipo', { puertos: equipo.puertos }),
    };
  return null;
}

/** The device's capacity in words for the chosen type: calls at once, or messages per second. */
export function textoCapacidad(equipo: CapacidadEquipo, tipo: number | undefined): string {
  const llamadas = tipo !== undefined && esLlamada(tipo);
  if (equipo.puertos === 1)
    return llamadas
      ? msg('capacidadEquipoLlamadasUno')
      : msg('capacidadEquipoMensajesUno', { tasa: equipo.tasa });
  if (llamadas) return msg('capacidadEquipoLlamadas', { puertos: equipo.puertos });
  return msg('capacidadEquipoMensajes', {
    puertos: equipo.puertos,
    tasa: equipo.tasa,
    total: equipo.puertos * equipo.tasa,
  });
}

/** What the estimate of a drill's length reads. */
export interface DatosEstimacion {
  /** Exercise type id (1 SMS, 2 call, 3 WhatsApp, 4 quiz). */
  tipo: number;
  destinatarios: number;
  /** The exercise's ports. */
  puertos: number;
  /** The device's sends per second per port. */
  tasa: number;
  /** Calls: the call's maximum length in minutes (tiempo); null → the start call's 35 s. */
  tiempo?: number | null;
  /** Quizzes: their run time in minutes (accion). */
  minutosCuestionario?: number | null;
  /** Calls and quizzes: extra attempts for busy or unanswered recipients and the minutes between. */
  reintentos?: number;
  espera_reintento?: number;
  /** A calling window (issue 24.4): recipients outside it now and the seconds until it opens for
   * them (the latest of their zones'), so the estimate counts their wait. */
  ventana?: { fuera: number; esperaSegundos: number } | null;
}

/** A drill's estimated length: the first pass over everyone, and with the last retry round. */
export interface Estimacion {
  /** Calls: each call's maximum length in seconds; null for messages. */
  segundosPorLlamada: number | null;
  /** Sends per second the exercise may make (its ports × the device's rate). */
  ritmo: number;
  /** Seconds to reach everyone once, every call lasting its maximum. */
  segundos: number;
  /** Seconds until the last retry can happen (equal to `segundos` without retries). */
  segundosConReintentos: number;
  /** Recipients outside their calling window now and the seconds they wait (absent without). */
  ventana?: { fuera: number; esperaSegundos: number };
}

/**
 * How long a drill takes, as the dispatcher runs it: messages leave at ports × rate per second
 * (one per recipient: the pacer counts recipients, a long SMS's parts go together); calls hold a
 * port each for at most their length (tiempo minutes, 35 s without one, a quiz's run time), so
 * everyone is called once within ⌈recipients / ports⌉ call lengths, never faster than the
 * originate rate allows. Retries of busy or unanswered calls come `espera_reintento` minutes after
 * each attempt, so the last one can end up to `reintentos × (espera + a call's length)` after the
 * first pass.
 */
export function estimarDuracion(d: DatosEstimacion): Estimacion {
  const n = Math.max(0, Math.floor(d.destinatarios));
  const fuera = Math.min(n, Math.max(0, Math.floor(d.ventana?.fuera ?? 0)));
  if (!d.ventana || fuera === 0) return estimarSinVentana(d, n);
  // Those inside the window go first; those outside wait for it, then take every port.
  const espera = Math.max(0, Math.ceil(d.ventana.esperaSegundos));
  const dentro = estimarSinVentana(d, n - fuera);
  const despues = estimarSinVentana(d, fuera);
  const segundos = Math.max(n - fuera > 0 ? dentro.segundos : 0, espera + despues.segundos);
  return {
    ...despues,
    segundos,
    segundosConReintentos: Math.max(
      dentro.segundosConReintentos,
      segundos + despues.segundosConReintentos - despues.segundos,
    ),
    ventana: { fuera, esperaSegundos: espera },
  };
}

/** estimarDuracion for `n` recipients all callable now. */
function estimarSinVentana(d: DatosEstimacion, n: number): Estimacion {
  const puertos = Math.max(1, Math.floor(d.puertos));
  const ritmo = puertos * Math.max(d.tasa, 0.001);
  const porRitmo = Math.ceil(n / ritmo);
  if (!esLlamada(d.tipo))
    return { segundosPorLlamada: null, ritmo, segundos: porRitmo, segundosConReintentos: porRitmo };
  const minutos = d.tipo === TIPO_CUESTIONARIO ? d.minutosCuestionario : d.tiempo;
  const porLlamada =
    minutos && minutos > 0
      ? minutos * 60
      : d.tipo === TIPO_LLAMADA
        ? MS_LLAMADA_DEFECTO / 1000
        : 60;
  const segundos = Math.max(porRitmo, Math.ceil(n / puertos) * porLlamada);
  const reintentos = n > 0 ? Math.max(0, d.reintentos ?? 0) : 0;
  return {
    segundosPorLlamada: porLlamada,
    ritmo,
    segundos,
    segundosConReintentos:
      segundos + reintentos * (Math.max(0, d.espera_reintento ?? 0) * 60 + porLlamada),
  };
}

/** The estimate in words: 'hh:mm:ss a N msg/s' (an SMS of more than one part: recipients and
 * parts per second both, issue 48.6, as the device's rate is in parts), or for calls the first
 * pass if every call lasts its maximum and, with retries, how long until the last one. */
export function textoEstimacion(e: Estimacion, partesPorDestinatario = 0): string {
  const formato = duracionTexto;
  const ventana = e.ventana
    ? `; ${msg('ventanaDemoraEstimacion', { N: e.ventana.fuera, espera: formato(e.ventana.esperaSegundos * 1000) })}`
    : '';
  if (e.segundosPorLlamada === null)
    return (
      msg(partesPorDestinatario > 1 ? 'duracionEstimadaPartes' : 'duracionEstimadaMensajes', {
        duracion: formato(e.segundos * 1000),
        ritmo: Number(e.ritmo.toFixed(2)),
        partes: Number((e.ritmo * partesPorDestinatario).toFixed(2)),
        N: partesPorDestinatario,
      }) + ventana
    );
  const base = msg('duracionEstimadaLlamadas', {
    duracion: formato(e.segundos * 1000),
    maximo: formato(e.segundosPorLlamada * 1000),
  });
  return (
    (e.segundosConReintentos > e.segundos
      ? `${base}; ${msg('duracionConReintentos', { duracion: formato(e.segundosConReintentos * 1000) })}`
      : base) + ventana
  );
}
