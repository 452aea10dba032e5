import smpp from 'smpp';
import { msg } from '@pregon/contract/messages';
import {
  credencial,
  registrarCanal,
  type Canal,
  type Envio,
  type OpcionesCanal,
  type ResultadoEnvio,
} from './canal.ts';

// SMPP v3.4 over the `smpp` package: one bind_transceiver per device and dispatcher, a window of
// outstanding submit_sm, enquire_link, reconnection on demand, and deliver_sm receipts matched by
// message id. SMPP has no idempotency key: a submit whose answer was lost is 'incierto'.

const ESME = smpp as unknown as Record<string, number>;
/** Statuses after which the same submit may be sent again (the SMSC did not take it). */
const TRANSITORIOS = new Set([
  ESME.ESME_RTHROTTLED,
  ESME.ESME_RMSGQFUL,
  ESME.ESME_RSYSERR,
  ESME.ESME_RX_T_APPN,
]);
/** The package's text encoders (the ones submit_sm uses when given a string). */
const CODIFICACION = smpp as unknown as {
  encodings: Record<string, { encode(t: string): Buffer }> & { detect(t: string): string };
  ENCODING: Record<string, number>;
};
/** Statuses that mean the destination number is wrong. */
const INVALIDOS = new Set([ESME.ESME_RINVDSTADR, ESME.ESME_RINVDSTTON, ESME.ESME_RINVDSTNPI]);

interface Pdu {
  command: string;
  command_status: number;
  message_id?: string;
  esm_class?: number;
  receipted_message_id?: string;
  message_state?: number;
  short_message?: string | { message?: string | Buffer };
  response(o?: object): object;
}
interface Sesion {
  on(ev: string, f: (x: Pdu & Error) => void): void;
  send(pdu: object): boolean;
  bind_transceiver(o: object, cb: (p: Pdu) => void): boolean;
  submit_sm(o: object, cb: (p: Pdu) => void): boolean;
  unbind(cb?: () => void): boolean;
  close(cb?: () => void): void;
  destroy(): void;
  socket: { writable: boolean; cork(): void; uncork(): void };
}

const corchados = new WeakSet<Sesion>();
/** Holds the session's writes until the end of this tick, then sends them in one system call:
 * the answers of a window arrive together, and so do the submits and receipt answers they free. */
function agrupar(s: Sesion): void {
  if (corchados.has(s)) return;
  corchados.add(s);
  s.socket.cork();
  process.nextTick(() => {
    corchados.delete(s);
    s.socket.uncork();
  });
}

/** Reads the `id:` and `stat:` fields of a delivery receipt's text (SMPP 3.4 appendix B). */
export function leerRecibo(texto: string): { id?: string; stat?: string } {
  const id = /id:(\S+)/i.exec(texto)?.[1];
  const stat = /stat:(\S+)/i.exec(texto)?.[1]?.toUpperCase();
  return { id, stat };
}

class CanalSmpp implements Canal {
  private sesion: Sesion | undefined;
  private conectando: Promise<Sesion> | undefined;
  private pendientes = new Map<number, (r: ResultadoEnvio) => void>();
  /** Deadline of each outstanding submit; one sweep a second instead of a timer per message. */
  private vencimientos = new Map<number, number>();
  private barrido: NodeJS.Timeout | undefined;
  private clave = 0;
  private enVentana = 0;
  private esperaVentana: (() => void)[] = [];
  private cerrado = false;
  /** The exercise's text encoded once (the package would detect and encode it per submit). */
  private textos = new Map<string, { short_message: Buffer; data_coding: number }>();
  private readonly host: string;
  private readonly port: number;
  private readonly origen: string;

  constructor(private readonly o: OpcionesCanal) {
    const u = new URL(o.equipo.url.includes('://') ? o.equipo.url : `smpp://${o.equipo.url}`);
    this.host = u.hostname;
    this.port = Number(u.port || 2775);
    this.origen = credencial(o.equipo.credenciales, 'smpp', 'source_addr');
  }

  private conectar(): Promise<Sesion> {
    if (this.sesion) return Promise.resolve(this.sesion);
    this.conectando ??= new Promise<Sesion>((resolve, reject) => {
      const s = smpp.connect({
        host: this.host,
        port: this.port,
        auto_enquire_link_period: this.o.config.enquireLinkS * 1000,
        noDelay: true,
      }) as unknown as Sesion;
      let listo = false;
      // Neither the TCP connect nor bind_transceiver has a deadline of its own: a gateway that
      // accepts the socket and never answers the bind would hold every send waiting for it.
      const plazo = setTimeout(() => {
        if (listo) return;
        caer('SMPP: sin respuesta al conectar');
        s.destroy();
      }, this.o.config.timeoutEnvioMs);
      plazo.unref();
      const caer = (motivo: string) => {
        clearTimeout(plazo);
        if (this.sesion === s) this.sesion = undefined;
        this.conectando = undefined;
        // Submits written but unanswered: the SMSC may have taken them.
        for (const [, fin] of [...this.pendientes]) fin({ tipo: 'incierto', motivo });
        this.pendientes.clear();
        this.vencimientos.clear();
        if (!listo) reject(new Error(motivo));
        listo = true;
      };
      s.on('error', (e) => caer(`SMPP: ${e.message ?? String(e)}`));
      s.on('close', () => caer('SMPP: conexión cerrada'));
      s.on('connect', () => {
        s.bind_transceiver(
          {
            system_id: credencial(this.o.equipo.credenciales, 'smpp', 'system_id'),
            password: credencial(this.o.equipo.credenciales, 'smpp', 'password'),
          },
          (pdu) => {
            clearTimeout(plazo);
            if (listo) return;
            if (pdu.command_status !== 0) {
              listo = true;
              this.conectando = undefined;
              s.destroy();
              reject(
                Object.assign(
                  new Error(
                    msg('credencialesEquipoInvalidas', {
                      alias: this.o.equipo.alias,
                      protocolo: 'SMPP',
                      detalle: `bind_transceiver 0x${pdu.command_status.toString(16)}`,
                    }),
                  ),
                  { credenciales: true },
                ),
              );
              return;
            }
            listo = true;
            this.sesion = s;
            this.conectando = undefined;
            resolve(s);
          },
        );
      });
      s.on('deliver_sm', (pdu) => {
        agrupar(s);
        s.send(pdu.response());
        this.recibo(pdu);
      });
      s.on('enquire_link', (pdu) => s.send(pdu.response()));
      s.on('unbind', (pdu) => {
        s.send(pdu.response());
        s.close();
      });
    });
    return this.conectando;
  }

  private recibo(pdu: Pdu): void {
    const sm = pdu.short_message;
    const texto = typeof sm === 'string' ? sm : sm?.message ? String(sm.message) : '';
    const leido = leerRecibo(texto);
    const id = pdu.receipted_message_id || leido.id;
    if (!id) return;
    const entregado = leido.stat ? leido.stat === 'DELIVRD' : pdu.message_state === 2;
    this.o.alRecibo({
      id_equipo: this.o.equipo.id_equipo,
      id_gateway: id,
      entregado,
      motivo: entregado ? undefined : `SMPP: ${leido.stat ?? `message_state ${pdu.message_state}`}`,
    });
  }

  /** short_message and data_coding of a text, as the package would choose them (detect, encode). */
  private codificado(texto: string): { short_message: Buffer; data_coding: number } {
    let c = this.textos.get(texto);
    if (!c) {
      const nombre = CODIFICACION.encodings.detect(texto);
      c = {
        short_message: CODIFICACION.encodings[nombre]!.encode(texto),
        data_coding: CODIFICACION.ENCODING[nombre]!,
      };
      if (this.textos.size >= 64) this.textos.clear();
      this.textos.set(texto, c);
    }
    return c;
  }

  private async ventana(): Promise<void> {
    while (this.enVentana >= this.o.config.ventanaSmpp) {
      await new Promise<void>((r) => this.esperaVentana.push(r));
    }
    this.enVentana++;
  }

  private liberarVentana(): void {
    this.enVentana--;
    this.esperaVentana.shift()?.();
  }

  private barrer(): void {
    const ahora = Date.now();
    for (const [clave, hasta] of this.vencimientos) {
      if (hasta > ahora) break;
      this.pendientes.get(clave)?.({ tipo: 'incierto', motivo: 'SMPP: submit_sm sin respuesta' });
      this.pendientes.delete(clave);
      this.vencimientos.delete(clave);
    }
  }

  async enviar(e: Envio): Promise<ResultadoEnvio> {
    this.barrido ??= setInterval(() => this.barrer(), 1000);
    this.barrido.unref();
    if (this.cerrado) return { tipo: 'reintentar', motivo: 'SMPP: canal cerrado' };
    let s = this.sesion;
    if (!s) {
      try {
        s = await this.conectar();
      } catch (err) {
        const e = err as Error & { credenciales?: boolean };
        return { tipo: 'reintentar', motivo: e.message, pausar: e.credenciales === true };
      }
    }
    // A free place in the window is taken at once, without a turn of the event loop.
    if (this.enVentana < this.o.config.ventanaSmpp && this.esperaVentana.length === 0)
      this.enVentana++;
    else await this.ventana();
    const texto = this.codificado(e.texto);
    try {
      return await new Promise<ResultadoEnvio>((resolve) => {
        const clave = ++this.clave;
        const fin = (r: ResultadoEnvio) => {
          this.pendientes.delete(clave);
          this.vencimientos.delete(clave);
          resolve(r);
        };
        this.vencimientos.set(clave, Date.now() + this.o.config.timeoutEnvioMs);
        this.pendientes.set(clave, fin);
        agrupar(s);
        const escrito = s.submit_sm(
          {
            destination_addr: e.telefono,
            source_addr: this.origen,
            registered_delivery: 1,
            short_message: texto.short_message,
            data_coding: texto.data_coding,
          },
          (pdu) => {
            if (pdu.command_status === 0)
              fin({ tipo: 'aceptado', id_gateway: String(pdu.message_id) });
            else if (INVALIDOS.has(pdu.command_status))
              fin({ tipo: 'invalido', motivo: `SMPP 0x${pdu.command_status.toString(16)}` });
            else if (TRANSITORIOS.has(pdu.command_status))
              fin({ tipo: 'reintentar', motivo: `SMPP 0x${pdu.command_status.toString(16)}` });
            else fin({ tipo: 'fallido', motivo: `SMPP 0x${pdu.command_status.toString(16)}` });
          },
        );
        if (!escrito) fin({ tipo: 'reintentar', motivo: 'SMPP: conexión no disponible' });
      });
    } finally {
      this.liberarVentana();
    }
  }

  async cerrar(): Promise<void> {
    this.cerrado = true;
    clearInterval(this.barrido);
    const s = this.sesion;
    this.sesion = undefined;
    if (!s) return;
    await new Promise<void>((r) => {
      const t = setTimeout(() => {
        s.destroy();
        r();
      }, 1000);
      s.unbind(() => {
        clearTimeout(t);
        s.close(() => r());
      });
    });
  }
}

registrarCanal('smpp', { crear: (o) => new CanalSmpp(o), idempotente: false });
