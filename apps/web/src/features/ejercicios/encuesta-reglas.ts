import { erroresEncuesta as erroresEncuestaTipo } from '@pregon/contract/api/respuestas';
import { EncuestaSchema } from '@pregon/contract/api/encuestas';
import { TIPO_SMS, TIPO_WHATSAPP } from '@pregon/contract/constants';
import { instruccionEncuesta, textoEncuesta } from '@pregon/contract/rules/respuestas';
import type { EncuestaFormulario, OpcionFormulario } from './encuesta-formulario.ts';

// The poll's rules as the create/edit dialog applies them (issue 46.2): what it sends, the
// contract's verdict by field, and the text an SMS sends with the options appended. Loaded with
// the dialog (they build the contract's schemas), not with the exercises list.

/** The contract's messages of a poll by field: 'opciones' (their number), 'opciones.{i}.digito',
 * 'opciones.{i}.texto', 'opciones.{i}.acuse', and 'encuesta' (one that does not fit its type). */
export type ErroresEncuesta = Record<string, string>;

/** The digits an option may take, in the order the select offers them. */
export const DIGITOS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0];

/** Whether an exercise type can ask a question (SMS and WhatsApp). */
export const tipoConEncuesta = (tipo: number | undefined) =>
  tipo === TIPO_SMS || tipo === TIPO_WHATSAPP;

/** The first digit no option uses yet (1 to 9, then 0). */
function digitoLibre(opciones: readonly OpcionFormulario[]): number | undefined {
  const usados = new Set(opciones.map((o) => o.digito));
  return DIGITOS.find((d) => !usados.has(d));
}

/** A new, empty option with the first free digit. */
export const opcionNueva = (opciones: readonly OpcionFormulario[]): OpcionFormulario => ({
  digito: digitoLibre(opciones),
  texto: '',
  atencion: false,
  acuse: '',
});

/** The wire body of the dialog's poll (rules/respuestas EncuestaSchema); null when off. The
 * instruction is appended only to an SMS (a WhatsApp exercise sends an approved template). */
function cuerpo(v: EncuestaFormulario | undefined, tipo: number | undefined) {
  if (!v?.activa || !tipoConEncuesta(tipo)) return null;
  return {
    opciones: (v.opciones ?? []).map((o) => ({
      digito: o.digito ?? '',
      texto: o.texto ?? '',
      atencion: o.atencion ? 1 : 0,
      acuse: o.acuse ?? '',
    })),
    anexar_opciones: tipo === TIPO_SMS && v.anexar_opciones ? 1 : 0,
  };
}

/** The `encuesta` field the create and edit calls send: the poll, or '' for none (an edit that
 * switches it off removes it); nothing for calls and quizzes, which have none. */
export function encuestaParaEnviar(
  v: EncuestaFormulario | undefined,
  tipo: number | undefined,
): { encuesta?: ReturnType<typeof cuerpo> | '' } {
  if (!tipoConEncuesta(tipo)) return {};
  return { encuesta: cuerpo(v, tipo) ?? '' };
}

/** The contract's verdict on the dialog's poll, by field: the same Spanish messages as the api's
 * 400 (EncuestaSchema and erroresEncuesta). Empty when it is valid or off. */
export function validarEncuesta(
  v: EncuestaFormulario | undefined,
  tipo: number | undefined,
): ErroresEncuesta {
  const c = cuerpo(v, tipo);
  if (!c || tipo === undefined) return {};
  const r = EncuestaSchema.safeParse(c);
  const errores: ErroresEncuesta = {};
  if (!r.success) {
    for (const i of r.error.issues) errores[i.path.join('.') || 'opciones'] ??= i.message;
    return errores;
  }
  for (const e of erroresEncuestaTipo({ tipo_ejercicio: tipo, encuesta: r.data }))
    errores[e.campo] ??= e.mensaje;
  return errores;
}

/** The options that are written enough to be worded in the instruction. */
function opcionesEscritas(v: EncuestaFormulario | undefined) {
  return (v?.opciones ?? [])
    .filter((o) => typeof o.digito === 'number' && (o.texto ?? '').trim() !== '')
    .map((o) => ({ digito: o.digito as number, texto: (o.texto ?? '').trim() }));
}

/** What an SMS exercise sends: its message, plus the instruction on its own line when the poll
 * appends it ('Responda 1 si está a salvo, 2 si necesita ayuda'), and that line alone. */
export function textoEnviado(
  accion: string,
  v: EncuestaFormulario | undefined,
  tipo: number | undefined,
): { texto: string; anexo: string | null } {
  const opciones = opcionesEscritas(v);
  if (tipo !== TIPO_SMS || !v?.activa || !v.anexar_opciones || opciones.length === 0)
    return { texto: accion, anexo: null };
  return {
    texto: textoEncuesta(accion, opciones, true).texto,
    anexo: instruccionEncuesta(opciones),
  };
}
