import { msg } from '@pregon/contract/messages';
import { normalizarTelefono } from '@pregon/contract/rules/phone';
import type { Canal, Recibo, ResultadoEnvio } from './canal.ts';
import { ESPERA_RECIBOS_MS, protocolosIdempotentes } from './canal.ts';
import { retraso, type ConfigDespachador } from './config.ts';
import { Marcapasos } from './marcapasos.ts';
import type {
  DesenlaceSuelto,
  EquipoSueltos,
  StoreSueltos,
  SueltoReclamado,
} from './store-sueltos.ts';

// The sender of one-off messages (issue 46.2 and 46.4): an option's acknowledgement and the
// confirmation of a BAJA or ALTA, queued in mensajes_sueltos by the reply matching. Each goes
// through the device the reply came in on, at that device's pace (tasa × puertos), whether or
// not an exercise runs: one worker per device with messages due, which takes the device's channel
// from the dispatcher (the one its exercises use, or one it binds) and, when it bound the channel
// itself, lets it go after DESPACHO_SUELTOS_INACTIVO_MS without work. Crash-safe as an
// exercise's row: claimed with a lease, the attempt counted right before the send leaves, an
// unanswered send after a crash 'incierto' (never resent) unless the gateway takes an idempotency
// key (Android: the id pregon-<instalacion>-s<id>), receipts applied to its parts.

/** Most messages one device's worker claims at a time. */
const LOTE_SUELTOS = 50;

/** How long a channel the sender bound itself stays bound without work (ms). */
const INACTIVO_MS = (() => {
  const v = Number(process.env.DESPACHO_SUELTOS_INACTIVO_MS);
  return Number.isFinite(v) && v >= 0 ? v : 60_000;
})();

/** What the sender is given by the dispatcher. */
export interface OpcionesSueltos {
  /** The device's channel (the dispatcher's, shared with its exercises). */
  canal(e: EquipoSueltos): Canal;
  /** The device's channel is no longer needed by the sender (it was idle a while): the
   * dispatcher closes it unless one of its exercises or anything else of its uses it. */
  soltar(id_equipo: number): void;
  /** This database's installation id (Android message ids). */
  instalacion(): string | undefined;
  bitacora?: { info(t: string): void; error(t: string): void };
  /** SQLite: the only dispatcher, which recovers messages left in flight at once. */
  unico?: boolean;
}

/** A resolvable wake-up. */
class Timbre {
  private r: () => void = () => {};
  private p = new Promise<void>((r) => (this.r = r));
  sonar(): void {
    this.r();
    this.p = new Promise<void>((r) => (this.r = r));
  }
  esperar(ms: number): Promise<void> {
    let t: NodeJS.Timeout | undefined;
    return Promise.race([this.p, new Promise<void>((r) => (t = setTimeout(r, ms)))]).finally(() =>
      clearTimeout(t),
    );
  }
}

/** The outcome of one send, as the exercises' rows are written (despachador.ts anotar). */
export function desenlaceSuelto(
  f: SueltoReclamado,
  res: ResultadoEnvio,
  salio: boolean,
  config: ConfigDespachador,
  ahora: number,
): DesenlaceSuelto {
  if (!salio && res.tipo === 'incierto') res = { tipo: 'reintentar', motivo: res.motivo };
  const d: DesenlaceSuelto = {
    id_suelto: f.id_suelto,
    estado: 'enviado',
    id_gateway: 'id_gateway' in res ? (res.id_gateway ?? null) : null,
    error: null,
    siguiente_intento: null,
    partes: 'partes' in res && res.partes?.length ? res.partes : null,
  };
  switch (res.tipo) {
    case 'aceptado':
      if (res.entregado) d.estado = 'entregado';
      return d;
    case 'reintentar': {
      // Refused before the gateway took it, or never left: the attempt is not counted.
      const contados = salio && !res.sinSalir ? f.intentos : f.intentos - 1;
      if (salio && res.sinSalir) d.intentos = f.intentos - 1;
      d.error = res.motivo;
      if (contados === f.intentos && f.intentos >= config.maxIntentos) {
        d.estado = 'fallido';
        d.error = msg('reintentosAgotados', { n: f.intentos, motivo: res.motivo });
      } else {
        d.estado = 'pendiente';
        d.siguiente_intento = ahora + retraso(config, Math.max(1, contados));
      }
      return d;
    }
    case 'llamada':
      d.estado = 'fallido';
      d.error = res.motivo ?? null;
      return d;
    default:
      d.estado = res.tipo;
      d.error = res.motivo;
      return d;
  }
}

/** The one-off messages' sender, run by the dispatcher beside its exercises' workers. */
export class Sueltos {
  private corriendo = false;
  private readonly timbre = new Timbre();
  private readonly trabajos = new Map<number, Promise<void>>();
  private bucle: Promise<void> | undefined;
  private temporizadores: NodeJS.Timeout[] = [];
  /** Devices whose worker ended, with their idle timer (the channel is let go when it fires). */
  private readonly ociosos = new Map<number, NodeJS.Timeout>();
  private recuperando: Promise<void> = Promise.resolve();
  private escuchando: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: StoreSueltos,
    private readonly config: ConfigDespachador,
    private readonly o: OpcionesSueltos,
  ) {}

  /** Recovers messages a dispatcher left in flight (SQLite's only dispatcher: all of them at
   * once), binds to devices whose receipts may still come, and starts polling the queue. */
  async iniciar(): Promise<void> {
    this.corriendo = true;
    await this.recuperar(this.o.unico ? Number.MAX_SAFE_INTEGER : Date.now());
    this.escuchando = this.escuchar();
    this.temporizadores.push(
      setInterval(() => {
        this.recuperando = this.recuperar(Date.now());
      }, this.config.recuperacionMs),
    );
    this.bucle = this.ciclo();
  }

  /** Stops claiming; sends in flight finish and their outcomes are written. */
  async detener(): Promise<void> {
    if (!this.corriendo) return;
    this.corriendo = false;
    this.timbre.sonar();
    for (const t of this.temporizadores) clearInterval(t);
    for (const t of this.ociosos.values()) clearTimeout(t);
    this.ociosos.clear();
    await this.bucle;
    await Promise.allSettled([...this.trabajos.values()]);
    await this.recuperando;
    await this.escuchando;
  }

  /** A message was (maybe) queued: look at the queue now. */
  despertar(): void {
    this.timbre.sonar();
  }

  /** Receipts of one-off messages (the dispatcher's receipts no exercise row matched). */
  aplicarRecibos(recibos: readonly Recibo[], ahora: number): Promise<Set<string>> {
    return recibos.length ? this.store.aplicarRecibos(recibos, ahora) : Promise.resolve(new Set());
  }

  private async recuperar(ahora: number): Promise<void> {
    try {
      const n = await this.store.recuperarVencidos(
        ahora,
        protocolosIdempotentes(),
        msg('envioIncierto'),
      );
      if (n) this.timbre.sonar();
    } catch (err) {
      this.o.bitacora?.error(`mensajes sueltos, recuperación: ${String(err)}`);
    }
  }

  /** Binds to the devices of messages sent before this dispatcher started that still await a
   * receipt, so the SMSC hands over what it held. */
  private async escuchar(): Promise<void> {
    try {
      for (const { equipo, ids } of await this.store.esperandoAcuses(
        Date.now() - ESPERA_RECIBOS_MS,
      )) {
        if (!this.corriendo) return;
        const canal = this.o.canal(equipo);
        await canal.escuchar?.(ids);
        this.ocioso(equipo.id_equipo);
      }
    } catch (err) {
      this.o.bitacora?.error(`mensajes sueltos, acuses pendientes: ${String(err)}`);
    }
  }

  private async ciclo(): Promise<void> {
    while (this.corriendo) {
      try {
        for (const e of await this.store.equiposConPendientes(Date.now()))
          if (!this.trabajos.has(e.id_equipo) && this.corriendo) this.arrancar(e);
      } catch (err) {
        this.o.bitacora?.error(`mensajes sueltos: ${String(err)}`);
      }
      await this.timbre.esperar(this.config.sondeoMs);
    }
  }

  private arrancar(e: EquipoSueltos): void {
    const t = this.ociosos.get(e.id_equipo);
    if (t) clearTimeout(t);
    this.ociosos.delete(e.id_equipo);
    const hilo = this.trabajar(e)
      .catch((err: unknown) =>
        this.o.bitacora?.error(`mensajes sueltos, equipo ${e.alias}: ${String(err)}`),
      )
      .finally(() => {
        this.trabajos.delete(e.id_equipo);
        if (this.corriendo) this.ocioso(e.id_equipo);
      });
    this.trabajos.set(e.id_equipo, hilo);
  }

  /** The device's worker ended: its channel is let go after INACTIVO_MS without a new one. */
  private ocioso(id_equipo: number): void {
    if (this.trabajos.has(id_equipo)) return;
    const previo = this.ociosos.get(id_equipo);
    if (previo) clearTimeout(previo);
    const t = setTimeout(() => {
      this.ociosos.delete(id_equipo);
      if (this.corriendo && !this.trabajos.has(id_equipo)) this.o.soltar(id_equipo);
    }, INACTIVO_MS);
    t.unref();
    this.ociosos.set(id_equipo, t);
  }

  /** Sends a device's due messages, a batch at a time, at the device's pace, until none is due
   * or the gateway cannot be reached (the messages wait; the next poll tries again). */
  private async trabajar(e: EquipoSueltos): Promise<void> {
    const canal = this.o.canal(e);
    const marcapasos = new Marcapasos(
      Math.max(0.1, e.tasa * Math.max(1, e.puertos)),
      async (_s, n) => n,
    );
    const lote = Math.max(1, Math.min(LOTE_SUELTOS, e.puertos, canal.ventana ?? LOTE_SUELTOS));
    while (this.corriendo) {
      const ahora = Date.now();
      const filas = await this.store.reclamar(
        e.id_equipo,
        lote,
        ahora,
        ahora + this.config.leaseMs,
      );
      if (!filas.length) return;
      const envios: Promise<Envio | null>[] = [];
      const sinSalir: number[] = [];
      for (const f of filas) {
        if (!this.corriendo) {
          sinSalir.push(f.id_suelto);
          continue;
        }
        await marcapasos.tomar();
        envios.push(this.enviarUno(e, canal, f));
      }
      await this.store.liberar(sinSalir, Date.now());
      let sinConexion = false;
      for (const x of await Promise.all(envios)) {
        if (!x) continue;
        const { d } = x;
        if (x.sinConexion) sinConexion = true;
        try {
          await this.store.escribir(d, Date.now());
        } catch (err) {
          // Left en_curso: the lease sweep puts it back (or calls it uncertain if it left).
          this.o.bitacora?.error(`mensajes sueltos, escritura: ${String(err)}`);
        }
      }
      if (sinConexion) return;
    }
  }

  /** One send; null when the message is no longer this dispatcher's (its lease ended). */
  private async enviarUno(
    e: EquipoSueltos,
    canal: Canal,
    f: SueltoReclamado,
  ): Promise<Envio | null> {
    const ahora = Date.now();
    const fallo = (estado: 'fallido' | 'invalido', error: string): Envio => ({
      d: { id_suelto: f.id_suelto, estado, id_gateway: null, error, siguiente_intento: null },
    });
    // WhatsApp takes free text only within the 24 hours a reply opens.
    if (f.vence !== null && ahora > f.vence) return fallo('fallido', msg('sueltoVentanaCerrada'));
    const telefono = numeroGateway(f.telefono);
    if (!telefono.ok) return fallo('invalido', telefono.motivo);
    // An idempotent gateway (Android) gets an id of its own for the message, stable across
    // attempts: a resend after a crash is refused as known instead of sent twice.
    const id_gateway =
      f.id_gateway ??
      (e.protocolo === 'android' ? `pregon-${this.o.instalacion() ?? '0'}-s${f.id_suelto}` : null);
    let salio = false;
    let ajeno = false;
    let res: ResultadoEnvio;
    try {
      res = await canal.enviar({
        id_detalle: f.id_suelto,
        telefono: telefono.e164,
        texto: f.texto,
        intentos: f.intentos,
        id_gateway,
        salir: async () => {
          const ok = await this.store.anunciar(
            { id_suelto: f.id_suelto, lease_hasta: f.lease_hasta, id_gateway },
            Date.now() + this.config.leaseMs,
            Date.now(),
          );
          if (!ok) {
            ajeno = true;
            throw new Error('el mensaje ya no es de este despachador');
          }
          salio = true;
        },
      });
    } catch (err) {
      res = { tipo: 'incierto', motivo: String(err) };
    }
    if (ajeno) return null;
    const d = desenlaceSuelto(f, res, salio, this.config, Date.now());
    if (res.tipo === 'reintentar' && res.sinConexion && (!salio || res.sinSalir)) {
      // The gateway cannot be reached: nothing left, no attempt spent; the device's worker stops
      // and the message waits for the next probe.
      d.intentos = f.intentos - 1;
      d.estado = 'pendiente';
      d.error = res.motivo;
      d.siguiente_intento = Date.now() + this.config.sondeoConexionMs;
      return { d, sinConexion: true };
    }
    return { d };
  }
}

/** One send's outcome, and whether the gateway could not be reached at all. */
interface Envio {
  d: DesenlaceSuelto;
  sinConexion?: boolean;
}

/** The number as gateways take it, E.164 (despachador.ts numeroGateway's rule). */
function numeroGateway(t: string): { ok: true; e164: string } | { ok: false; motivo: string } {
  if (/^\d{10}$/.test(t)) return { ok: true, e164: `+52${t}` };
  if (/^\+\d{8,15}$/.test(t)) return { ok: true, e164: t };
  const r = normalizarTelefono(t);
  return r.ok ? { ok: true, e164: r.e164 } : { ok: false, motivo: r.motivo };
}
