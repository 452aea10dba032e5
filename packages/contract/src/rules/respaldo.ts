import { NOMBRE_MENSAJERIA, TIPO_SMS, TIPO_WHATSAPP, esLlamada, tipoPorId } from '../constants.ts';
import { etiquetaCampo } from '../etiquetas-campo.ts';
import { msg, type ClaveMensaje } from '../messages.ts';
import { protocolosDonde } from '../protocolos.ts';
import { alcanzado, LUZ_RESULTADO, resultadoDe } from './alcance.ts';
import { leerAccionWhatsapp, type PlantillaElegida } from './whatsapp.ts';

// Automatic fallback inside one exercise (issue 25.2): 'Si no se alcanza, enviar SMS' (device and
// text) or a WhatsApp template. One rule for the dispatcher (who gets the fallback) and the dialog
// and api (which exercises may have one, which fields each channel takes, which devices send it).

/** Only calls and quizzes name a fallback. */
export const admiteRespaldo = (id_tipo_ejercicio: number): boolean => esLlamada(id_tipo_ejercicio);

/** The fallback's channels: an SMS (device and text) or a WhatsApp template (device and template). */
export const CANALES_RESPALDO = ['sms', 'whatsapp'] as const;
/** One fallback channel. */
export type CanalRespaldo = (typeof CANALES_RESPALDO)[number];

/** What each channel's fallback is: the device protocols that send it (their records'
 * capacidades.respaldo, protocolos.ts), the exercise type of the
 * hidden companion that holds its sends (the companion's row says its channel to any reader), its
 * name as the operator reads it and the field holding what is sent. */
export const RESPALDO_POR_CANAL: Readonly<
  Record<
    CanalRespaldo,
    {
      protocolos: readonly string[];
      tipo: number;
      nombre: string;
      contenido: 'respaldo_texto' | 'respaldo_plantilla';
      /** Its dashboard line, its label in a phone's history and the report's columns. */
      tablero: ClaveMensaje;
      columna: ClaveMensaje;
      columnaHora: ClaveMensaje;
    }
  >
> = {
  sms: {
    protocolos: protocolosDonde((d) => d.capacidades.respaldo === 'sms'),
    tipo: TIPO_SMS,
    nombre: tipoPorId(TIPO_SMS)!.etiqueta,
    contenido: 'respaldo_texto',
    tablero: 'tableroRespaldo',
    columna: 'columnaRespaldo',
    columnaHora: 'columnaRespaldoHora',
  },
  whatsapp: {
    protocolos: protocolosDonde((d) => d.capacidades.respaldo === 'whatsapp'),
    tipo: TIPO_WHATSAPP,
    nombre: NOMBRE_MENSAJERIA,
    contenido: 'respaldo_plantilla',
    tablero: 'tableroRespaldoWhatsapp',
    columna: 'columnaRespaldoWhatsapp',
    columnaHora: 'columnaRespaldoHoraWhatsapp',
  },
};

/** The channel of a fallback companion by its exercise type; null for none (or another type). */
export function canalDeRespaldo(
  id_tipo_ejercicio: number | null | undefined,
): CanalRespaldo | null {
  return CANALES_RESPALDO.find((c) => RESPALDO_POR_CANAL[c].tipo === id_tipo_ejercicio) ?? null;
}

/** A fallback as a list row gives it back: the channel, and the SMS text or the template, from
 * the companion's type and accion (all null without a companion). */
export function respaldoDeCompanero(c: {
  id_tipo_ejercicio: number | null | undefined;
  accion: string | null | undefined;
}): {
  respaldo_canal: CanalRespaldo | null;
  respaldo_texto: string | null;
  respaldo_plantilla: PlantillaElegida | null;
} {
  const canal = canalDeRespaldo(c.id_tipo_ejercicio);
  const a = canal === 'whatsapp' ? leerAccionWhatsapp(c.accion ?? '') : null;
  return {
    respaldo_canal: canal,
    respaldo_texto: canal === 'sms' ? (c.accion ?? null) : null,
    respaldo_plantilla:
      a?.tipo === 'plantilla'
        ? { plantilla: a.plantilla, idioma: a.idioma, parametros: a.parametros }
        : null,
  };
}

/** The fallback fields of a create or edit body (absent = not given). */
export interface CamposRespaldo {
  tipo_ejercicio: number;
  respaldo_canal?: CanalRespaldo;
  respaldo_equipo?: number;
  respaldo_texto?: string;
  respaldo_plantilla?: PlantillaElegida;
}

/** One field's error, its message naming the field by its label. */
export interface ErrorRespaldo {
  campo: keyof CamposRespaldo;
  mensaje: string;
}

/**
 * The fallback fields of a body, checked together (the api's schema and the dialog): none given
 * is no fallback; otherwise only calls and quizzes, the channel SMS unless it says 'whatsapp', its
 * device, and the SMS's text or the WhatsApp template with every parameter written, never the
 * other channel's field. Whether the device sends that channel and the template is approved is
 * the server's check (it reads the device).
 */
export function erroresRespaldo(b: CamposRespaldo): ErrorRespaldo[] {
  const { respaldo_canal, respaldo_equipo, respaldo_texto, respaldo_plantilla } = b;
  const dados = [respaldo_canal, respaldo_equipo, respaldo_texto, respaldo_plantilla];
  if (dados.every((v) => v === undefined)) return [];
  const de = (campo: ErrorRespaldo['campo'], mensaje: string) => ({ campo, mensaje });
  const etiqueta = etiquetaCampo;
  if (!admiteRespaldo(b.tipo_ejercicio))
    return [
      de('respaldo_equipo', msg('respaldoSoloLlamadas', { campo: etiqueta('respaldo_equipo') })),
    ];
  const canal = respaldo_canal ?? 'sms';
  const otro = canal === 'sms' ? 'whatsapp' : 'sms';
  const contenido = RESPALDO_POR_CANAL[canal].contenido;
  const errores: ErrorRespaldo[] = [];
  for (const campo of ['respaldo_equipo', contenido] as const)
    if (b[campo] === undefined)
      errores.push(de(campo, msg('campoObligatorio', { campo: etiqueta(campo) })));
  const ajeno = RESPALDO_POR_CANAL[otro].contenido;
  if (b[ajeno] !== undefined)
    errores.push(
      de(
        ajeno,
        msg('respaldoSoloCanal', {
          campo: etiqueta(ajeno),
          canal: RESPALDO_POR_CANAL[otro].nombre,
        }),
      ),
    );
  if (canal === 'whatsapp' && respaldo_plantilla?.parametros.some((p) => p.trim() === ''))
    errores.push(
      de(
        'respaldo_plantilla',
        msg('respaldoPlantillaParametroVacio', { campo: etiqueta('respaldo_plantilla') }),
      ),
    );
  return errores;
}

/**
 * Whether a recipient whose last attempt ended with this outcome gets the fallback: a final
 * outcome that did not reach them by the one rule of 'reached' (rules/alcance.ts): busy, no
 * answer, failed, invalid, hung up early, a quiz answered in part or not at all. Never while it
 * may still be retried or is in flight, never after a stop ('cancelado'), and never for an
 * 'incierto' call, which may have reached them.
 */
export function llevaRespaldo(estatus: string, alcance?: string | null): boolean {
  if (estatus === 'pendiente' || estatus === 'en_curso' || estatus === 'incierto') return false;
  const r = resultadoDe(estatus, alcance);
  return LUZ_RESULTADO[r] !== 'cancelado' && !alcanzado(r);
}
