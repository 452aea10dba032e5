import { valorCredencial } from '@pregon/contract/rules/equipment';
import type { Alcance } from '@pregon/contract/rules/alcance';
import type { ConfigDespachador } from './config.ts';
import { descifrarCredenciales } from '@pregon/db/credenciales';

/** What a call needs of its exercise (types 2 and 4): the context to run, and for quizzes how
 * many questions make a recipient 'respondido'. */
export interface DatosLlamada {
  id_ejercicio: number;
  contexto: string;
  /** Questions of the quiz (0 for a call exercise). */
  preguntas: number;
  /** The call's absolute length in seconds (the dialplan's TIMEOUT(absolute)). */
  segundos: number;
  /** The device's dial-string template (`PJSIP/{telefono}@{troncal}` by default). */
  marcado: string | null;
  /** Instead of a context, an application to run on answer (the device test plays a prompt). */
  aplicacion?: string;
  datos?: string;
}

/** One message to send: the recipient row, the text, and the attempt it is. */
export interface Envio {
  id_detalle: number;
  telefono: string;
  texto: string;
  /** Attempt number of this send, 1 for the first. */
  intentos: number;
  /** The gateway id already bound to the row (the idempotency key of a retried Android send). */
  id_gateway: string | null;
  /** Set for calls and quizzes. */
  llamada?: DatosLlamada;
  /** SMS: minutes the network may try to deliver it (the exercise's vigencia); absent: the
   * gateway's default. */
  vigencia?: number;
  /** The exercise's port this send takes: puerto_ini…puerto_fin in turn (an Android phone with
   * several SIMs maps it to a SIM slot). */
  puerto?: number;
  /** Called by the channel right before the send leaves for the gateway (connected, window
   * taken; just before the submit_sm, the Originate or the HTTP request is written): the attempt
   * is counted then, and only then. It rejects when the row is no longer this dispatcher's: the
   * channel must not send, and answers 'reintentar' with `sinSalir`. A send that returns without
   * calling it counted no attempt. */
  salir?: () => Promise<void>;
}

/** How a call went, beside its outcome: ring and talk seconds and the hangup cause. */
export interface DetalleLlamada {
  timbrado?: number;
  duracion?: number;
  causa?: number;
}

/**
 * What a gateway did with one send. 'reintentar': certainly not sent (retry with backoff);
 * 'incierto': may have been sent (never resent); 'invalido': the number was refused;
 * 'fallido': a permanent error for this recipient. 'reintentar' with `pausar` (credentials
 * refused) keeps the row pending and pauses the exercise at once.
 */
export type ResultadoEnvio =
  | {
      tipo: 'aceptado';
      id_gateway: string;
      entregado?: boolean;
      /** A long SMS sent as several submits: every part's id, in order. Each part's receipt comes
       * with its own id; the store counts them (sms_partes). */
      partes?: readonly string[];
    }
  | ({
      tipo: 'reintentar' | 'invalido' | 'fallido' | 'incierto';
      motivo: string;
      id_gateway?: string;
      /** Parts of a long SMS the SMSC took before one failed (their receipts change nothing). */
      partes?: readonly string[];
      /** The device itself is unusable (credentials refused): pause the exercise now, keep the row. */
      pausar?: boolean;
      /** 'reintentar' for a request the gateway refused as built (a parameter, the device's
       * settings), not an outage: it counts toward the automatic pause but opens no circuit
       * breaker, so repeated ones pause the exercise within seconds. */
      configuracion?: boolean;
      /** 'reintentar': the gateway could not be reached (connection refused, no route, the link
       * down), nothing left: the row goes back untouched and the exercise waits for the gateway
       * ('En espera'), probing it, without spending anyone's attempts. */
      sinConexion?: boolean;
      /** 'reintentar' after `salir`: the gateway refused the send before taking it (an AMI
       * Originate answered 'Error', a session that could not be written): the attempt is undone. */
      sinSalir?: boolean;
    } & DetalleLlamada)
  | ({
      /** A call that ended: answered (contestado, respondido for a completed quiz), busy or not
       * answered (these two are called again per the call retry policy). */
      tipo: 'llamada';
      estatus: 'contestado' | 'respondido' | 'ocupado' | 'no_contesto';
      id_gateway: string;
      motivo?: string;
      /** An answered call: how it went (audio heard to its end, questions answered). */
      alcance?: Alcance;
      /** An answered quiz: its questions answered. */
      respondidas?: number;
    } & DetalleLlamada);

/** A call whose row is en_curso with nobody following it: the attempt, its exercise's call
 * data and the quiz questions already answered (stored digits). */
export interface LlamadaHuerfana {
  id_detalle: number;
  intentos: number;
  /** The gateway id bound to the row (idPrevio, written before dialling). */
  id_gateway: string | null;
  llamada: DatosLlamada;
  respondidas: readonly number[];
  /** When the call was answered (epoch ms), as the dispatcher that placed it recorded it. */
  contestada_en?: number | null;
}

/** One digit a quiz recipient pressed (UserEvent PregonDigito). */
export interface DigitoQuiz {
  id_ejercicio: number;
  id_detalle: number;
  numero: number;
  digito: number;
  fecha: number;
}

/** A delivery receipt (SMPP deliver_sm, Android state, WhatsApp status webhook). */
export interface Recibo {
  id_equipo: number;
  id_gateway: string;
  entregado: boolean;
  /** A WhatsApp 'read' status (issue 25.1): delivered and read (alcance 'leido'); a later
   * 'delivered' keeps the read. */
  leido?: boolean;
  motivo?: string;
  /** The recipient as the receipt names it (SMPP source_addr), when it does: a receipt whose id
   * no row has (lost with a dispatcher that died before writing it) finds its row by it. */
  telefono?: string;
}

/** A reply a gateway delivered (issue 46: an SMPP mobile-originated deliver_sm), or one part of
 * a long one, for the store to keep once. */
export interface RespuestaEntrante {
  id_equipo: number;
  /** The device's protocol ('smpp'). */
  canal: string;
  /** The sender as the gateway gave it, and as the phone directory writes it (null: not a phone). */
  remitente: string;
  telefono: string | null;
  /** The decoded text (a part's own when `parte`), its coding, and a note when unreadable. */
  texto: string;
  codificacion: string;
  nota?: string;
  /** The octets as received, in hexadecimal. */
  texto_crudo: string;
  /** The gateway's id and time (epoch ms) when it gives them. */
  id_gateway?: string | null;
  fecha_gateway?: number | null;
  /** One part of a long reply: the store joins the set (content as hex, ready to join) once every
   * part is in. */
  parte?: { ref: number; total: number; seq: number; data_coding: number; contenido: string };
}

/** How long a sent message's receipt may still come (SMSCs keep a message up to 48-72 h): the
 * SMPP channel's id index and the bind at start for held receipts both use it. */
export const ESPERA_RECIBOS_MS = 72 * 3_600_000;

/** The reason a long SMS failed, naming the part: 'SMPP 0x45 (parte 3 de 5)'. */
export const motivoParte = (motivo: string | undefined, p: { parte: number; total: number }) =>
  `${motivo ?? 'no entregado'} (parte ${p.parte} de ${p.total})`;

/** A sending backend for one device; registered by the device's protocolo. */
export interface Canal {
  /** Sends one message; never throws, every failure is a ResultadoEnvio. */
  enviar(envio: Envio): Promise<ResultadoEnvio>;
  /** How many sends the gateway takes at once, for channels that keep a window (SMPP: submit_sm
   * outstanding); a send beyond it waits inside the channel for a place. The dispatcher keeps
   * its device's sends in flight within two windows. */
  readonly ventana?: number;
  /** Cancels messages still queued at the gateway (an exercise paused or stopped), where the
   * protocol allows it. Returns, for each message it cancelled (it will never go out), the id a
   * later send of that recipient must use (the gateway refuses an id it already knows); messages
   * already gone out are left alone and followed as usual. Never throws. */
  cancelar?(ids: readonly string[]): Promise<Map<string, string>>;
  /** Room left in the gateway's own queue, for gateways that keep one (Android: messages the
   * phone has not yet taken): the worker claims no more rows than this and waits while it is 0,
   * so sends are paced by what the gateway has actually worked off. Never throws. */
  hueco?(): Promise<number>;
  /** Follows again messages sent earlier (rows 'enviado' without a receipt, e.g. after a
   * restart) until their final state, for gateways whose states are read back. */
  retomar?(ids: readonly string[]): void;
  /** The gateway id a send will use, when the dispatcher must write it on the row before the
   * send goes out (calls: a row left in flight without it was never dialled). */
  idPrevio?(envio: Pick<Envio, 'id_detalle' | 'intentos'>): string;
  /** Hangs up every live call of a stopped exercise; returns how many. */
  colgarEjercicio?(id_ejercicio: number): Promise<number>;
  /** Calls left in flight by a dispatcher that died (or whose lease ended): asks the gateway
   * which are still live. A live one is followed until it ends (its promise gives the outcome),
   * one this channel already follows is 'propia', one never dialled (its row not bound to this
   * attempt's id) is 'no_marcada', one absent from the answer ended unseen. Throws when the
   * gateway cannot be asked. */
  reconciliar?(
    llamadas: readonly LlamadaHuerfana[],
  ): Promise<Map<number, Promise<ResultadoEnvio> | 'propia' | 'no_marcada'>>;
  /** Connects without sending, so the gateway delivers receipts it held for this device (SMPP
   * SMSCs store them while no session is bound). `ids` are the submit ids still awaiting a
   * receipt (sent before this dispatcher started), known first so a receipt quoting one in
   * another form still finds it. Never throws. */
  escuchar?(ids?: readonly string[]): Promise<void>;
  /** Whether the gateway can be reached now (SMPP: connect and bind; AMI: connect and log in):
   * null when it can, else the reason. Used while an exercise waits for its gateway; without it
   * the dispatcher asks as the pre-start check does (TCP connect or an HTTP request). */
  probar?(): Promise<string | null>;
  /** Since when the gateway's link is down (it was up and dropped, not closed by us), or
   * undefined while it is up: the exercise waits for it even when no send is under way (calls
   * holding every port). */
  caidoDesde?(): number | undefined;
  /** Closes connections and timers. */
  cerrar(): Promise<void>;
}

/** The device fields a channel needs; credenciales already parsed from JSON. */
export interface EquipoCanal {
  id_equipo: number;
  alias: string;
  url: string;
  protocolo: string;
  credenciales: Record<string, unknown>;
}

/** What a channel factory receives. */
export interface OpcionesCanal {
  equipo: EquipoCanal;
  config: ConfigDespachador;
  /** This database's installation id (ajustes 'instalacion'): part of the message ids a gateway
   * keeps (Android), so two databases on one gateway never share one. */
  instalacion?: string;
  /** Called for every delivery receipt the gateway reports. From the dispatcher it returns a
   * promise that resolves once the receipt is durable (applied to its row, folded into an
   * outcome that was written, or stored to wait for its row: issue 48.6): a channel whose
   * gateway re-delivers unanswered receipts (SMPP) answers only then, so one that dies with the
   * process comes again. */
  alRecibo: (r: Recibo) => void | Promise<void>;
  /** Called for every reply (or part of one) the gateway delivers; resolves once it is stored.
   * The channel acknowledges the reply to the gateway only then (a rejection: a temporary error,
   * so the gateway delivers it again). Without it, replies are logged as before. */
  alRespuesta?: (r: RespuestaEntrante) => Promise<void>;
  /** Called for a receipt the channel cannot apply (no id, not a receipt): logged and counted. */
  alReciboSinDestino?: (detalle: string) => void;
  /** Called for every quiz digit a call reports. */
  alDigito?: (d: DigitoQuiz) => void;
  /** Called when a call is answered (epoch ms, Asterisk's own time when its events carry one). */
  alContestar?: (id_detalle: number, en: number) => void;
}

/** A registered protocol: how to build its channel and whether a resend after a crash is safe. */
export interface RegistroCanal {
  crear(o: OpcionesCanal): Canal;
  /** True when the gateway takes a client idempotency key: in-flight rows at a crash are resent. */
  idempotente: boolean;
  /** True when the channel asks the gateway about rows left in flight (Canal.reconciliar)
   * instead of the generic lease recovery. */
  reconcilia?: boolean;
  /** True when a bind without sends brings receipts the gateway held (Canal.escuchar). */
  escucha?: boolean;
  /** True when messages queued at the gateway can be taken back (Canal.cancelar) and sent ones
   * are followed by reading their state back (Canal.retomar). */
  cancela?: boolean;
}

const registro = new Map<string, RegistroCanal>();

/** Registers the channel of a protocol (called once per adapter module). */
export function registrarCanal(protocolo: string, r: RegistroCanal): void {
  registro.set(protocolo, r);
}

/** The registered channel of a protocol, or undefined. */
export function canalDe(protocolo: string): RegistroCanal | undefined {
  return registro.get(protocolo);
}

/** Every protocol a channel is registered under (issue 44: checked against the contract's list). */
export function protocolosRegistrados(): string[] {
  return [...registro.keys()];
}

/** Protocols whose in-flight rows are resent after a crash. */
export function protocolosIdempotentes(): string[] {
  return [...registro].filter(([, r]) => r.idempotente).map(([p]) => p);
}

/** Protocols whose channel connects at start to take the receipts held for it. */
export function protocolosQueEscuchan(): string[] {
  return [...registro].filter(([, r]) => r.escucha).map(([p]) => p);
}

/** Protocols whose gateway queue can be taken back at a pause or stop. */
export function protocolosQueCancelan(): string[] {
  return [...registro].filter(([, r]) => r.cancela).map(([p]) => p);
}

/** Protocols whose rows left in flight are reconciled by their channel. */
export function protocolosReconciliables(): string[] {
  return [...registro].filter(([, r]) => r.reconcilia).map(([p]) => p);
}

/** Reads a device's stored credentials (encrypted, or plain JSON written before issue 49.4): the
 * one reader every channel, check and route uses. An unreadable text yields {} so the adapter
 * reports what is missing. */
export const leerCredenciales = descifrarCredenciales;

/** A credential as text ('' when absent), looked up under the protocol's section or at top level
 * (the contract's rule, which the device form and the api's device check read too). */
export const credencial = valorCredencial;

/** The error text of a failed request, with the socket cause when there is one. */
export function textoError(err: unknown): string {
  const e = err as {
    name?: string;
    message?: string;
    code?: string;
    cause?: { code?: string; message?: string };
  };
  if (e?.name === 'TimeoutError' || e?.code === 'ETIMEDOUT') return 'tiempo de espera agotado';
  return e?.code ?? e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}

/** True when a request failed before the request could reach the gateway (safe to retry). */
export function noLlego(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EHOSTUNREACH' ||
    code === 'ENETUNREACH'
  );
}
