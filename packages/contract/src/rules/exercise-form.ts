/**
 * Validation of the 'Crear ejercicio' dialog (SPEC 5 "Exercise form", with ARCHITECTURE
 * correction 1: 'Acción obligatoria' is enforced for types 1, 3 and 4). The api runs the same
 * function on POST /ejercicio/ so both sides answer with the same messages.
 */
import {
  IDS_TIPO_EJERCICIO,
  MAX_LARGO_NOMBRE,
  MINUTOS_CUESTIONARIO,
  TIPO_CUESTIONARIO,
  TIPO_LLAMADA,
  tipoPorId,
} from '../constants.ts';
import { etiquetaCampo } from '../etiquetas-campo.ts';
import { msg } from '../messages.ts';
import { esAudioGsm, PATRON_NOMBRE_AUDIO } from './questionnaire.ts';

/** Fields of the dialog, in screen order. */
export const CAMPOS_FORMULARIO_EJERCICIO = [
  'tipo_ejercicio',
  'equipo',
  'titulo',
  'tiempo',
  'accion',
  'fecha_ini',
  'hora_ini',
  'estado',
  'categorias',
] as const;

/** One field of the dialog. */
export type CampoFormularioEjercicio = (typeof CAMPOS_FORMULARIO_EJERCICIO)[number];

type Valor = string | number | null | undefined;

/** The dialog's values. For type 2, `accion` holds the chosen audio file's name. */
export interface ValoresFormularioEjercicio {
  tipo_ejercicio?: Valor;
  equipo?: Valor;
  titulo?: Valor;
  tiempo?: Valor;
  accion?: Valor;
  fecha_ini?: Valor;
  hora_ini?: Valor;
  estado?: Valor;
  /** Category ids, as a list or as the comma-separated string of the wire. */
  categorias?: readonly (string | number)[] | string | null;
}

/** Error message per field; an empty object means the form can be sent. */
export type ErroresFormularioEjercicio = Partial<Record<CampoFormularioEjercicio, string>>;

const vacio = (v: Valor | readonly (string | number)[]): boolean => {
  if (v === null || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  return String(v).trim() === '';
};

/** Whether a string is a real calendar date written YYYY-MM-DD. */
export function esFechaValida(fecha: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fecha);
  if (!m) return false;
  const [a, mes, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const f = new Date(Date.UTC(a, mes - 1, d));
  return f.getUTCFullYear() === a && f.getUTCMonth() === mes - 1 && f.getUTCDate() === d;
}

/** Whether a string is a time of day written HH:mm:ss. */
export function esHoraValida(hora: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(hora);
}

/** Options of `validarFormularioEjercicio`. */
export interface OpcionesFormularioEjercicio {
  /**
   * 'formulario' (default): the dialog, where type 2's accion is the chosen file and tiempo is
   * shown. 'api': the POST /ejercicio/ body, where type 2's accion is the uploaded audio's stored
   * name and tiempo is not sent (it is set afterwards through PUT /ejercicio/tiempo/).
   */
  origen?: 'formulario' | 'api';
}

/**
 * Checks the dialog's values and returns one message per failing field. Required: titulo,
 * tipo_ejercicio (1 to 4), fecha_ini, hora_ini, equipo, estado, categorias; tiempo for type 2
 * (whole minutes > 0; form only); accion for types 1, 3 and 4 ('Acción obligatoria'; type 4 takes
 * 1 to 10 minutes) and, for type 2, a .GSM audio file (form) or its stored name (api).
 */
export function validarFormularioEjercicio(
  values: ValoresFormularioEjercicio,
  opciones: OpcionesFormularioEjercicio = {},
): ErroresFormularioEjercicio {
  const errores: ErroresFormularioEjercicio = {};
  const enApi = opciones.origen === 'api';
  const tipo = vacio(values.tipo_ejercicio) ? null : Number(values.tipo_ejercicio);

  if (tipo === null) errores.tipo_ejercicio = msg('tipoObligatorio');
  else if (!tipoPorId(tipo)) {
    errores.tipo_ejercicio = msg('campoEntero', {
      campo: etiquetaCampo('tipo_ejercicio'),
      min: Math.min(...IDS_TIPO_EJERCICIO),
      max: Math.max(...IDS_TIPO_EJERCICIO),
    });
  }
  if (vacio(values.equipo)) errores.equipo = msg('equipoObligatorio');
  if (vacio(values.titulo)) errores.titulo = msg('nombreObligatorio');
  else if (String(values.titulo).trim().length > MAX_LARGO_NOMBRE)
    errores.titulo = msg('nombreMuyLargo', {
      n: String(values.titulo).trim().length,
      max: MAX_LARGO_NOMBRE,
    });

  if (tipo === TIPO_LLAMADA) {
    const tiempo = Number(values.tiempo);
    if (!enApi && vacio(values.tiempo)) errores.tiempo = msg('tiempoObligatorio');
    else if (!vacio(values.tiempo) && (!Number.isInteger(tiempo) || tiempo <= 0)) {
      errores.tiempo = msg('tiempoInvalido');
    }

    const audio = vacio(values.accion) ? '' : String(values.accion).trim();
    if (audio === '') errores.accion = msg('debesAdjuntarAudioGsm');
    else if (enApi && !PATRON_NOMBRE_AUDIO.test(audio)) {
      errores.accion = msg('nombreArchivoInvalido');
    } else if (!enApi && !esAudioGsm(audio)) errores.accion = msg('archivoDebeSerGsm');
  } else if (tipo !== null) {
    if (vacio(values.accion)) errores.accion = msg('accionObligatoria');
    else if (
      tipo === TIPO_CUESTIONARIO &&
      !(MINUTOS_CUESTIONARIO as readonly number[]).includes(Number(values.accion))
    ) {
      errores.accion = msg('minutosCuestionarioInvalidos');
    }
  }

  if (vacio(values.fecha_ini)) errores.fecha_ini = msg('fechaObligatoria');
  else if (!esFechaValida(String(values.fecha_ini))) errores.fecha_ini = msg('fechaInvalida');
  if (vacio(values.hora_ini)) errores.hora_ini = msg('horaObligatoria');
  else if (!esHoraValida(String(values.hora_ini))) errores.hora_ini = msg('horaInvalida');

  if (vacio(values.estado)) errores.estado = msg('estadoObligatorio');
  const categorias =
    typeof values.categorias === 'string'
      ? values.categorias.split(',').filter((c) => c.trim() !== '')
      : values.categorias;
  if (vacio(categorias)) errores.categorias = msg('categoriaObligatoria');

  return errores;
}
