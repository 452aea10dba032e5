import type { UploadFile } from 'antd';
import type { Dayjs } from 'dayjs';
import { FORMATO_FECHA, FORMATO_HORA, TIPO_LLAMADA } from '@pregon/contract/constants';
import { puertosPorDefecto, type CapacidadEquipo } from '@pregon/contract/rules/capacidad';
import type { CanalRespaldo } from '@pregon/contract/rules/respaldo';
import type {
  CampoFormularioEjercicio,
  ErroresFormularioEjercicio,
  ValoresFormularioEjercicio,
} from '@pregon/contract/rules/exercise-form';
import type { PlantillaElegida } from '@pregon/contract/rules/whatsapp';
import type { PedidoSeguimiento } from '../../ejercicio/components/reenviar-no-alcanzados.tsx';
import type { EncuestaFormulario } from './encuesta-formulario.ts';

// 'Crear ejercicio' / 'Editar ejercicio': the form's values, what the dialog is opened with, and
// the pure helpers its sections share (components/crear-ejercicio-dialog.tsx and its parts,
// hooks/use-formulario-ejercicio.ts).

/** The window's pickers show and send 'HH:mm'. */
export const FORMATO_VENTANA = 'HH:mm';

/** The form's raw values (antd controls). */
export interface ValoresDialogo {
  /** A call's audio already on the agent (edit or duplicate), used when no file is chosen. */
  audio_actual?: string;
  tipo_ejercicio: number | '';
  equipo?: number;
  titulo?: string;
  tiempo?: string;
  accion?: string | number;
  audio?: UploadFile[];
  fecha_ini?: Dayjs | null;
  hora_ini?: Dayjs | null;
  /** Issue 24.5: one state or several ('Todos los estados' chooses every one). */
  estado?: number[];
  categorias?: number[];
  /** Calls and quizzes: the exercise's retry policy (empty: the server's). */
  reintentos?: number | null;
  espera_reintento?: number | null;
  /** SMS: minutes each message may wait for delivery (empty: the gateway's default). */
  vigencia?: number | null;
  /** Issue 45.5: minutes it waits for a device that does not answer before pausing itself (0:
   * without limit; empty: the server's, GET /config/ espera_equipo_s). */
  espera_equipo?: number | null;
  /** The device's ports the exercise runs on (issue 24.1): all of them unless narrowed. */
  puerto_ini?: number | null;
  puerto_fin?: number | null;
  /** Issue 24.3: start by itself at the date and hour (off unless chosen). */
  inicio_automatico?: boolean;
  /** Issue 24.4: 'Horario permitido' in each recipient's local time (both or none). */
  ventana_inicio?: Dayjs | null;
  ventana_fin?: Dayjs | null;
  /** Issue 25.2, calls and quizzes: what whoever is not reached gets: the channel (SMS unless
   * WhatsApp is chosen), its device, and the SMS's text or the approved WhatsApp template. */
  respaldo_canal?: CanalRespaldo;
  respaldo_equipo?: number | null;
  respaldo_texto?: string;
  respaldo_plantilla?: PlantillaElegida | null;
  /** Issue 46.2, SMS and WhatsApp: the poll (encuesta-seccion.tsx). */
  encuesta?: EncuestaFormulario;
  /** Issue 47.1: 'simulacro', 'prueba' or 'real', and a real alert's reason (modo-seccion.tsx). */
  modo?: string;
  motivo_alerta?: string;
  /** Issue 47.3: the template version 'Desde plantilla' filled the message from (desde-plantilla.tsx). */
  id_version_plantilla?: number;
}

/** 'HH:mm' of a TimePicker's value, '' when empty. */
export const horaVentana = (d: Dayjs | null | undefined) => (d ? d.format(FORMATO_VENTANA) : '');

/** Initial values of the clone flow (SPEC 4): a copy of the source exercise without its id; for
 * an edit or a duplicate (issue 26.1) the exercise's values, a call's audio by its agent name. */
export type DatosIniciales = Partial<Omit<ValoresDialogo, 'audio'>> & {
  /** A call's audio already on the agent: kept unless another file is chosen. */
  audio_actual?: string;
  /** A questionnaire's (edit, duplicate, clone): the exercise whose questions it has or will
   * get; their audios together are checked against the minutes chosen (issue 45.5). */
  cuestionario_de?: number;
};

/** What the dialog does (issue 26.1): create (empty or a duplicate), the SPEC's clone flow, or
 * edit an exercise that has not started. */
export type ModoDialogo =
  | { modo: 'crear' }
  | { modo: 'clonar' }
  | { modo: 'duplicar' }
  | {
      modo: 'editar';
      id_ejercicio: number;
      /** Issue 48.3: the version loaded; the save sends it and a stale one gets the 409. */
      version?: number;
      /** A follow-up (issue 25.1): its recipients were copied from its source, they stay. */
      copiados?: { destinatarios: number; ejercicio: string };
    };

/** Props of the dialog. */
export interface PropsCrearEjercicio {
  abierto: boolean;
  alCerrar: () => void;
  /** Opened with data (clone flow): the confirm button reads 'Crear y clonar cuestionario'. */
  inicial?: DatosIniciales;
  /** Told the new exercise's id once it is created (the clone flow rebuilds its questionnaire;
   * 'Desde plantilla' names the exercise whose questionnaire the template holds, to copy it). */
  alCrear?: (id_ejercicio: number, cuestionarioDe?: number) => void;
  /** 'Reenviar a no alcanzados' (issue 25.1): the drill followed up and the chosen outcome sets;
   * the server copies those recipients, so states, categories and the preview give way to the
   * count. */
  origen?: PedidoSeguimiento & { ejercicio: string };
  /** Default: 'clonar' when opened with `inicial` (and no `origen`), else 'crear'. */
  modo?: ModoDialogo;
  /** Reopened with what was typed before the session expired (issue 26.7). */
  recuperado?: { audioPerdido: boolean };
  /** Issue 48.3: 'Recargar' after a stale save: the exercise as saved now, in the dialog. */
  recargar?: () => Promise<void>;
}

/** The values the contract's form rule reads; type 2's accion is the chosen audio's file name. */
export function paraValidar(v: ValoresDialogo): ValoresFormularioEjercicio {
  const tipo = v.tipo_ejercicio === '' ? undefined : v.tipo_ejercicio;
  return {
    tipo_ejercicio: tipo,
    equipo: v.equipo,
    titulo: v.titulo,
    tiempo: v.tiempo,
    // An audio already on the agent is stored without its extension: it was a .gsm file.
    accion:
      tipo === TIPO_LLAMADA
        ? (v.audio?.[0]?.name ?? (v.audio_actual ? `${v.audio_actual}.gsm` : undefined))
        : v.accion,
    fecha_ini: v.fecha_ini?.format(FORMATO_FECHA),
    hora_ini: v.hora_ini?.format(FORMATO_HORA),
    estado: v.estado?.[0],
    categorias: v.categorias ?? [],
  };
}

/** The port range the form holds, or the device's whole range (1/1/1 without a device). */
export function rangoPuertos(
  v: Pick<ValoresDialogo, 'puerto_ini' | 'puerto_fin'>,
  equipo: CapacidadEquipo | undefined,
) {
  const defecto = equipo ? puertosPorDefecto(equipo) : { puerto_ini: 1, puerto_fin: 1 };
  return {
    puerto_ini: v.puerto_ini ?? defecto.puerto_ini,
    puerto_fin: v.puerto_fin ?? defecto.puerto_fin,
  };
}

/** Props of a Form.Item showing the contract's message for its field. */
export const propsError = (errores: ErroresFormularioEjercicio, campo: CampoFormularioEjercicio) =>
  errores[campo]
    ? { validateStatus: 'error' as const, help: errores[campo] }
    : { validateStatus: undefined, help: undefined };
