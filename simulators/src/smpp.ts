import type net from 'node:net';
import smpp from 'smpp';
import {
  comportamientoDe,
  NUMERO_VALIDO,
  esperar,
  type Comportamiento,
  type MensajeRecibido,
} from './comun.ts';

// An SMPP v3.4 SMSC on loopback (the `smpp` package's server): bind_transceiver with optional
// credentials, submit_sm answered with a message id, deliver_sm delivery receipts
// (registered_delivery), enquire_link, and an outage switch that drops every session and stops
// listening until it is switched back.

const E = smpp as unknown as Record<string, number> & { ESM_CLASS: Record<string, number> };

interface Pdu {
  command_status: number;
  system_id?: string;
  password?: string;
  destination_addr?: string;
  registered_delivery?: number;
  short_message?: string | { message?: string | Buffer };
  response(o?: object): object;
}
interface Sesion {
  on(ev: string, f: (p: Pdu) => void): void;
  send(p: object): boolean;
  deliver_sm(o: object, cb?: (p: Pdu) => void): boolean;
  pause(): void;
  resume(): void;
  destroy(): void;
  socket: { writable: boolean; remotePort?: number };
}

/** Options of the SMPP simulator. */
export interface OpcionesSmpp extends Partial<Comportamiento> {
  port?: number;
  host?: string;
  system_id?: string;
  password?: string;
}

const texto = (sm: Pdu['short_message']) =>
  typeof sm === 'string' ? sm : sm?.message !== undefined ? String(sm.message) : '';

const fechaSmpp = (ms: number) => {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}`;
};

/** A simulated SMSC. */
export class SimuladorSmpp {
  /** Every message accepted, in order. */
  readonly registro: MensajeRecibido[] = [];
  /** Current behaviour; change it with ajustar(). */
  readonly comportamiento: Comportamiento;
  private readonly servidor: net.Server & { sessions: Sesion[] };
  private port: number;
  private readonly host: string;
  private siguiente = 1;
  private readonly prefijo = Math.random().toString(36).slice(2, 6);

  constructor(private readonly o: OpcionesSmpp = {}) {
    this.comportamiento = comportamientoDe(o);
    this.port = o.port ?? 0;
    this.host = o.host ?? '127.0.0.1';
    this.servidor = smpp.createServer({}, (s) => this.sesion(s as Sesion)) as net.Server & {
      sessions: Sesion[];
    };
  }

  /** Port it listens on. */
  get puerto(): number {
    return this.port;
  }

  /** URL to put in a device's url field. */
  get url(): string {
    return `smpp://${this.host}:${this.port}`;
  }

  /** Starts listening; returns the port. */
  async iniciar(): Promise<number> {
    await new Promise<void>((res, rej) => {
      this.servidor.once('error', rej);
      this.servidor.listen(this.port, this.host, () => {
        this.servidor.off('error', rej);
        res();
      });
    });
    const a = this.servidor.address();
    if (a && typeof a === 'object') this.port = a.port;
    return this.port;
  }

  /** Changes behaviour at run time; `caido: true` drops every session and refuses connections. */
  async ajustar(c: Partial<Comportamiento>): Promise<void> {
    const antes = this.comportamiento.caido;
    Object.assign(this.comportamiento, c);
    if (c.caido === true && !antes) {
      await new Promise<void>((r) => {
        this.servidor.close(() => r());
        for (const s of [...this.servidor.sessions]) s.destroy();
      });
    } else if (c.caido === false && antes) {
      await this.iniciar();
    }
  }

  /** Stops listening and drops every session. */
  async detener(): Promise<void> {
    for (const s of [...this.servidor.sessions]) s.destroy();
    if (this.servidor.listening) await new Promise<void>((r) => this.servidor.close(() => r()));
  }

  private sesion(s: Sesion): void {
    let ligada = false;
    s.on('error', () => {});
    s.on('bind_transceiver', (pdu) => {
      const ok =
        (!this.o.system_id || pdu.system_id === this.o.system_id) &&
        (!this.o.password || pdu.password === this.o.password);
      if (!ok) {
        s.send(pdu.response({ command_status: E.ESME_RBINDFAIL }));
        return;
      }
      ligada = true;
      s.send(pdu.response({ system_id: 'pregon-sim' }));
    });
    s.on('enquire_link', (pdu) => s.send(pdu.response()));
    s.on('unbind', (pdu) => {
      s.send(pdu.response());
      s.destroy();
    });
    s.on('deliver_sm_resp', () => {});
    s.on('submit_sm', (pdu) => {
      if (!ligada) {
        s.send(pdu.response({ command_status: E.ESME_RINVBNDSTS }));
        return;
      }
      const c = this.comportamiento;
      const responder = () => {
        if (this.comportamiento.caido || !s.socket.writable) return;
        const destino = String(pdu.destination_addr ?? '');
        if (!NUMERO_VALIDO.test(destino)) {
          s.send(pdu.response({ command_status: E.ESME_RINVDSTADR }));
          return;
        }
        if (c.tasaFallo > 0 && Math.random() < c.tasaFallo) {
          s.send(pdu.response({ command_status: E.ESME_RSYSERR }));
          return;
        }
        const id = `${this.prefijo}${(this.siguiente++).toString(16)}`;
        const t = Date.now();
        const txt = texto(pdu.short_message);
        this.registro.push({
          id,
          telefono: destino,
          texto: txt,
          t,
          origen: String(s.socket.remotePort),
        });
        s.send(pdu.response({ message_id: id }));
        if (pdu.registered_delivery) {
          const enviarRecibo = () => {
            if (!s.socket.writable) return;
            const ahora = Date.now();
            s.deliver_sm({
              source_addr: destino,
              esm_class: E.ESM_CLASS.MC_DELIVERY_RECEIPT,
              short_message: `id:${id} sub:001 dlvrd:001 submit date:${fechaSmpp(t)} done date:${fechaSmpp(ahora)} stat:DELIVRD err:000 text:${txt.slice(0, 20)}`,
              receipted_message_id: id,
              message_state: 2,
            });
          };
          if (c.retrasoReciboMs > 0) setTimeout(enviarRecibo, c.retrasoReciboMs).unref();
          else enviarRecibo();
        }
      };
      if (c.latenciaMs > 0) void esperar(c.latenciaMs).then(responder);
      else responder();
    });
  }
}
