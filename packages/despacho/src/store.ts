import type { EstatusDestinatario } from '@pregon/contract/constants';
import type { DigitoQuiz, Recibo, RespuestaEntrante } from './canal.ts';
import type { ResultadoRespuesta } from './store-respuestas.ts';
import type { ReciboEnEspera } from './store-recibos.ts';
import type { StoreSueltos } from './store-sueltos.ts';

/** An exercise the dispatcher may work on (completado 0, en_proceso 1, en_pausa 0), with its device. */
export interface EjercicioActivo {
  id_ejercicio: number;
  id_equipo: number;
  accion: string;
  /** The exercise's ports (puerto_fin − puerto_ini + 1): most rows in flight at once. The
   * dispatcher lowers it to the exercise's share when the running exercises of one device ask for
   * more ports than the device has (repartirPuertos). */
  puertos: number;
  /** Its device's ports: the most its running exercises have in flight together. */
  puertos_equipo: number;
  alias: string;
  url: string;
  protocolo: string;
  /** Sends per second per port. */
  tasa: number;
  credenciales: string | null;
  id_tipo_ejercicio: number;
  tiempo: number | null;
  /** Calls: extra attempts for busy/unanswered and minutes before each (null: configuration). */
  reintentos: number | null;
  espera_reintento: number | null;
  /** Issue 45.5: seconds to wait for the device before pausing (0: no limit; null: config). */
  espera_equipo_s: number | null;
  /** SMS: minutes each message may wait for delivery (null: the gateway's default). */
  vigencia: number | null;
  /** The device's dial-string template (asterisk devices). */
  marcado: string | null;
  /** Questions of the exercise's questionnaire (0 when none). */
  preguntas: number;
  /** The exercise's first port (puerto_ini): its sends take ports puerto_ini… in turn (an
   * Android phone with several SIMs maps them to SIM slots). */
  puerto_ini: number;
  /** 'Horario permitido' (issue 24.4): 'HH:mm' in each recipient's local time; null when none. */
  ventana_inicio: string | null;
  ventana_fin: string | null;
  /** Issue 25.2: a drill's fallback companion (its SMS to whoever the drill did not reach), when
   * it has one; on the companion itself, the drill it belongs to. */
  respaldo: number | null;
  respaldo_de: number | null;
}

/** A recipient row claimed for sending ('en_curso'). `intentos` is the attempt this send will be
 * (the row's count + 1): the row counts it only when the send leaves (Store.anunciar). */
export interface FilaReclamada {
  id_detalle: number;
  id_ejercicio: number;
  telefono: string;
  intentos: number;
  id_gateway: string | null;
  /** The lease the claim wrote: proof the row is still this dispatcher's when its send leaves. */
  lease_hasta?: number | null;
  /** Calls followed again after a restart: when the call was answered (epoch ms), if known. */
  contestada_en?: number | null;
}

/** A call row left en_curso past its lease (or by a dispatcher that died), to reconcile with
 * Asterisk: the row, its exercise and device, and the quiz questions already answered. */
export interface LlamadaVencida {
  fila: FilaReclamada;
  ej: EjercicioActivo;
  respondidas: number[];
}

/** The outcome of one attempt, written in batches; only rows still 'en_curso' are changed. */
export interface Desenlace {
  id_detalle: number;
  estatus: EstatusDestinatario;
  id_gateway: string | null;
  motivo: string | null;
  fecha_envio: string | null;
  hora_envio: string | null;
  siguiente_intento: number | null;
  recibida: number;
  /** Calls: talk and ring seconds and the hangup cause (null for messages). */
  duracion?: number | null;
  timbrado?: number | null;
  causa?: number | null;
  /** The row's attempt count to write instead of the current one: a send that was announced but
   * refused before the gateway took it (an AMI Originate answered 'Error') undoes its attempt. */
  intentos?: number | null;
  /** An answered call: how it went (rules/alcance.ts) and a quiz's questions answered. */
  alcance?: string | null;
  respondidas?: number | null;
  /** A long SMS's part ids at its device (index i is part i + 1), stored in sms_partes, with the
   * receipts that came before the write folded in (estados[i]: 'entregado' or 'fallido'). */
  /** Issue 25.2: the drill's last attempt for this recipient ended not reached and the drill has a
   * fallback: the companion exercise that sends it (the write inserts its row, once). */
  respaldo?: number | null;
  partes?: {
    id_equipo: number;
    ids: readonly string[];
    estados?: ('entregado' | 'fallido' | undefined)[];
  } | null;
}

/**
 * Everything the dispatcher asks of the database (listmonk's manager.Store): SQL lives in the
 * store-*.ts repositories, one per engine.
 */
export interface Store {
  /** Exercises with completado 0, en_proceso 1, en_pausa 0 whose device protocol is in `protocolos`. */
  ejerciciosActivos(protocolos: readonly string[]): Promise<EjercicioActivo[]>;
  /** Claims up to `max` due 'pendiente' rows in send order, keeping the exercise's rows in flight
   * (en_curso, across all dispatchers) within its ports; sets en_curso, the lease and salio 0.
   * The attempt is not counted here (see anunciar). With `estados` (a calling window) only rows
   * of those states are claimed (0 stands for rows without a state). */
  reclamar(
    ej: EjercicioActivo,
    max: number,
    ahora: number,
    leaseHasta: number,
    estados?: readonly number[] | null,
  ): Promise<FilaReclamada[]>;
  /** Every state with its name and zone override (calling windows, issue 24.4). */
  zonasEstados(): Promise<{ id_estado: number; estado: string; zona_horaria: string | null }[]>;
  /** Writes outcomes of rows still 'en_curso'. */
  escribir(desenlaces: readonly Desenlace[], ahora: number): Promise<void>;
  /** Puts claimed but unsent rows back to 'pendiente' (pause, shutdown, gateway unreachable) as
   * they were: an attempt announced for a send that could not leave is undone. */
  liberar(ids: readonly number[], ahora: number): Promise<void>;
  /** Devices of these protocols with rows awaiting a receipt in exercises started since `desde`. */
  equiposEsperandoAcuses(
    protocolos: readonly string[],
    desde: number,
  ): Promise<Pick<EjercicioActivo, 'id_equipo' | 'alias' | 'url' | 'protocolo' | 'credenciales'>[]>;
  /** The submit ids of a device (rows and long texts' parts) still awaiting a receipt, in
   * exercises started since `desde`. */
  idsEsperandoAcuse(id_equipo: number, desde: number): Promise<string[]>;
  /** Exercises of these protocols no worker runs (paused, stopped or completed), started since
   * `desde`, with rows 'enviado' without a receipt; `retener` for a pause or stop. */
  ejerciciosConEnviados(
    protocolos: readonly string[],
    desde: number,
  ): Promise<(EjercicioActivo & { retener: boolean })[]>;
  /** Applies receipts to sent rows of the receipt's device, or to a long SMS's part (sms_partes:
   * the row is 'entregado' once every part is delivered, 'fallido' at a part that was not);
   * returns the gateway ids matched (a part's receipt repeated counts as matched). */
  aplicarRecibos(recibos: readonly Recibo[], ahora: number): Promise<Set<string>>;
  /** Issue 48.6: stores receipts that matched no row (recibos_en_espera), so the gateway can be
   * answered and the receipt is still applied once its row has its id (or, the id lost with a
   * dispatcher that died, by its recipient). */
  guardarRecibos(recibos: readonly Recibo[], ahora: number): Promise<void>;
  /** Stored receipts, the newest first, at most `max`; with `antes`, only those that came
   * before it. */
  recibosEnEspera(max: number, antes?: number): Promise<ReciboEnEspera[]>;
  /** Removes stored receipts (applied, or past ESPERA_RECIBOS_MS). */
  borrarRecibosEnEspera(ids: readonly number[]): Promise<void>;
  /** Applies stored receipts to 'incierto' rows without a gateway id by their recipient (the one
   * such row of the device, in exercises started since `desde`); returns the ids applied. */
  aplicarPorTelefono(
    recibos: readonly ReciboEnEspera[],
    ahora: number,
    desde: number,
  ): Promise<Set<number>>;
  /** Rows 'en_curso' whose lease ended before `ahora`: never sent (salio 0) → back to
   * 'pendiente', whatever the protocol; sent → back to 'pendiente' when their protocol is in
   * `idempotentes` (resent with the same id), otherwise 'incierto' with `motivo`; sent rows of
   * `excluidos` (protocols whose channel reconciles them) are left alone. Returns the ids of the
   * exercises touched. */
  recuperarVencidos(
    ahora: number,
    idempotentes: readonly string[],
    motivo: string,
    excluidos: readonly string[],
  ): Promise<number[]>;
  /** Rows en_curso and sent (salio 1) of devices of `protocolos` (channels that reconcile calls)
   * whose lease ended before `ahora`. */
  llamadasVencidas(ahora: number, protocolos: readonly string[]): Promise<LlamadaVencida[]>;
  /** Counts the attempt of rows whose send is about to leave for the gateway: intentos + 1,
   * salio 1, the new lease and, when given, the gateway id the send will use (calls: a row left in
   * flight without it was never dialled). Only rows still en_curso, not yet announced, under the
   * lease their claim wrote (`lease_hasta`, when given) change; returns their ids. */
  anunciar(
    filas: readonly {
      id_detalle: number;
      id_gateway: string | null;
      lease_hasta?: number | null;
      hasta: number;
    }[],
    ahora: number,
  ): Promise<Set<number>>;
  /** Calls answered: keeps when (contestada_en) on rows still en_curso. */
  contestadas(filas: readonly { id_detalle: number; en: number }[]): Promise<void>;
  /** The dispatcher's waiting note on a running exercise (gateway unreachable), or null to clear
   * it. */
  marcarEspera(id_ejercicio: number, texto: string | null): Promise<void>;
  /** Devices whose gateway answered a send, with when (epoch ms): their last contact. */
  tocarEquipos(contactos: ReadonlyMap<number, number>): Promise<void>;
  /** Extends the lease of rows still en_curso to `hasta`. */
  prorrogar(ids: readonly number[], hasta: number, ahora: number): Promise<void>;
  /** Rows still en_curso become 'incierto' with `motivo`. */
  marcarInciertas(ids: readonly number[], motivo: string, ahora: number): Promise<void>;
  /** Marks the exercise completado when it is active and no row is pendiente or en_curso; audits
   * 'completar'. True when this call completed it. */
  completarSiTermino(id_ejercicio: number, ahora: number): Promise<boolean>;
  /** Automatic pause: en_pausa 1 (en_proceso stays 1, as a manual pause), motivo_pausa; audits 'pausar'. */
  pausar(id_ejercicio: number, motivo: string, ahora: number): Promise<boolean>;
  /** Stores quiz digits (the last one for a recipient and question wins). */
  guardarDigitos(ds: readonly DigitoQuiz[]): Promise<void>;
  /** True when the exercise was stopped (completado 1): its live calls are hung up. */
  detenido(id_ejercicio: number): Promise<boolean>;
  /** Rows back in the queue ('pendiente') of exercises stopped since `desde` become 'cancelado';
   * returns the exercises changed. */
  cancelarTrasDetener(ahora: number, desde: number): Promise<number[]>;
  /** This database's installation id (ajustes 'instalacion'), part of the Android message ids. */
  instalacion(): Promise<string>;
  /** Rows of the exercise 'enviado' without a receipt, with their gateway id: what a gateway
   * that keeps a queue (Android) may still hold, to cancel or to follow again after a restart. */
  enviadosSinRecibo(id_ejercicio: number): Promise<{ id_detalle: number; id_gateway: string }[]>;
  /** Rows still 'enviado' without a receipt whose message the gateway cancelled before it went
   * out: back to 'pendiente' (or 'cancelado' when the exercise was stopped), their attempt undone
   * and bound to the id a later send must use. Returns how many changed. */
  reponerCancelados(
    filas: readonly { id_detalle: number; id_gateway: string }[],
    ahora: number,
  ): Promise<number>;
  /** Stores a reply once (issue 46; a resend of one stored is 'duplicada'); a part of a long
   * reply is kept ('parcial') until its set is complete, then joined and stored. With a phone of
   * the directory as sender, the reply names it (id_telefono); unmatched, it waits in the inbox. */
  guardarRespuesta(r: RespuestaEntrante, ahora: number): Promise<ResultadoRespuesta>;
  /** Long replies still missing parts PLAZO_PARTES_MO_MS after their first: stored as what came,
   * marked incomplete; returns how many. */
  cerrarPartesVencidas(ahora: number): Promise<number>;
  /** Takes up to `pedido` sends of the exercise's per-second budget `limite` for second `segundo`,
   * shared by every dispatcher; returns how many were granted. */
  tomarCupo(id_ejercicio: number, segundo: number, pedido: number, limite: number): Promise<number>;
  /** The one-off messages' queue (issue 46: acknowledgements and opt-out confirmations,
   * sueltos.ts); absent, the dispatcher sends none. */
  sueltos?: StoreSueltos;
}
