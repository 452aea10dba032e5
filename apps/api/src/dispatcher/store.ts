import type { EstatusDestinatario } from '@pregon/contract/constants';
import type { Recibo } from './canal.ts';

/** An exercise the dispatcher may work on (completado 0, en_proceso 1, en_pausa 0), with its device. */
export interface EjercicioActivo {
  id_ejercicio: number;
  id_equipo: number;
  accion: string;
  /** The exercise's ports (puerto_fin − puerto_ini + 1): most rows in flight at once. */
  puertos: number;
  alias: string;
  url: string;
  protocolo: string;
  /** Sends per second per port. */
  tasa: number;
  credenciales: string | null;
}

/** A recipient row claimed for sending (already 'en_curso', intentos counted). */
export interface FilaReclamada {
  id_detalle: number;
  id_ejercicio: number;
  telefono: string;
  intentos: number;
  id_gateway: string | null;
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
}

/**
 * Everything the dispatcher asks of the database (listmonk's manager.Store): SQL lives in the
 * store-*.ts repositories, one per engine.
 */
export interface Store {
  /** Exercises with completado 0, en_proceso 1, en_pausa 0 whose device protocol is in `protocolos`. */
  ejerciciosActivos(protocolos: readonly string[]): Promise<EjercicioActivo[]>;
  /** Claims up to `max` due 'pendiente' rows in send order, keeping the exercise's rows in flight
   * (en_curso, across all dispatchers) within its ports; sets en_curso, lease and intentos+1. */
  reclamar(
    ej: EjercicioActivo,
    max: number,
    ahora: number,
    leaseHasta: number,
  ): Promise<FilaReclamada[]>;
  /** Writes outcomes of rows still 'en_curso'. */
  escribir(desenlaces: readonly Desenlace[], ahora: number): Promise<void>;
  /** Puts claimed but unsent rows back to 'pendiente' (pause, shutdown), undoing their attempt. */
  liberar(ids: readonly number[], ahora: number): Promise<void>;
  /** Applies receipts to sent rows of the receipt's device; returns the gateway ids matched. */
  aplicarRecibos(recibos: readonly Recibo[], ahora: number): Promise<Set<string>>;
  /** Rows 'en_curso' whose lease ended before `ahora`: back to 'pendiente' when their protocol is
   * in `idempotentes` (resent with the same id), otherwise 'incierto' with `motivo`. Returns the
   * ids of the exercises touched. */
  recuperarVencidos(
    ahora: number,
    idempotentes: readonly string[],
    motivo: string,
  ): Promise<number[]>;
  /** Marks the exercise completado when it is active and no row is pendiente or en_curso; audits
   * 'completar'. True when this call completed it. */
  completarSiTermino(id_ejercicio: number, ahora: number): Promise<boolean>;
  /** Automatic pause: en_pausa 1 (en_proceso stays 1, as a manual pause), motivo_pausa; audits 'pausar'. */
  pausar(id_ejercicio: number, motivo: string, ahora: number): Promise<boolean>;
  /** Takes up to `pedido` sends of the exercise's per-second budget `limite` for second `segundo`,
   * shared by every dispatcher; returns how many were granted. */
  tomarCupo(id_ejercicio: number, segundo: number, pedido: number, limite: number): Promise<number>;
}
