/** The channel and run time sent when an exercise starts (SPEC 4 "Start", SPEC 9). */
import {
  MINUTOS_CUESTIONARIO,
  MS_LLAMADA_DEFECTO,
  MS_POR_MINUTO,
  tipoPorEtiqueta,
  tipoPorId,
  type Canal,
  type IdTipoEjercicio,
} from '../constants.ts';
import { msg } from '../messages.ts';

/** The exercise fields the start plan reads (as the list row carries them). */
export interface EjercicioInicio {
  /** List label: 'SMS', 'LLAMADA', 'WHATSAPP' or 'CUESTIONARIO'. */
  tipo_ejercicio?: string | null;
  id_tipo_ejercicio?: number | string | null;
  /** Questionnaires: run time in minutes. */
  accion?: string | number | null;
  /** Calls: run time in minutes (ARCHITECTURE correction 3). */
  tiempo?: string | number | null;
}

/** Options of `planInicio`. */
export interface OpcionesInicio {
  /** A WhatsApp Cloud API device exists, so type 3 can start (ARCHITECTURE 5). */
  whatsappDisponible?: boolean;
}

/** Start plan: the channel segment and time (ms) of the start call, or the error to show. */
export type PlanInicio =
  { ok: true; tipo: IdTipoEjercicio; canal: Canal; time: number } | { ok: false; mensaje: string };

const positivo = (valor: string | number | null | undefined): number | null => {
  if (valor === null || valor === undefined || String(valor).trim() === '') return null;
  const n = Number(valor);
  return Number.isFinite(n) && n > 0 ? n : null;
};

/**
 * Decides how an exercise starts. The list label decides the type (the id is the fallback when
 * the label is missing): SMS → ('sms', 0); LLAMADA → ('calls', tiempo × 60000, or 35000 without
 * a tiempo); CUESTIONARIO → ('calls', accion × 60000); WHATSAPP → ('whatsapp', 0) only with a
 * WhatsApp device. Anything else gives 'API {tipo_ejercicio} NO DISPONIBLE'.
 */
export function planInicio(ej: EjercicioInicio, opciones: OpcionesInicio = {}): PlanInicio {
  const etiqueta = (ej.tipo_ejercicio ?? '').trim();
  const tipo = etiqueta ? tipoPorEtiqueta(etiqueta) : tipoPorId(ej.id_tipo_ejercicio);
  const nombreTipo = etiqueta || tipo?.etiqueta || String(ej.id_tipo_ejercicio ?? '');
  const noDisponible: PlanInicio = {
    ok: false,
    mensaje: msg('apiNoDisponible', { tipo_ejercicio: nombreTipo }),
  };
  switch (tipo?.id) {
    case 1:
      return { ok: true, tipo: 1, canal: 'sms', time: 0 };
    case 2: {
      const minutos = positivo(ej.tiempo);
      return {
        ok: true,
        tipo: 2,
        canal: 'calls',
        time: minutos === null ? MS_LLAMADA_DEFECTO : Math.round(minutos * MS_POR_MINUTO),
      };
    }
    case 3:
      return opciones.whatsappDisponible
        ? { ok: true, tipo: 3, canal: 'whatsapp', time: 0 }
        : noDisponible;
    case 4: {
      const minutos = Number(ej.accion);
      if (!(MINUTOS_CUESTIONARIO as readonly number[]).includes(minutos)) {
        return { ok: false, mensaje: msg('minutosCuestionarioInvalidos') };
      }
      return { ok: true, tipo: 4, canal: 'calls', time: minutos * MS_POR_MINUTO };
    }
    default:
      return noDisponible;
  }
}
