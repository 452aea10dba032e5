/**
 * Issue 47.3: prepared messages by hazard ('Plantillas'). A template's texts (the SMS, the
 * WhatsApp template's parameters) may hold the placeholders {estado}, {municipio}, {hora} and
 * {refugio}; the dialog fills them (llenarPlantilla) and shows a preview. Any other {word} is
 * refused at save, naming the field. The drill marker of issue 47.1 is never stored in a template:
 * a drill's text gets it when the exercise is created, and the parts counter counts it.
 */
import { CANAL_DE_PROTOCOLO, PROTOCOLOS, type Canal, type Protocolo } from '../constants.ts';
import { analizarSms, type AnalisisSms } from './sms.ts';
import { sinMarca } from './modo.ts';

/** The placeholders a template may use, in the order the dialog asks for them. */
export const MARCADORES_PLANTILLA = ['estado', 'municipio', 'hora', 'refugio'] as const;
export type MarcadorPlantilla = (typeof MARCADORES_PLANTILLA)[number];

/** The hazards every installation starts with; an administrator adds more. */
export const PELIGROS_INICIALES = [
  'Sismo',
  'Huracán',
  'Inundación',
  'Tsunami',
  'Incendio forestal',
  'Actividad volcánica',
] as const;

/** {word}: a placeholder (letters, digits, '_'; accented letters too, so {almacén} is caught). */
const MARCADOR = /\{([\p{L}\p{N}_]+)\}/gu;

/** The placeholders a text uses, each once, in order of appearance. */
export function marcadoresDe(texto: string): string[] {
  return [...new Set([...texto.matchAll(MARCADOR)].map((m) => m[1]!))];
}

/** The placeholders a text uses that are not allowed, each once ('{lugar}'). */
export function marcadoresDesconocidos(texto: string): string[] {
  return marcadoresDe(texto)
    .filter((m) => !(MARCADORES_PLANTILLA as readonly string[]).includes(m))
    .map((m) => `{${m}}`);
}

/** The allowed placeholders as a message lists them. */
export const marcadoresPermitidos = () => MARCADORES_PLANTILLA.map((m) => `{${m}}`).join(', ');

/** The text with each known placeholder replaced by its value; a placeholder with no value (or
 * a blank one) stays as written, so the preview shows what is still to fill. */
export function llenarPlantilla(
  texto: string,
  valores: Partial<Record<MarcadorPlantilla, string>>,
): string {
  return texto.replace(MARCADOR, (marca: string, nombre: string) => {
    const v = Object.hasOwn(valores, nombre)
      ? valores[nombre as MarcadorPlantilla]?.trim()
      : undefined;
    return v ? v : marca;
  });
}

/** Whether a filled text still has placeholders to fill. */
export const faltanMarcadores = (texto: string) => marcadoresDe(texto).length > 0;

/** The template's SMS text as stored: without the drill marker (a drill adds it on creation). */
export const textoSmsGuardado = (texto: string, marca: string) => sinMarca(texto.trim(), marca);

/** The SMS parts of a template's text as it will leave: a drill's with the marker before it. */
export function partesPlantilla(texto: string, marca: string, simulacro: boolean): AnalisisSms {
  const t = textoSmsGuardado(texto, marca);
  return analizarSms(simulacro ? marca + t : t);
}

/** The channels a template version holds content for (the Plantillas screen's 'Canal' filter). */
export const CANALES_PLANTILLA = ['sms', 'whatsapp', 'llamada', 'cuestionario'] as const;
export type CanalPlantilla = (typeof CANALES_PLANTILLA)[number];

/** Which channels a version holds: an SMS text, a WhatsApp template, a call audio, a
 * questionnaire. */
export function canalesDeVersion(v: {
  texto_sms: string;
  whatsapp_plantilla: string;
  audio: string;
  id_cuestionario: number | null;
}): CanalPlantilla[] {
  const r: CanalPlantilla[] = [];
  if (v.texto_sms.trim()) r.push('sms');
  if (v.whatsapp_plantilla.trim()) r.push('whatsapp');
  if (v.audio.trim()) r.push('llamada');
  if (v.id_cuestionario !== null) r.push('cuestionario');
  return r;
}

/** The versions an exercise may be created from, newest first: only approved ones for an 'Alerta
 * real' (the api refuses any other), every one for a drill or a test. */
export function versionesUsables<V extends { aprobada: number | null }>(
  versiones: readonly V[],
  real: boolean,
): V[] {
  return versiones.filter((v) => !real || v.aprobada !== null);
}

/** Issue 47.2: the channels a correction or cancellation goes by: an SMS text, a WhatsApp
 * template, or a call audio already on the telephony agent (the api writes the call's dialplan to
 * the agent before it starts). */
export const CANALES_CORRECCION = ['sms', 'whatsapp', 'llamada'] as const;
export type CanalCorreccion = (typeof CANALES_CORRECCION)[number];

/** The correction channel of each start channel. */
const CORRECCION_DE_CANAL: Readonly<Record<Canal, CanalCorreccion>> = {
  sms: 'sms',
  whatsapp: 'whatsapp',
  calls: 'llamada',
};

/** The correction channel a device's protocol sends by (null: none): its start channel
 * (CANAL_DE_PROTOCOLO), so a new protocol needs no second list here. */
export function canalCorreccion(protocolo: string): CanalCorreccion | null {
  return (PROTOCOLOS as readonly string[]).includes(protocolo)
    ? CORRECCION_DE_CANAL[CANAL_DE_PROTOCOLO[protocolo as Protocolo]]
    : null;
}

/** Whether a version holds what a correction by `canal` sends: the SMS text, the WhatsApp
 * template, or the call audio. */
export const versionTieneCanal = (
  v: { texto_sms: string; whatsapp_plantilla: string; audio: string },
  canal: CanalCorreccion,
): boolean =>
  (canal === 'sms' ? v.texto_sms : canal === 'whatsapp' ? v.whatsapp_plantilla : v.audio).trim() !==
  '';

/**
 * 'Enviar corrección' / 'Cancelar alerta' (issue 47.2): the active devices the follow-up from
 * version `v` may go by (SMS, WhatsApp or call ones whose channel the version holds content for),
 * and the one chosen when none is asked for: the original's own device, else the first of the
 * original's channel, else the first SMS device, else the first one.
 * The dialog's picker and the api read the same rule.
 */
export function equiposCorreccion<E extends { id_equipo: number; protocolo: string }>(
  activos: readonly E[],
  v: { texto_sms: string; whatsapp_plantilla: string; audio: string },
  original: { id_equipo: number; protocolo: string },
): {
  opciones: (E & { canal: CanalCorreccion })[];
  defecto: (E & { canal: CanalCorreccion }) | undefined;
} {
  const opciones = activos.flatMap((e) => {
    const canal = canalCorreccion(e.protocolo);
    return canal && versionTieneCanal(v, canal) ? [{ ...e, canal }] : [];
  });
  const canalOriginal = canalCorreccion(original.protocolo);
  const defecto =
    opciones.find((e) => e.id_equipo === original.id_equipo) ??
    opciones.find((e) => e.canal === canalOriginal) ??
    opciones.find((e) => e.canal === 'sms') ??
    opciones[0];
  return { opciones, defecto };
}
