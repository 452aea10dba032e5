/**
 * Issue 47.1: an exercise's mode ('Simulacro', 'Prueba', 'Alerta real') and the drill marker.
 * A drill's SMS and WhatsApp free text always begins with the marker (setting MARCA_SIMULACRO,
 * default 'SIMULACRO: '): the dialog shows it fixed before the text and counts it in the parts,
 * the api adds it to a drill text that lacks it (and says so), and the stored text, with it, is
 * what the gateways send. Calls and quizzes cannot be marked: the operator is reminded that the
 * audio must say it. Test runs and real alerts carry no marker.
 */
import { msg } from '../messages.ts';
import {
  ETIQUETA_MODO,
  MODO_DEFECTO,
  MODOS_EJERCICIO,
  TIPO_SMS,
  TIPO_WHATSAPP,
  type ModoEjercicio,
} from '../constants.ts';
import { leerAccionWhatsapp } from './whatsapp.ts';

/** A stored mode as a mode (an unknown or missing one reads 'simulacro', as old rows do). */
export function modoDe(v: unknown): ModoEjercicio {
  return (MODOS_EJERCICIO as readonly unknown[]).includes(v) ? (v as ModoEjercicio) : MODO_DEFECTO;
}

/** Whether an exercise of this mode and type sends a text that must carry the drill marker: a
 * drill's SMS, or its WhatsApp free text (an approved template is sent as Meta holds it). */
export function llevaMarca(modo: ModoEjercicio, tipo: number, accion = ''): boolean {
  if (modo !== 'simulacro') return false;
  if (tipo === TIPO_SMS) return true;
  return tipo === TIPO_WHATSAPP && leerAccionWhatsapp(accion).tipo === 'texto';
}

/** Whether the text already begins with the marker (its trailing blanks aside, any case). */
export function tieneMarca(texto: string, marca: string): boolean {
  const m = marca.trimEnd().toLocaleUpperCase('es-MX');
  return m === '' || texto.trimStart().toLocaleUpperCase('es-MX').startsWith(m);
}

/** The text with the marker at its start (unchanged when it already has it) and whether it was
 * added. */
export function conMarca(texto: string, marca: string): { texto: string; agregada: boolean } {
  if (tieneMarca(texto, marca)) return { texto, agregada: false };
  return { texto: marca + texto.trimStart(), agregada: true };
}

/** The text without its leading marker (what the dialog's field shows beside the fixed marker). */
export function sinMarca(texto: string, marca: string): string {
  if (!marca.trim() || !tieneMarca(texto, marca)) return texto;
  return texto.trimStart().slice(marca.trimEnd().length).trimStart();
}

/** A mode in words for the reports: 'Simulacro', 'Prueba', 'Alerta real (motivo)'. */
export function textoModo(modo: unknown, motivo?: string | null): string {
  const m = modoDe(modo);
  const t = msg(ETIQUETA_MODO[m]);
  return m === 'real' && motivo ? `${t} (${motivo})` : t;
}
