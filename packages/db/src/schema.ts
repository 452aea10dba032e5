import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Table shapes for Kysely. Times are epoch milliseconds (numbers) so that SQLite and
// PostgreSQL behave alike; flags are 0/1 integers, rendered as '0'/'1' strings on the wire.

/** Issue 48.3 (migration 0054): a record an operator edits in a form; version is checked and
 * incremented by the form's save (repositories/versiones.ts), modificado_por (the user's login)
 * and modificado_en (epoch ms) name the last such save. */
export interface Versionada {
  version: Generated<number>;
  modificado_por: string | null;
  modificado_en: number | null;
}

/** usuarios: staff accounts; roles is a comma-separated list of role names. */
export interface UsuariosTable extends Versionada {
  id_usuario: Generated<number>;
  usuario: string;
  nombre: string;
  correo: string | null;
  password_hash: string;
  roles: string;
  activo: Generated<number>;
  creado: number;
}

/** paises: countries. */
export interface PaisesTable extends Versionada {
  id_pais: Generated<number>;
  pais: string;
  codigo_iso: string;
  prefijo: string;
  /** The name folded for uniqueness and search (contract claveNombre). */
  clave: string;
}

/** estados: states of a country. */
export interface EstadosTable {
  id_estado: Generated<number>;
  estado: string;
  id_pais: number;
  /** The name folded for uniqueness within the country and for search (contract claveNombre). */
  clave: string;
  /** IANA time zone overriding the contract's table for calling windows (issue 24.4). */
  zona_horaria: string | null;
}

/** categorias: phone categories used to choose recipients. */
export interface CategoriasTable {
  id_categoria: Generated<number>;
  categoria: string;
  /** The name folded for uniqueness and search (contract claveNombre). */
  clave: string;
}

/** tipos_ejercicio: the four exercise types and their list labels. */
export interface TiposEjercicioTable {
  id_tipo_ejercicio: number;
  tipo_ejercicio: string;
}

/** equipos: sending devices (gateways, PBX); credenciales is JSON and never returned. */
export interface EquiposTable extends Versionada {
  id_equipo: Generated<number>;
  alias: string;
  serial: string;
  url: string;
  protocolo: string;
  puertos: Generated<number>;
  tasa: Generated<number>;
  credenciales: string | null;
  descripcion: string | null;
  activo: Generated<number>;
  ultimo_contacto: number | null;
  marcado: string | null;
}

/** telefonos: the phone directory; telefono is the canonical number and unique. */
export interface TelefonosTable extends Versionada {
  id_telefono: Generated<number>;
  telefono: string;
  nombre: string | null;
  /** The name folded for search (contract plegar), kept by every write of nombre. */
  nombre_busqueda: string | null;
  id_estado: number | null;
  creado: number;
}

/** telefono_categoria: phone–category links. */
export interface TelefonoCategoriaTable {
  id_telefono: number;
  id_categoria: number;
}

/** ejercicios: drills; flags completado/en_proceso/en_pausa are 0/1. */
export interface EjerciciosTable extends Versionada {
  id_ejercicio: Generated<number>;
  titulo: string;
  id_tipo_ejercicio: number;
  fecha_ini: string;
  hora_ini: string;
  id_equipo: number;
  tiempo: number | null;
  /** Calls: more attempts for a busy or unanswered recipient (null: the dispatcher's default). */
  reintentos: number | null;
  /** SMS: minutes each message may wait for delivery (null: the gateway's default). */
  vigencia: number | null;
  /** Calls: minutes before each new attempt (null: the dispatcher's default). */
  espera_reintento: number | null;
  /** Issue 45.5: seconds it waits for a device that does not answer before pausing itself (0:
   * without limit; null: the dispatcher's DESPACHO_PAUSA_SIN_CONEXION_MS). */
  espera_equipo_s: number | null;
  numero_puertos: number;
  puerto_ini: number;
  puerto_fin: number;
  accion: string;
  id_estado: number;
  categorias: string;
  orden: Generated<string>;
  completado: Generated<number>;
  en_proceso: Generated<number>;
  en_pausa: Generated<number>;
  /** 1 when an operator stopped it (completado is 1 too); 0 when it finished or is running. */
  detenido: Generated<number>;
  /** Recipients generated (POST /ejercicio/generar/). */
  destinatarios: Generated<number>;
  motivo_pausa: string | null;
  /** Set by the dispatcher while the device's gateway cannot be reached: 'En espera: sin conexión
   * con {equipo} desde {hora}'; null otherwise. */
  en_espera: string | null;
  creado_por: number | null;
  creado: number;
  iniciado: number | null;
  terminado: number | null;
  /** 1 while it is to start by itself at inicio_programado (issue 24.3). */
  inicio_automatico: Generated<number>;
  /** Its fecha_ini + hora_ini in the product's time zone, epoch ms; null when never scheduled. */
  inicio_programado: number | null;
  programado_por: number | null;
  /** What the scheduled start did or what the pre-flight found; null when nothing to say. */
  inicio_nota: string | null;
  /** 'Horario permitido' (issue 24.4): 'HH:mm' local start and end, both or none. */
  ventana_inicio: string | null;
  ventana_fin: string | null;
  /** When the pre-flight checks last ran (epoch ms). */
  comprobado_en: number | null;
  /** Issue 24.5: every state it aims at, as '7,15,…'; null = just id_estado. */
  estados: string | null;
  /** Issue 26.1: 1 when archived (listed only under 'Archivados'; never starts). */
  archivado: Generated<number>;
  /** Issue 25.1: the drill this one follows up ('Reenviar a no alcanzados'); null otherwise. */
  origen_id: number | null;
  /** Issue 47.4, migration 0072: 'cap' when a CAP alert created it (it needs approval whatever
   * its mode); null when created in Pregón. */
  procedencia: string | null;
  /** Issue 25.2: set on the hidden companion of a call or quiz drill that holds its SMS fallback
   * (device, text, and one row per recipient the drill did not reach): the drill's id. */
  respaldo_de: Generated<number | null>;
  /** Issue 46.4: 1 when an administrator marked it a real emergency alert, sent to opted-out
   * phones too; the reason, who and when (epoch ms). */
  ignora_bajas: Generated<number>;
  ignora_bajas_motivo: Generated<string | null>;
  ignora_bajas_usuario: Generated<string | null>;
  ignora_bajas_fecha: Generated<number | null>;
  /** Issue 47.1, migration 0044: 'simulacro', 'prueba' or 'real' (ignora_bajas = 1 exactly for
   * 'real'). */
  modo: Generated<string>;
  /** Issue 47.2, migration 0063: the approval request ('pendiente', 'aprobada', 'rechazada',
   * 'expirada'; null: none), who asked (name and user id, null id for an API key), when, until
   * when it stands, who resolved it, when, and a rejection's reason (epoch ms). */
  aprobacion: Generated<string | null>;
  aprobacion_solicitante: Generated<string | null>;
  aprobacion_solicitante_id: Generated<number | null>;
  aprobacion_solicitada: Generated<number | null>;
  aprobacion_expira: Generated<number | null>;
  aprobacion_resuelve: Generated<string | null>;
  aprobacion_resuelta: Generated<number | null>;
  aprobacion_motivo: Generated<string | null>;
  /** Issue 46.2, migration 0041: a poll's reminders (minutes after the previous link finished,
   * at most recordatorios_max; recordatorios_hechos made so far), and on a reminder the poll
   * exercise it re-asks and its number. */
  recordatorio_minutos: Generated<number | null>;
  recordatorios_max: Generated<number>;
  recordatorios_hechos: Generated<number>;
  recordatorio_de: Generated<number | null>;
  recordatorio_n: Generated<number | null>;
}

/** ejercicio_detalle: one row per recipient; the dispatcher's queue and the report. */
export interface EjercicioDetalleTable {
  id_detalle: Generated<number>;
  id_ejercicio: number;
  id_telefono: number | null;
  telefono: string;
  nombre: string | null;
  id_estado: number | null;
  posicion: number;
  estatus: Generated<string>;
  intentos: Generated<number>;
  fecha_envio: string | null;
  hora_envio: string | null;
  recibida: Generated<number>;
  id_gateway: string | null;
  motivo: string | null;
  duracion: number | null;
  /** Calls: seconds the phone rang, and the hangup cause (Q.850). */
  timbrado: number | null;
  causa: number | null;
  /** An answered call: how it went (rules/alcance.ts ALCANCES); quizzes: questions answered. */
  alcance: string | null;
  respondidas: number | null;
  lease_hasta: number | null;
  siguiente_intento: number | null;
  actualizado: number | null;
  /** A long SMS: parts whose receipt said delivered (sms_partes). */
  partes_entregadas: Generated<number>;
  /** 1 once the current attempt left for the gateway (intentos counts it); 0 while it is only
   * claimed. */
  salio: Generated<number>;
  /** Calls: epoch ms the call was answered (kept for a call followed again after a restart). */
  contestada_en: number | null;
  /** Issue 25.2: a fallback row (in the drill's companion exercise) names the drill's row whose
   * recipient it stands for; null on every other row. */
  respaldo_de: Generated<number | null>;
  /** Generated from estatus (migration 0031, db/cola.ts): 0 while pendiente or en_curso, else
   * null. The queue's partial index names it on PostgreSQL. Never written. */
  cola: Generated<number | null>;
}

/** sms_partes: the SMSC ids of a long SMS's parts, so their receipts find the row (issue 15). */
export interface SmsPartesTable {
  id_equipo: number;
  id_parte: string;
  id_detalle: number;
  /** 1-based part number, and the parts of the message. */
  parte: number;
  total: number;
  /** null until its receipt; then 'entregado' or 'fallido'. */
  estado: string | null;
}

/** recibos_en_espera: receipts that found no row yet, kept until one does (issue 48.6, 0070). */
export interface RecibosEnEsperaTable {
  id_recibo: Generated<number>;
  id_equipo: number;
  id_gateway: string;
  /** 1 delivered, 0 not. */
  entregado: number;
  motivo: string | null;
  /** The recipient as the gateway names it (SMPP source_addr), when the receipt says. */
  telefono: string | null;
  recibido: number;
}

/** cuestionarios: one questionnaire per exercise (versioned since 0068, issue 48.3). */
export interface CuestionariosTable extends Versionada {
  id_cuestionario: Generated<number>;
  id_ejercicio: number;
  creado: number;
}

/** preguntas: the questions of a questionnaire, numero 1..40 (slot number). */
export interface PreguntasTable {
  id_pregunta: Generated<number>;
  id_cuestionario: number;
  numero: number;
  reactivo: string;
  archivo: string;
}

/** respuestas: allowed answers of a question, each with a unique digit 1..9. */
export interface RespuestasTable {
  id_respuesta: Generated<number>;
  id_pregunta: number;
  respuesta: string;
  digito: number;
}

/** quiz_respuestas: the digit each recipient pressed for each question. */
export interface QuizRespuestasTable {
  id_quiz_respuesta: Generated<number>;
  id_ejercicio: number;
  id_detalle: number;
  numero: number;
  digito: number;
  fecha: number;
}

/** respuestas_recibidas (issue 46, migration 0034): every reply a gateway delivered, stored once
 * (clave unique); id_ejercicio null while it is in the inbox. Times are epoch ms. */
export interface RespuestasRecibidasTable {
  id_respuesta: Generated<number>;
  id_equipo: number;
  canal: string;
  remitente: string;
  telefono: string | null;
  id_telefono: number | null;
  texto: string;
  /** The raw octets as the gateway sent them, in hexadecimal. */
  texto_crudo: string;
  codificacion: string;
  nota: string | null;
  id_gateway: string | null;
  fecha_gateway: number | null;
  fecha_recibida: number;
  clave: string;
  partes: Generated<number>;
  incompleta: Generated<number>;
  id_ejercicio: number | null;
  id_detalle: number | null;
  clasificacion: string | null;
}

/** respuestas_partes: parts of a long SMS reply until the set is joined (unida 1 after). */
export interface RespuestasPartesTable {
  id_equipo: number;
  remitente: string;
  referencia: number;
  total: number;
  parte: number;
  canal: string;
  telefono: string | null;
  data_coding: number;
  /** Content ready to join (GSM-7 one septet per octet), and the raw octets, in hexadecimal. */
  contenido: string;
  crudo: string;
  recibida: number;
  unida: Generated<number>;
}

/** bajas (issue 46.4, migration 0038): a phone that opted out of a channel's drills ('sms' |
 * 'whatsapp'); origen 'respuesta' | 'importacion' | 'operador'. Times are epoch ms. */
export interface BajasTable {
  id_baja: Generated<number>;
  canal: string;
  telefono: string;
  id_telefono: number | null;
  origen: string;
  id_respuesta: number | null;
  texto: string | null;
  id_usuario: number | null;
  usuario: string | null;
  fecha: number;
  confirmada_en: number | null;
}

/** mensajes_sueltos (issue 46.2/46.4, migration 0040): a one-off message back to a phone
 * ('acuse' of a poll's option, 'baja'/'alta' confirmation), sent by despacho/sueltos.ts through
 * the device the reply came in on; estado 'pendiente' | 'en_curso' | 'enviado' | 'entregado' |
 * 'fallido' | 'invalido' | 'incierto'. Times are epoch ms. */
export interface MensajesSueltosTable {
  id_suelto: Generated<number>;
  id_equipo: number;
  canal: string;
  telefono: string;
  texto: string;
  partes: Generated<number>;
  motivo: string;
  id_respuesta: number | null;
  id_ejercicio: number | null;
  id_detalle: number | null;
  estado: Generated<string>;
  intentos: Generated<number>;
  salio: Generated<number>;
  lease_hasta: number | null;
  siguiente_intento: number | null;
  vence: number | null;
  id_gateway: string | null;
  creado: number;
  enviado: number | null;
  actualizado: number | null;
  error: string | null;
}

/** mensajes_sueltos_partes (migration 0040): each part id a gateway gave a one-off message. */
export interface MensajesSueltosPartesTable {
  id_equipo: number;
  id_parte: string;
  id_suelto: number;
  parte: number;
  total: number;
  estado: string | null;
}

/** webhooks_android (issue 46.1, migration 0039): an Android device's 'sms:received' webhook as
 * Pregón registered it on the phone; clave is the signing key, encrypted (db/credenciales.ts). */
export interface WebhooksAndroidTable {
  id_equipo: number;
  clave: string;
  url: string;
  registrado: number | null;
  error: string | null;
  intentado: number;
  /** Migration 0050: the id the gateway gave the webhook, and the url and credentials (encrypted)
   * it was registered with; null until a registration succeeds. */
  id_webhook: string | null;
  gateway: string | null;
  acceso: string | null;
}

/** ventanas_whatsapp (issue 46.1, migration 0039): the 24-hour window a user's WhatsApp message
 * opens, per device and phone; times are epoch ms. */
export interface VentanasWhatsappTable {
  id_equipo: number;
  telefono: string;
  ultima: number;
  abierta_hasta: number;
}

/** encuestas_ejercicio (issue 46.2, migration 0037): the poll of an SMS or WhatsApp exercise;
 * opciones is the options' JSON, pregunta the question as the operator wrote it. */
export interface EncuestasEjercicioTable {
  id_ejercicio: number;
  opciones: string;
  anexar_opciones: Generated<number>;
  pregunta: string;
  creado: number;
}

/** casos (issue 46.3, migration 0037): a person who chose an option requiring attention; estado
 * 'abierto' | 'atendiendo' | 'atendido'. Times are epoch ms. */
export interface CasosTable {
  id_caso: Generated<number>;
  id_ejercicio: number;
  id_detalle: number;
  id_respuesta: number | null;
  digito: number;
  estado: Generated<string>;
  abierto: number;
  tomado_por: number | null;
  tomado_usuario: string | null;
  tomado: number | null;
  nota: string | null;
  cerrado_por: number | null;
  cerrado_usuario: string | null;
  cerrado: number | null;
}

/** importaciones: bulk phone import jobs and their progress. */
export interface ImportacionesTable {
  id_importacion: Generated<number>;
  archivo: string;
  estatus: string;
  procesadas: Generated<number>;
  insertadas: Generated<number>;
  duplicadas: Generated<number>;
  con_error: Generated<number>;
  errores: string | null;
  mensaje: string | null;
  creado_por: number | null;
  creado: number;
  terminado: number | null;
  /** When the job last wrote a batch (epoch ms). */
  actualizado: number | null;
  /** Issue 25.5: how it handled phones that existed (null: 'omitir', jobs before it). */
  modo_duplicados: string | null;
  /** Its duplicate rows as JSON (ErrorImportacion[]), the first MAX_ERRORES_IMPORTACION. */
  filas_duplicadas: string | null;
}

/** auditoria: who did what and when. */
export interface AuditoriaTable {
  id_auditoria: Generated<number>;
  id_usuario: number | null;
  usuario: string | null;
  accion: string;
  entidad: string;
  id_entidad: string | null;
  detalle: string | null;
  fecha: number;
}

/** The whole database, as Kysely sees it. */
export interface DB {
  usuarios: UsuariosTable;
  paises: PaisesTable;
  estados: EstadosTable;
  categorias: CategoriasTable;
  tipos_ejercicio: TiposEjercicioTable;
  equipos: EquiposTable;
  telefonos: TelefonosTable;
  telefono_categoria: TelefonoCategoriaTable;
  ejercicios: EjerciciosTable;
  ejercicio_detalle: EjercicioDetalleTable;
  sms_partes: SmsPartesTable;
  recibos_en_espera: RecibosEnEsperaTable;
  cuestionarios: CuestionariosTable;
  preguntas: PreguntasTable;
  respuestas: RespuestasTable;
  quiz_respuestas: QuizRespuestasTable;
  respuestas_recibidas: RespuestasRecibidasTable;
  respuestas_partes: RespuestasPartesTable;
  encuestas_ejercicio: EncuestasEjercicioTable;
  casos: CasosTable;
  bajas: BajasTable;
  webhooks_android: WebhooksAndroidTable;
  ventanas_whatsapp: VentanasWhatsappTable;
  mensajes_sueltos: MensajesSueltosTable;
  mensajes_sueltos_partes: MensajesSueltosPartesTable;
  importaciones: ImportacionesTable;
  auditoria: AuditoriaTable;
  ingreso_fallos: IngresoFallosTable;
  ajustes: AjustesTable;
  sesiones: SesionesTable;
  tickets_vivo_usados: TicketsVivoUsadosTable;
  audios_ejercicio: AudiosEjercicioTable;
  claves_api: ClavesApiTable;
  webhooks: WebhooksTable;
  webhook_entregas: WebhookEntregasTable;
  alertas_cap: AlertasCapTable;
  fuentes_cap: FuentesCapTable;
  fuentes_cap_registro: FuentesCapRegistroTable;
  peligros: PeligrosTable;
  plantillas_mensaje: PlantillasMensajeTable;
  plantillas_mensaje_versiones: PlantillasMensajeVersionesTable;
}

/** Issue 47.4, migration 0047: API keys (hash: SHA-256 hex of the whole key; alcances
 * comma-separated). */
export interface ClavesApiTable {
  id_clave: Generated<number>;
  nombre: string;
  id_publico: string;
  hash: string;
  alcances: string;
  creada: number;
  creada_por: string | null;
  ultimo_uso: number | null;
  revocada: number | null;
}

/** Issue 47.4: outgoing webhook subscriptions (eventos comma-separated). */
export interface WebhooksTable {
  id_webhook: Generated<number>;
  url: string;
  eventos: string;
  secreto: string;
  activo: Generated<number>;
  creado: number;
  creado_por: string | null;
}

/** Issue 47.4, migration 0062: CAP 1.2 alerts received, by their identity (remitente,
 * identificador) and the exercise each created, updated or stopped. */
export interface AlertasCapTable {
  id_alerta_cap: Generated<number>;
  remitente: string;
  identificador: string;
  enviado: string;
  estado_cap: string;
  tipo_mensaje: string;
  id_ejercicio: number | null;
  recibido: number;
  recibido_por: string | null;
}

/** Issue 47.4, migration 0069: subscribed CAP feeds, their rule and their polling state. */
export interface FuentesCapTable {
  id_fuente: Generated<number>;
  nombre: string;
  url: string;
  intervalo_min: number;
  activo: Generated<number>;
  /** Comma-separated words (empty: any event). */
  eventos: Generated<string>;
  severidad_minima: string | null;
  /** Comma-separated state ids (empty: any state). */
  estados: Generated<string>;
  id_equipo: number | null;
  creado: number;
  creado_por: string | null;
  proxima_consulta: number;
  lease_hasta: number | null;
  ultima_consulta: number | null;
  ultimo_error: string | null;
}

/** Issue 47.4, migration 0069: what a feed did with each alert it brought. */
export interface FuentesCapRegistroTable {
  id_registro: Generated<number>;
  id_fuente: number;
  remitente: string;
  identificador: string;
  enviado: string;
  tipo_mensaje: string;
  evento: string | null;
  enlace: string | null;
  resultado: string;
  mensaje: string;
  id_ejercicio: number | null;
  visto: number;
}

/** Issue 47.4: the webhooks' durable queue and delivery log. */
export interface WebhookEntregasTable {
  id_entrega: Generated<number>;
  id_webhook: number;
  evento: string;
  cuerpo: string;
  estado: Generated<'pendiente' | 'entregado' | 'fallido'>;
  intentos: Generated<number>;
  creada: number;
  siguiente_intento: number | null;
  lease_hasta: number | null;
  ultimo_intento: number | null;
  estado_http: number | null;
  respuesta: string | null;
  duracion_ms: number | null;
  error: string | null;
}

/** audios_ejercicio: the audio an exercise plays, fixed at its start (pregunta 0 = a call's audio,
 * N = quiz question N): stored name, SHA-256 (hex) and seconds, as the telephony agent answered. */
export interface AudiosEjercicioTable {
  id_ejercicio: number;
  pregunta: number;
  nombre: string;
  sha256: string;
  duracion_s: number;
  registrado: number;
}

/** tickets_vivo_usados: live-stream tickets already used (jti), kept until they expire (epoch ms). */
export interface TicketsVivoUsadosTable {
  jti: string;
  expira: number;
}

/** sesiones: the open sessions; id_sesion is the token's jti, expira its end (epoch ms). */
export interface SesionesTable {
  id_sesion: string;
  id_usuario: number;
  creada: number;
  expira: number;
}

/** ajustes: settings kept once per database ('instalacion': this database's random id). */
export interface AjustesTable {
  clave: string;
  valor: string;
}

/** ingreso_fallos: failed sign-ins per throttling key; bloqueado_hasta is when the key may try again. */
export interface IngresoFallosTable {
  clave: string;
  usuario: string | null;
  fallos: number;
  ultimo: number;
  bloqueado_hasta: Generated<number>;
}

/** A user row as read. */
export type Usuario = Selectable<UsuariosTable>;
/** A new user row. */
export type NuevoUsuario = Insertable<UsuariosTable>;
/** An exercise row as read. */
export type Ejercicio = Selectable<EjerciciosTable>;
/** A change to an exercise row. */
export type CambioEjercicio = Updateable<EjerciciosTable>;
/** A recipient row as read. */
export type Detalle = Selectable<EjercicioDetalleTable>;
/** A device row as read. */
export type Equipo = Selectable<EquiposTable>;

/** Issue 47.3: hazards of the prepared messages. */
export interface PeligrosTable {
  id_peligro: Generated<number>;
  nombre: string;
}

/** Issue 47.3: a prepared message (its contents live in its versions). */
export interface PlantillasMensajeTable {
  id_plantilla: Generated<number>;
  nombre: string;
  id_peligro: number;
  creada: number;
  creada_por: string | null;
  /** Migration 0066: 'alerta', 'correccion' or 'cancelacion'. */
  uso: Generated<string>;
}

/** Issue 47.3: one saved version of a prepared message (whatsapp_parametros: JSON array). */
export interface PlantillasMensajeVersionesTable {
  id_version: Generated<number>;
  id_plantilla: number;
  version: number;
  texto_sms: string;
  whatsapp_plantilla: string;
  whatsapp_idioma: string;
  whatsapp_parametros: string;
  audio: string;
  id_cuestionario: number | null;
  creada: number;
  creada_por: string | null;
  aprobada: number | null;
  aprobada_por: string | null;
}
