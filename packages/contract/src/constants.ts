/**
 * Business constants of SPEC section 9 and ARCHITECTURE, defined once. Database check
 * constraints, zod schemas (esquemas.ts) and catalogue labels are all derived from these arrays.
 */
import { MENSAJES, type ClaveMensaje } from './messages.ts';
import { porProtocolo, type Protocolo } from './protocolos.ts';

/** Name of the instant-messaging service used by type 3 (its label and equipment keyword). */
export const NOMBRE_MENSAJERIA = 'WhatsApp';

/** Longest name of an exercise, a phone's owner or a user: a longer one is refused with
 * 'nombreMuyLargo', never cut (issue 26.7). */
export const MAX_LARGO_NOMBRE = 200;

// What an imported file may expand to (issue 49.1): the upload is capped at MAX_MB_IMPORTACION,
// but an .xlsx is a zip whose parts can inflate a thousandfold, and one CSV field can fill memory.
// Generous for real lists: a sheet holds at most 1,048,576 rows (Excel's own limit), and such a
// sheet with a dozen columns is ~400 MB of XML; a cell holds at most 32,767 characters (Excel's).
/** Largest uncompressed size (MB) of one part (zip entry) of an imported .xlsx. */
export const MAX_MB_PARTE_XLSX = 1024;
/** Largest uncompressed size (MB) of all the parts of an imported .xlsx together. */
export const MAX_MB_XLSX_DESCOMPRIMIDO = 1536;
/** Most a part of an .xlsx may inflate over its compressed size (Apache POI's default bound,
 * 100:1; real sheets inflate 5–30 times), checked once the part is past its first MB. */
export const MAX_RAZON_XLSX = 100;
/** Most parts (zip entries) of an imported .xlsx: a list of one sheet has about ten, and a
 * workbook of a hundred sheets a few hundred. */
export const MAX_PARTES_XLSX = 1000;
/** Most shared strings (distinct texts) of an imported .xlsx: four text columns of a full sheet
 * (4 × 1,048,576). They are held in memory while the sheet is read. */
export const MAX_CADENAS_XLSX = 4 * 1_048_576;
/** Most characters (millions) of all the shared strings of an imported .xlsx together: ~30 a text
 * at the most texts; with the strings' own overhead it fits MAX_MB_MEMORIA_IMPORTACION. */
export const MAX_MCARACTERES_CADENAS_XLSX = 128;
/** Most cells of one row of an imported file (CSV or .xlsx). */
export const MAX_CELDAS_FILA_IMPORTACION = 1000;
/** Most characters of one field of an imported file (CSV or .xlsx): Excel's own cell limit. */
export const MAX_CARACTERES_CAMPO_IMPORTACION = 32_767;
/** Most characters of one CSV record (a line, or lines joined by quotes). */
export const MAX_CARACTERES_FILA_IMPORTACION = 1_048_576;
/** Heap (MB) of the thread that reads an import: past it the thread stops, not the api. */
export const MAX_MB_MEMORIA_IMPORTACION = 512;

/** The four exercise types: id, internal key, list label and the label of the action field. */
export const TIPOS_EJERCICIO = [
  { id: 1, clave: 'sms', etiqueta: 'SMS', accionLabel: MENSAJES.etiquetaMensaje },
  { id: 2, clave: 'llamada', etiqueta: 'LLAMADA', accionLabel: MENSAJES.etiquetaAudio },
  { id: 3, clave: 'whatsapp', etiqueta: 'WHATSAPP', accionLabel: NOMBRE_MENSAJERIA },
  {
    id: 4,
    clave: 'cuestionario',
    etiqueta: 'CUESTIONARIO',
    accionLabel: MENSAJES.etiquetaTiempoCuestionario,
  },
] as const;

/** One exercise type as listed in TIPOS_EJERCICIO. */
export type TipoEjercicio = (typeof TIPOS_EJERCICIO)[number];
/** Numeric exercise type id, 1 to 4. */
export type IdTipoEjercicio = TipoEjercicio['id'];
/** List label of an exercise type ('SMS', 'LLAMADA', 'WHATSAPP', 'CUESTIONARIO'). */
export type EtiquetaTipoEjercicio = TipoEjercicio['etiqueta'];

/** Type ids, for zod enums and database checks. */
export const IDS_TIPO_EJERCICIO = TIPOS_EJERCICIO.map((t) => t.id) as readonly IdTipoEjercicio[];
/** Type list labels, for zod enums and database checks. */
export const ETIQUETAS_TIPO_EJERCICIO = TIPOS_EJERCICIO.map(
  (t) => t.etiqueta,
) as readonly EtiquetaTipoEjercicio[];

/** Type id of SMS exercises. */
export const TIPO_SMS = 1;
/** Type id of voice-call exercises (the ones with a 'Tiempo (Minutos)' field). */
export const TIPO_LLAMADA = 2;
/** Type id of instant-messaging exercises. */
export const TIPO_WHATSAPP = 3;
/** Type id of questionnaires (quiz exercises). */
export const TIPO_CUESTIONARIO = 4;

/** True for the types placed as phone calls through Asterisk (calls and questionnaires). */
export const esLlamada = (id: number): boolean => id === TIPO_LLAMADA || id === TIPO_CUESTIONARIO;

/** Finds an exercise type by its id (number or numeric string); undefined when unknown. */
export function tipoPorId(id: number | string | null | undefined): TipoEjercicio | undefined {
  if (id === null || id === undefined || String(id).trim() === '') return undefined;
  const n = Number(id);
  return TIPOS_EJERCICIO.find((t) => t.id === n);
}

/** Finds an exercise type by its list label, ignoring case and surrounding spaces. */
export function tipoPorEtiqueta(etiqueta: string | null | undefined): TipoEjercicio | undefined {
  const buscada = (etiqueta ?? '').trim().toUpperCase();
  return TIPOS_EJERCICIO.find((t) => t.etiqueta === buscada);
}

/**
 * Type labels the SPEC allows to start. WHATSAPP is startable too, but only when a WhatsApp
 * Cloud API device exists (ARCHITECTURE 5); see `planInicio` in rules/start.ts.
 */
export const TIPOS_ARRANCABLES = ['SMS', 'LLAMADA', 'CUESTIONARIO'] as const;

/** Channel segments of the start call: the SPEC's 'sms' and 'calls', plus 'whatsapp' for type 3. */
export const CANALES = ['sms', 'calls', 'whatsapp'] as const;
/** One start channel. */
export type Canal = (typeof CANALES)[number];

/** Questionnaire run-time options, in minutes (type 4 action field). */
export const MINUTOS_CUESTIONARIO = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
/** Milliseconds in a minute, for start times (ARCHITECTURE correction 3: tiempo is minutes). */
export const MS_POR_MINUTO = 60000;
/** Call run time sent when the exercise has no tiempo. */
export const MS_LLAMADA_DEFECTO = 35000;
/** Rows per page of the exercises list and of the phone preview table. */
export const FILAS_POR_PAGINA = 10;
/** Seconds a toast notification stays on screen. */
export const DURACION_TOAST_S = 3;
/** Local-storage key of the session token. */
export const CLAVE_TOKEN = 'token';
/** Maximum questions in a questionnaire. */
export const MAX_PREGUNTAS = 40;
/** Maximum answers in a question. */
export const MAX_RESPUESTAS = 10;
/** Keypad digits an answer can use. */
export const DIGITOS = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
/** Fixed number of question slots in the questionnaire wire form (file_01..40, reactivo_01..40). */
export const SLOTS_CUESTIONARIO = 40;
/** Date format of fecha_ini (dayjs / antd tokens). */
export const FORMATO_FECHA = 'YYYY-MM-DD';
/** Time format of hora_ini (dayjs / antd tokens). */
export const FORMATO_HORA = 'HH:mm:ss';
/** Calls and quizzes: most extra attempts an exercise may ask for a busy or unanswered recipient. */
export const REINTENTOS_LLAMADA_MAX = 5;
/** Calls and quizzes: longest wait (minutes) an exercise may set before a new attempt. */
export const ESPERA_REINTENTO_MAX = 24 * 60;
/** SMS exercises: longest validity (minutes) an exercise may give its messages (SMSCs keep a
 * message at most 72 h). */
export const VIGENCIA_SMS_MAX = 72 * 60;
/** Default of numero_puertos, puerto_ini and puerto_fin. */
export const PUERTOS_DEFECTO = 1;
/** Audio extension accepted for calls and questionnaires (compared case-insensitively). */
export const EXTENSION_AUDIO = '.gsm';
/** Layout names of the route table. */
export const LAYOUTS = ['default', 'login'] as const;

/** Issue 47.1: an exercise's mode. 'simulacro' (the default, and what every exercise created
 * before the modes reads), 'prueba' (only to the administrator's test list) or 'real' (a real
 * emergency alert: sent to opted-out phones too, with a reason). */
export const MODOS_EJERCICIO = ['simulacro', 'prueba', 'real'] as const;
/** One exercise mode. */
export type ModoEjercicio = (typeof MODOS_EJERCICIO)[number];
/** The mode of an exercise that names none (the SPEC's client). */
export const MODO_DEFECTO: ModoEjercicio = 'simulacro';
/** Catalogue label of each mode ('Simulacro', 'Prueba', 'Alerta real'). */
export const ETIQUETA_MODO: Readonly<Record<ModoEjercicio, ClaveMensaje>> = {
  simulacro: 'modoSimulacro',
  prueba: 'modoPrueba',
  real: 'modoReal',
};
/** Tag colour of each mode (always shown with its label, never alone). */
export const COLOR_MODO: Readonly<Record<ModoEjercicio, string>> = {
  simulacro: 'blue',
  prueba: 'gold',
  real: 'red',
};
/** Default of the drill marker setting (MARCA_SIMULACRO): the start of every drill's SMS and
 * WhatsApp free text. */
export const MARCA_SIMULACRO_DEFECTO = 'SIMULACRO: ';
/** Default name of the category that is the administrator's test list (CATEGORIA_PRUEBA): a
 * 'Prueba' exercise reaches only the phones in it. */
export const CATEGORIA_PRUEBA_DEFECTO = 'Lista de prueba';

/** User roles (ARCHITECTURE 3). */
export const ROLES = ['administradores', 'operadores', 'consulta', 'aprobadores'] as const;
/** One user role. */
export type Rol = (typeof ROLES)[number];
/** Role required by /users and the user-management calls. */
export const ROL_ADMINISTRADOR: Rol = 'administradores';
/** Roles allowed to create, start, pause, stop and edit (consulta is read-only). */
export const ROLES_OPERACION: readonly Rol[] = ['administradores', 'operadores'];
/** Catalogue label of each role. */
export const ETIQUETA_ROL: Readonly<Record<Rol, ClaveMensaje>> = {
  administradores: 'rolAdministradores',
  operadores: 'rolOperadores',
  consulta: 'rolConsulta',
  aprobadores: 'rolAprobadores',
};
/** Issue 47.2: the role whose holders approve (or reject) the start of a real alert. */
export const ROL_APROBADOR: Rol = 'aprobadores';
/** Issue 47.3: what a prepared message is for. 'correccion' and 'cancelacion' templates, once a
 * version is approved, send 'Enviar corrección' / 'Cancelar alerta' with no new approval. */
export const USOS_PLANTILLA = ['alerta', 'correccion', 'cancelacion'] as const;
/** One template use. */
export type UsoPlantilla = (typeof USOS_PLANTILLA)[number];
/** Catalogue label of each template use. */
export const ETIQUETA_USO_PLANTILLA: Readonly<Record<UsoPlantilla, ClaveMensaje>> = {
  alerta: 'columnaAlertaCap',
  correccion: 'usoPlantillaCorreccion',
  cancelacion: 'usoPlantillaCancelacion',
};
/** Issue 47.2: where an exercise's approval stands (null: none asked). 'expirada' is never stored
 * as such before someone reads it: a 'pendiente' past its expiry reads 'expirada'. 'emergencia':
 * one administrator started it without a second person (APROBACION_EMERGENCIA), with a reason. */
export const ESTADOS_APROBACION = [
  'pendiente',
  'aprobada',
  'rechazada',
  'expirada',
  'emergencia',
] as const;
/** One approval state. */
export type EstadoAprobacion = (typeof ESTADOS_APROBACION)[number];
/** Catalogue label of each approval state. */
export const ETIQUETA_APROBACION: Readonly<Record<EstadoAprobacion, ClaveMensaje>> = {
  pendiente: 'aprobacionEstadoPendiente',
  aprobada: 'aprobacionEstadoAprobada',
  rechazada: 'aprobacionEstadoRechazada',
  expirada: 'aprobacionEstadoExpirada',
  emergencia: 'aprobacionEstadoEmergencia',
};
/** Default minutes an approval request stays open (APROBACION_EXPIRA_MIN). */
export const APROBACION_EXPIRA_MIN_DEFECTO = 30;

// Device protocols: one record each in protocolos.ts (issue 44.3); the list, labels and start
// channels are read from it.
export { PROTOCOLOS, type Protocolo } from './protocolos.ts';
/** Catalogue label of each protocol (PROTOCOLO[p].etiqueta). */
export const ETIQUETA_PROTOCOLO: Readonly<Record<Protocolo, ClaveMensaje>> = porProtocolo(
  (d) => d.etiqueta,
);
/** Start channel each protocol serves (PROTOCOLO[p].canal). */
export const CANAL_DE_PROTOCOLO: Readonly<Record<Protocolo, Canal>> = porProtocolo((d) => d.canal);
/** Default dial-string template of call devices (ARCHITECTURE 3). */
export const MARCADO_DEFECTO = 'PJSIP/{telefono}@{troncal}';

/** Orders in which an exercise's recipients are sent (PUT /ejercicio/ordenar/). */
export const ORDENES = ['telefono', 'aleatorio', 'estado'] as const;
/** One recipient order. */
export type Orden = (typeof ORDENES)[number];
/** Catalogue label of each order. */
export const ETIQUETA_ORDEN: Readonly<Record<Orden, ClaveMensaje>> = {
  telefono: 'ordenTelefono',
  aleatorio: 'ordenAleatorio',
  estado: 'ordenEstado',
};

/**
 * Recipient states of ejercicio_detalle (ARCHITECTURE 5): pendiente → en_curso → one outcome.
 * 'incierto' marks a row that was in flight at a crash on a gateway without idempotency key:
 * reported, never silently resent.
 */
export const ESTATUS_DESTINATARIO = [
  'pendiente',
  'en_curso',
  'enviado',
  'entregado',
  'contestado',
  'respondido',
  'ocupado',
  'no_contesto',
  'fallido',
  'invalido',
  'cancelado',
  'incierto',
] as const;
/** One recipient state. */
export type EstatusDestinatario = (typeof ESTATUS_DESTINATARIO)[number];
/** Catalogue label of each recipient state. */
export const ETIQUETA_ESTATUS: Readonly<Record<EstatusDestinatario, ClaveMensaje>> = {
  pendiente: 'estatusPendiente',
  en_curso: 'estatusEnCurso',
  enviado: 'estatusEnviado',
  entregado: 'estatusEntregado',
  contestado: 'estatusContestado',
  respondido: 'estatusRespondido',
  ocupado: 'estatusOcupado',
  no_contesto: 'estatusNoContesto',
  fallido: 'estatusFallido',
  invalido: 'estatusInvalido',
  cancelado: 'estatusCancelado',
  incierto: 'estatusIncierto',
};
/** States that are no longer worked on (the exercise is completado when every row is final). */
export const ESTATUS_FINALES: readonly EstatusDestinatario[] = [
  'enviado',
  'entregado',
  'contestado',
  'respondido',
  'ocupado',
  'no_contesto',
  'fallido',
  'invalido',
  'cancelado',
  'incierto',
];

/** Semáforo green: the message or call reached the person. */
export const ESTATUS_VERDE: readonly EstatusDestinatario[] = [
  'enviado',
  'entregado',
  'contestado',
  'respondido',
];
/** Semáforo yellow: still to do, in flight, or uncertain after a crash. */
export const ESTATUS_AMARILLO: readonly EstatusDestinatario[] = [
  'pendiente',
  'en_curso',
  'incierto',
];
/** Semáforo red: did not reach the person. 'cancelado' is in no light but is reported apart. */
export const ESTATUS_ROJO: readonly EstatusDestinatario[] = [
  'ocupado',
  'no_contesto',
  'fallido',
  'invalido',
];

/** The three lights of the semáforo. */
export const LUCES_SEMAFORO = ['verde', 'amarillo', 'rojo'] as const;
/** One semáforo light. */
export type LuzSemaforo = (typeof LUCES_SEMAFORO)[number];
/** Catalogue label of each light. */
export const ETIQUETA_LUZ: Readonly<Record<LuzSemaforo, ClaveMensaje>> = {
  verde: 'luzVerde',
  amarillo: 'luzAmarillo',
  rojo: 'luzRojo',
};

/**
 * Thresholds of the overall light, as percentages of every recipient (cancelled ones included):
 * red from `rojo` % not reached for good (red or cancelled); yellow while anything is pending,
 * partly reached or cancelled, or from `amarillo` % of failures; green otherwise (rules/alcance.ts).
 */
export const UMBRALES_SEMAFORO = { rojo: 20, amarillo: 5 } as const;

/** Recipients per light, the input of `luzSemaforo` (rules/alcance.ts). */
export interface ConteoLuces {
  verde: number;
  amarillo: number;
  rojo: number;
}

/** The semáforo of one exercise, as GET /ejercicio/semaforo/{id}/ returns it (built by
 * `conteoSemaforo` in rules/alcance.ts). */
export interface Semaforo extends ConteoLuces {
  cancelado: number;
  /** Every recipient, cancelled ones included. */
  total: number;
  /** Share of every recipient (cancelled ones included) per light and cancelled, one decimal. */
  porcentajes: ConteoLuces & { cancelado: number };
  porEstatus: Record<EstatusDestinatario, number>;
  /** Recipients per outcome: the estatus, refined by how an answered call went (rules/alcance.ts). */
  porResultado: Record<string, number>;
  luz: LuzSemaforo;
}

/** Columns of the all-exercises spreadsheet (file 'ejercicios'), in order: header and field. */
export const COLUMNAS_EXPORTACION = [
  { titulo: MENSAJES.columnaAccion, campo: 'accion' },
  { titulo: MENSAJES.columnaDispositivo, campo: 'alias' },
  { titulo: MENSAJES.columnaEjercicio, campo: 'ejercicio' },
  { titulo: MENSAJES.columnaFechaInicio, campo: 'fecha_ini' },
  { titulo: MENSAJES.columnaHoraInicio, campo: 'hora_ini' },
  { titulo: MENSAJES.columnaSerial, campo: 'serial' },
  { titulo: MENSAJES.columnaTipoEjercicio, campo: 'tipo_ejercicio' },
  { titulo: MENSAJES.columnaUrl, campo: 'url' },
  { titulo: MENSAJES.columnaEstatus, campo: 'estatus' },
] as const;

/** Polls of SMS and WhatsApp exercises (issue 46.2): default hours a reply still counts for the
 * latest poll sent to its number and channel (a setting may change it). */
export const VENTANA_ENCUESTA_HORAS = 72;
/** The same default window in milliseconds, as `encuestaAbierta` takes it. */
export const VENTANA_ENCUESTA_MS = VENTANA_ENCUESTA_HORAS * 60 * 60 * 1000;
/** Fewest options a poll may offer. */
export const MIN_OPCIONES_ENCUESTA = 2;
/** Most options a poll may offer (one per keypad digit a person answers with). */
export const MAX_OPCIONES_ENCUESTA = 9;
/** What a reply to a poll is (rules/respuestas.ts): an option, an opt-out, an opt-in, or text
 * nobody could match, kept for an operator to classify by hand. */
export const TIPOS_RESPUESTA = ['opcion', 'baja', 'alta', 'no_reconocida'] as const;
/** One kind of reply. */
export type TipoRespuesta = (typeof TIPOS_RESPUESTA)[number];
/** Catalogue label of each kind of reply. */
export const ETIQUETA_TIPO_RESPUESTA: Readonly<Record<TipoRespuesta, ClaveMensaje>> = {
  opcion: 'respuestaTipoOpcion',
  baja: 'respuestaTipoBaja',
  alta: 'respuestaTipoAlta',
  no_reconocida: 'respuestaNoReconocida',
};
/** How a reply was matched to its option: the first four by `clasificarRespuesta`, 'manual' by an
 * operator who classified an unrecognised reply. */
export const COMOS_RESPUESTA = ['digito', 'texto', 'sinonimo', 'errata', 'manual'] as const;
/** One way a reply was matched. */
export type ComoRespuesta = (typeof COMOS_RESPUESTA)[number];
/** Catalogue label of each way a reply was matched. */
export const ETIQUETA_COMO_RESPUESTA: Readonly<Record<ComoRespuesta, ClaveMensaje>> = {
  digito: 'respuestaPorDigito',
  texto: 'respuestaPorTexto',
  sinonimo: 'respuestaPorSinonimo',
  errata: 'respuestaPorErrata',
  manual: 'respuestaManual',
};

/** GET /ejercicios/'s path (api/ejercicios.ts listarEjercicios): also here, where the web's first
 * screen reads it without loading the endpoint's schemas (app/router.tsx sends it early). */
export const RUTA_EJERCICIOS = '/ejercicios/';
