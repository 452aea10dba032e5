import { msg } from '@pregon/contract/messages';
import {
  credencial,
  registrarCanal,
  noLlego,
  textoError,
  type Canal,
  type Envio,
  type OpcionesCanal,
  type ResultadoEnvio,
} from '../../canal.ts';
import {
  motivoUrlRefusada,
  pedirJson,
  urlGateway,
  type RespuestaJson,
} from '../../http-cliente.ts';

// The local server of 'SMS Gateway for Android' (capcom6/android-sms-gateway, read from its
// MessagesRoutes.kt, PostMessageRequest.kt, MessagesService.kt and MessageWithRecipients.kt):
//  - POST /message {id, textMessage: {text}, phoneNumbers, withDeliveryReport, ttl, simNumber}
//    with basic auth answers 202 and the message (state Pending): the phone only queued it. 409
//    when the id is known (nothing is sent again); 400 {message} for a malformed request (gson
//    errors, an empty text, simNumber < 1, ttl with validUntil…): the device or the exercise is
//    misconfigured, never the recipient, whose number is checked only when the phone sends it (a
//    bad one ends as a recipient Failed 'sendSMS: Invalid phone number').
//  - The phone works its queue one message at a time: Pending → Processed (handed to the radio)
//    → Sent → Delivered, or Failed with the recipient's `error` (send result, delivery result
//    from the SMSC, 'TTL expired'); Cancelled when cancelled while Pending. GET /message/{id}
//    reads it; GET /message?state=Pending&limit=1 counts the queue (header X-Total-Count).
//  - DELETE /message/{id} cancels a Pending message (200, state Cancelled), 400 when it is no
//    longer Pending, 404 when unknown. Added after v1.66.1: an older app has no such route, and
//    then a stop cannot take back what is queued; the queue bound below keeps that short.
// Each accepted message is followed until a final state (Delivered, Failed, Cancelled, or Sent
// for androidEsperaEntregaMs without a delivery report), reading it again with a doubling period.

/** Message id of a recipient row at the gateway: the installation id keeps two databases on one
 * phone apart, and the row id keeps it stable across attempts and restarts, so a resend after a
 * crash is refused by the gateway (409) instead of sent twice. */
export const idAndroid = (id_detalle: number, instalacion?: string) =>
  instalacion ? `pregon-${instalacion}-${id_detalle}` : `pregon-${id_detalle}`;

/** The id a recipient's next send uses after the gateway cancelled its message (the gateway
 * keeps cancelled ids): `…-r1`, `…-r2`… */
export function siguienteIdAndroid(id: string): string {
  const m = /^(.*)-r(\d+)$/.exec(id);
  return m ? `${m[1]}-r${Number(m[2]) + 1}` : `${id}-r1`;
}

/** State reads (and cancels) in flight at once against one phone. */
const LECTURAS_SIMULTANEAS = 8;
/** Pages of the phone's Pending list read before a cancel (500 messages each). */
const PAGINAS_PENDIENTES = 20;

interface EstadoMensaje {
  id?: string;
  state?: string;
  recipients?: { phoneNumber?: string; state?: string; error?: string | null }[];
  message?: string;
}

/** One message followed until its final state. */
interface Seguido {
  id: string;
  /** Last state read ('' before the first read). */
  estado: string;
  /** When it was accepted (or taken up again after a restart). */
  desde: number;
  /** When it was first seen Sent. */
  enviadoDesde?: number;
  /** Current period between reads (ms). */
  periodo: number;
  /** When the next read is due. */
  proxima: number;
  /** A cancel of ours is under way: a Cancelled state is not a failure. */
  cancelando?: boolean;
}

const FINALES = new Set(['delivered', 'failed', 'cancelled']);

/** A min-heap of followed messages by their next read (entries whose time changed are skipped). */
/**
 * What the Android gateway's answer to POST /message means (capcom6/android-sms-gateway's
 * MessagesRoutes: 202 accepted, 409 id already known, 400 the request as built, 401 credentials):
 * - 'aceptado' (2xx) and 'conocido' (409: a resend after a crash; its state is read instead);
 * - 'solicitud' (400), 'credenciales' (401, 403), 'ruta' (404, 405: the device's URL is not the
 *   gateway's send route): the same for every recipient, the exercise pauses, the row stays;
 * - 'reintentar' (429, 5xx and anything else): the phone is busy or failing, same id later.
 * A request refused or unroutable at the socket never left: the exercise waits for the phone.
 */
export type ClaseHttpAndroid =
  'aceptado' | 'conocido' | 'solicitud' | 'credenciales' | 'ruta' | 'reintentar';

/** The class of an HTTP status of POST /message (see ClaseHttpAndroid). */
export function claseHttpAndroid(status: number): ClaseHttpAndroid {
  if (status >= 200 && status < 300) return 'aceptado';
  if (status === 409) return 'conocido';
  if (status === 400) return 'solicitud';
  if (status === 401 || status === 403) return 'credenciales';
  if (status === 404 || status === 405) return 'ruta';
  return 'reintentar';
}

class Agenda {
  private readonly h: { t: number; s: Seguido }[] = [];
  get tamano(): number {
    return this.h.length;
  }
  poner(s: Seguido): void {
    const h = this.h;
    h.push({ t: s.proxima, s });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p]!.t <= h[i]!.t) break;
      [h[p], h[i]] = [h[i]!, h[p]!];
      i = p;
    }
  }
  primera(): { t: number; s: Seguido } | undefined {
    return this.h[0];
  }
  sacar(): { t: number; s: Seguido } | undefined {
    const h = this.h;
    const top = h[0];
    const ult = h.pop();
    if (h.length && ult) {
      h[0] = ult;
      let i = 0;
      for (;;) {
        const a = 2 * i + 1;
        const b = a + 1;
        let m = i;
        if (a < h.length && h[a]!.t < h[m]!.t) m = a;
        if (b < h.length && h[b]!.t < h[m]!.t) m = b;
        if (m === i) break;
        [h[m], h[i]] = [h[i]!, h[m]!];
        i = m;
      }
    }
    return top;
  }
  vaciar(): void {
    this.h.length = 0;
  }
}

class CanalAndroid implements Canal {
  private readonly auth: string;
  private readonly ttl: number;
  private readonly simFijo: number;
  private readonly sims: number;
  private readonly seguidos = new Map<string, Seguido>();
  private readonly agenda = new Agenda();
  private temporizador: NodeJS.Timeout | undefined;
  private despertarEn = Infinity;
  private lecturas = 0;
  private cerrado = false;
  /** The phone's queue: Pending messages at the last count, and messages accepted since. */
  private cola = { contados: 0, aceptadosDesde: 0 };
  /** The phone answers the Pending count (false: an app without the list; null: not yet known). */
  private cuentaDisponible: boolean | null = null;
  private leyendoCola: Promise<void> | undefined;

  constructor(private readonly o: OpcionesCanal) {
    const c = o.equipo.credenciales;
    const usuario = credencial(c, 'android', 'usuario') || credencial(c, 'android', 'username');
    const password = credencial(c, 'android', 'password');
    this.auth = `Basic ${Buffer.from(`${usuario}:${password}`).toString('base64')}`;
    // Credential `ttl` (seconds, 0 = none) overrides DESPACHO_ANDROID_TTL_S.
    const ttl = Number(credencial(c, 'android', 'ttl') || o.config.androidTtlS);
    this.ttl = Number.isFinite(ttl) && ttl > 0 ? Math.round(ttl) : 0;
    // SIM choice: credential `sim` pins every send to one SIM; credential `sims` (the phone's SIM
    // count, 2 or more) maps the exercise's ports to SIM slots, port p → SIM ((p − 1) mod sims) + 1.
    // With neither, no simNumber: the phone's own setting (OS default, round robin…) picks it.
    const sim = Number(credencial(c, 'android', 'sim'));
    this.simFijo = Number.isInteger(sim) && sim >= 1 ? sim : 0;
    const sims = Number(credencial(c, 'android', 'sims'));
    this.sims = Number.isInteger(sims) && sims >= 2 ? sims : 0;
  }

  /** One request to the gateway: the device's url (never with a query or fragment, issue 49.3)
   * and the route's path parts, each encoded. */
  private async pedir(
    partes: readonly string[],
    metodo = 'GET',
    cuerpo?: unknown,
    consulta?: string,
  ): Promise<RespuestaJson> {
    const url = urlGateway(this.o.equipo.url, partes, { forma: 'formaUrlAndroid', consulta });
    return pedirJson(url, {
      method: metodo,
      headers: { authorization: this.auth },
      cuerpo,
      timeoutMs: this.o.config.timeoutEnvioMs,
    });
  }

  private async estado(id: string): Promise<{ status: number; e: EstadoMensaje }> {
    const r = await this.pedir(['message', id]);
    return { status: r.status, e: r.cuerpo as EstadoMensaje };
  }

  // ---- Following each message until its final state -------------------------------------

  /** Starts following `id` (its state as the send answered it). */
  private anotarSeguido(id: string, estado = ''): void {
    if (this.cerrado || this.seguidos.has(id)) return;
    const ahora = Date.now();
    const s: Seguido = {
      id,
      estado: estado.toLowerCase(),
      desde: ahora,
      periodo: this.o.config.androidSondeoMs,
      proxima: ahora + this.o.config.androidSondeoMs,
    };
    this.seguidos.set(id, s);
    this.agenda.poner(s);
    this.programar(s.proxima);
  }

  retomar(ids: readonly string[]): void {
    for (const id of ids) this.anotarSeguido(id);
  }

  /** Wakes the reader at `t` unless it wakes earlier already. */
  private programar(t: number): void {
    if (this.cerrado || t >= this.despertarEn) return;
    if (this.temporizador) clearTimeout(this.temporizador);
    this.despertarEn = t;
    this.temporizador = setTimeout(
      () => {
        this.temporizador = undefined;
        this.despertarEn = Infinity;
        this.bombear();
      },
      Math.max(0, t - Date.now()),
    );
    this.temporizador.unref();
  }

  /** Starts the reads that are due, LECTURAS_SIMULTANEAS at a time. */
  private bombear(): void {
    if (this.cerrado) return;
    const ahora = Date.now();
    while (this.lecturas < LECTURAS_SIMULTANEAS) {
      const p = this.agenda.primera();
      if (!p) return;
      if (p.s.proxima !== p.t || this.seguidos.get(p.s.id) !== p.s) {
        this.agenda.sacar(); // stale entry
        continue;
      }
      if (p.t > ahora) return this.programar(p.t);
      this.agenda.sacar();
      this.lecturas++;
      void this.leer(p.s).finally(() => {
        this.lecturas--;
        this.bombear();
      });
    }
  }

  private async leer(s: Seguido): Promise<void> {
    const c = this.o.config;
    let estado = s.estado;
    let error: string | null | undefined;
    try {
      const { status, e } = await this.estado(s.id);
      if (status === 404) {
        // The phone no longer knows it (app data cleared, old log truncated): nothing to read.
        this.seguidos.delete(s.id);
        return;
      }
      if (status === 200) {
        estado = (e.state ?? '').toLowerCase();
        error = e.recipients?.[0]?.error;
      }
    } catch {
      /* read again later */
    }
    if (this.cerrado || this.seguidos.get(s.id) !== s) return;
    const ahora = Date.now();
    if (FINALES.has(estado)) {
      this.seguidos.delete(s.id);
      if (estado === 'cancelled' && s.cancelando) return; // ours: cancelar() reports it
      this.o.alRecibo({
        id_equipo: this.o.equipo.id_equipo,
        id_gateway: s.id,
        entregado: estado === 'delivered',
        motivo:
          estado === 'failed'
            ? msg('androidFallido', { error: error || 'Failed' })
            : estado === 'cancelled'
              ? msg('androidCancelado')
              : undefined,
      });
      return;
    }
    if (estado === 'sent') s.enviadoDesde ??= ahora;
    const limite =
      s.enviadoDesde !== undefined
        ? s.enviadoDesde + c.androidEsperaEntregaMs
        : s.desde + (this.ttl ? this.ttl * 1000 : 86_400_000) + c.androidEsperaEntregaMs;
    if (ahora >= limite) {
      // Sent without a delivery report (or never taken by the phone) for too long: the row keeps
      // 'enviado', the most that is known.
      this.seguidos.delete(s.id);
      return;
    }
    const tope =
      estado === 'pending' || estado === '' ? 4 * c.androidSondeoMs : c.androidSondeoMaxMs;
    s.periodo =
      estado !== s.estado
        ? c.androidSondeoMs
        : Math.min(Math.max(tope, c.androidSondeoMs), s.periodo * 2);
    s.estado = estado;
    s.proxima = ahora + s.periodo;
    this.agenda.poner(s);
    this.programar(s.proxima);
  }

  // ---- The phone's queue ------------------------------------------------------------------

  /** Pending messages on the phone, read from the list's X-Total-Count; null when the app does
   * not answer it. */
  private async contarPendientes(): Promise<number | null> {
    try {
      const r = await this.pedir(['message'], 'GET', undefined, 'state=Pending&limit=1');
      const total = Number(r.cabeceras['x-total-count']);
      if (r.status === 200 && Number.isFinite(total)) return total;
      if (r.status === 401 || r.status === 403 || r.status >= 500) return -1;
      return null;
    } catch {
      return -1;
    }
  }

  /** Room in the phone's queue; while there is none, reads it again every androidSondeoMs for
   * up to a second (the worker then checks its exercise and asks again). */
  async hueco(): Promise<number> {
    const max = this.o.config.androidCola;
    // No bound, or a channel closed under a running worker (its device changed): no waiting.
    if (max <= 0 || this.cerrado) return Number.MAX_SAFE_INTEGER;
    const periodo = Math.max(10, this.o.config.androidSondeoMs);
    const fin = Date.now() + Math.max(1000, periodo);
    for (;;) {
      const h = await this.huecoAhora(max);
      if (h > 0 || Date.now() + periodo > fin) return h;
      await new Promise((r) => setTimeout(r, periodo));
    }
  }

  private async huecoAhora(max: number): Promise<number> {
    if (this.cuentaDisponible === false) {
      // An app without the list: our own messages last read Pending (or not read yet).
      let n = 0;
      for (const s of this.seguidos.values()) if (s.estado === 'pending' || s.estado === '') n++;
      return Math.max(0, max - n);
    }
    const estimado = this.cola.contados + this.cola.aceptadosDesde;
    if (estimado < max) return max - estimado;
    // Full by the estimate (the last count plus what was accepted since): count again.
    this.leyendoCola ??= (async () => {
      const n = await this.contarPendientes();
      if (n === null) this.cuentaDisponible = false;
      else if (n >= 0) {
        this.cuentaDisponible = true;
        this.cola = { contados: n, aceptadosDesde: 0 };
      } else {
        // The phone does not answer: let sends go, so their errors reach the circuit breaker
        // and the automatic pause instead of waiting here unseen.
        this.cola = { contados: 0, aceptadosDesde: 0 };
      }
    })().finally(() => (this.leyendoCola = undefined));
    await this.leyendoCola;
    if ((this.cuentaDisponible as boolean | null) === false) return this.huecoAhora(max);
    return Math.max(0, max - this.cola.contados - this.cola.aceptadosDesde);
  }

  // ---- Sending ----------------------------------------------------------------------------

  async enviar(e: Envio): Promise<ResultadoEnvio> {
    const id = e.id_gateway ?? idAndroid(e.id_detalle, this.o.instalacion);
    const sim =
      this.simFijo || (this.sims && e.puerto ? ((e.puerto - 1) % this.sims) + 1 : undefined);
    // The exercise's vigencia (minutes) when it sets one, else the device's or the default ttl.
    const ttl = e.vigencia ? e.vigencia * 60 : this.ttl;
    const cuerpo = {
      id,
      textMessage: { text: e.texto },
      phoneNumbers: [e.telefono],
      withDeliveryReport: true,
      ...(ttl ? { ttl } : {}),
      ...(sim ? { simNumber: sim } : {}),
    };
    let r: RespuestaJson;
    // The attempt counts right before the request is sent.
    if (e.salir)
      try {
        await e.salir();
      } catch (err) {
        return { tipo: 'reintentar', motivo: String(err), id_gateway: id };
      }
    try {
      r = await this.pedir(['message'], 'POST', cuerpo);
    } catch (err) {
      // The device's url cannot be used (its form, or a destination not allowed): nothing left,
      // the same for every recipient, so the exercise pauses with the reason.
      const configuracion = motivoUrlRefusada(err);
      if (configuracion)
        return {
          tipo: 'reintentar',
          pausar: true,
          sinSalir: true,
          motivo: configuracion,
          id_gateway: id,
        };
      // Whether or not the request arrived, resending with the same id is safe; one refused or
      // unroutable never left.
      return {
        tipo: 'reintentar',
        motivo: `Android: ${textoError(err)}`,
        id_gateway: id,
        ...(noLlego(err) ? { sinSalir: true, sinConexion: true } : {}),
      };
    }
    const respuesta = r.cuerpo as EstadoMensaje;
    const clase = claseHttpAndroid(r.status);
    if (clase === 'conocido') return this.yaConocido(id);
    if (clase === 'aceptado') {
      this.cola.aceptadosDesde++;
      const estado = respuesta.state?.toLowerCase();
      if (estado === 'delivered') return { tipo: 'aceptado', id_gateway: id, entregado: true };
      this.anotarSeguido(id, estado);
      return { tipo: 'aceptado', id_gateway: id };
    }
    const detalle = `HTTP ${r.status}${respuesta.message ? `: ${respuesta.message}` : ''}`;
    if (clase === 'ruta')
      // The URL answers but is not the gateway's send route: the same for every recipient.
      return {
        tipo: 'reintentar',
        pausar: true,
        motivo: msg('androidRutaNoEncontrada', { alias: this.o.equipo.alias, status: r.status }),
        id_gateway: id,
      };
    if (clase === 'solicitud')
      // A request or configuration error, not the recipient's: pause with the gateway's words.
      return {
        tipo: 'reintentar',
        pausar: true,
        motivo: msg('androidSolicitudRechazada', {
          alias: this.o.equipo.alias,
          detalle: respuesta.message || 'Bad Request',
        }),
        id_gateway: id,
      };
    if (clase === 'credenciales')
      return {
        tipo: 'reintentar',
        pausar: true,
        motivo: msg('credencialesEquipoInvalidas', {
          alias: this.o.equipo.alias,
          protocolo: 'Android',
          detalle: `Android ${detalle}`,
        }),
        id_gateway: id,
      };
    return { tipo: 'reintentar', motivo: `Android ${detalle}`, id_gateway: id };
  }

  /** 409: the phone already has this id (a resend after a crash): its state instead of a send. */
  private async yaConocido(id: string): Promise<ResultadoEnvio> {
    const { e } = await this.estado(id).catch(() => ({ e: {} as EstadoMensaje }));
    const estado = e.state?.toLowerCase();
    if (estado === 'failed')
      return {
        tipo: 'fallido',
        motivo: msg('androidFallido', { error: e.recipients?.[0]?.error || 'Failed' }),
        id_gateway: id,
      };
    if (estado === 'cancelled')
      // Cancelled by a pause whose new id was never written (a crash in between): a new id.
      return {
        tipo: 'reintentar',
        motivo: msg('androidIdCancelado', { id }),
        id_gateway: siguienteIdAndroid(id),
      };
    if (estado === 'delivered') return { tipo: 'aceptado', id_gateway: id, entregado: true };
    this.anotarSeguido(id, estado);
    return { tipo: 'aceptado', id_gateway: id };
  }

  // ---- Cancelling what is still queued ----------------------------------------------------

  /** Ids of the phone's Pending messages (null when the app does not list them). */
  private async pendientesDelTelefono(): Promise<Set<string> | null> {
    const ids = new Set<string>();
    for (let pagina = 0; pagina < PAGINAS_PENDIENTES; pagina++) {
      let r: RespuestaJson;
      try {
        r = await this.pedir(
          ['message'],
          'GET',
          undefined,
          `state=Pending&limit=500&offset=${pagina * 500}`,
        );
      } catch {
        return null;
      }
      if (r.status !== 200 || !Array.isArray(r.cuerpo)) return null;
      const lista = r.cuerpo as EstadoMensaje[];
      for (const m of lista) if (m.id) ids.add(m.id);
      if (lista.length < 500) break;
    }
    return ids;
  }

  async cancelar(ids: readonly string[]): Promise<Map<string, string>> {
    const hechos = new Map<string, string>();
    if (!ids.length || this.cerrado) return hechos;
    const enCola = await this.pendientesDelTelefono();
    // The phone's own list says what is queued; without it, every id not known to have left
    // the queue is tried.
    const candidatos = ids.filter((id) => {
      if (enCola) return enCola.has(id);
      const s = this.seguidos.get(id);
      return !s || s.estado === 'pending' || s.estado === '';
    });
    let sinRuta = false;
    let i = 0;
    const trabajar = async () => {
      while (i < candidatos.length && !sinRuta && !this.cerrado) {
        const id = candidatos[i++]!;
        const s = this.seguidos.get(id);
        if (s) s.cancelando = true;
        try {
          const r = await this.pedir(['message', id], 'DELETE');
          const estado = (r.cuerpo as EstadoMensaje).state?.toLowerCase();
          if (r.status === 200 && estado === 'cancelled') {
            hechos.set(id, siguienteIdAndroid(id));
            this.seguidos.delete(id);
            continue;
          }
          // 405 (or a 404 for a message the list just showed): an app without cancel.
          if (r.status === 405 || (r.status === 404 && enCola?.has(id))) sinRuta = true;
        } catch {
          /* left queued: it goes out and is followed as usual */
        }
        if (s) s.cancelando = false;
      }
    };
    await Promise.all(Array.from({ length: LECTURAS_SIMULTANEAS }, trabajar));
    if (hechos.size) this.cola.contados = Math.max(0, this.cola.contados - hechos.size);
    return hechos;
  }

  async cerrar(): Promise<void> {
    this.cerrado = true;
    if (this.temporizador) clearTimeout(this.temporizador);
    this.temporizador = undefined;
    this.agenda.vaciar();
    this.seguidos.clear();
  }
}

registrarCanal('android', {
  crear: (o) => new CanalAndroid(o),
  idempotente: true,
  cancela: true,
});
