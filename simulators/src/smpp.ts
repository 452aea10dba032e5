import type net from 'node:net';
import smpp from 'smpp';
import { rellenoTrasUdh, septetosEmpaquetados, textoGsm } from '@pregon/contract/rules/sms';
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
// listening until it is switched back. Texts are read from the PDU's own octets (the package's
// decoding guesses): data_coding 0 as GSM-7 (unpacked, or packed when `gsmEmpaquetado`), 1 as
// unpacked GSM-7, 3 as Latin-1, 8 as UCS-2; concatenated parts (UDH IEI 0x00/0x08, SAR TLVs) are
// reassembled and `registro` holds the text a handset would show, once every part is in.

const E = smpp as unknown as Record<string, number> & { ESM_CLASS: Record<string, number> };

interface Pdu {
  command_status: number;
  sequence_number?: number;
  system_id?: string;
  password?: string;
  system_type?: string;
  interface_version?: number;
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
  socket: {
    writable: boolean;
    remotePort?: number;
    read(n?: number): Buffer | null;
  };
}

/** How the simulator makes one part fail: its submit refused (for good, or throttled), or its receipt undeliverable. */
export interface FalloParte {
  parte: number;
  como: 'submit' | 'throttling' | 'recibo';
}

/** The fields of a submit_sm the simulator reads from its octets. */
interface SubmitCrudo {
  destino: string;
  esm_class: number;
  data_coding: number;
  registered_delivery: number;
  corto: Buffer;
  tlv: Map<number, Buffer>;
}

/** Reads a submit_sm body (the octets after command_length) as the wire has it. */
export function leerSubmit(b: Buffer): SubmitCrudo {
  let o = 16;
  const cadena = () => {
    const fin = b.indexOf(0, o);
    const t = b.toString('latin1', o, fin);
    o = fin + 1;
    return t;
  };
  const octeto = () => b[o++]!;
  cadena(); // service_type
  o += 2;
  cadena(); // source_addr
  o += 2;
  const destino = cadena();
  const esm_class = octeto();
  o += 2;
  cadena(); // schedule_delivery_time
  cadena(); // validity_period
  const registered_delivery = octeto();
  o += 1;
  const data_coding = octeto();
  o += 1;
  const largo = octeto();
  const corto = b.subarray(o, o + largo);
  o += largo;
  const tlv = new Map<number, Buffer>();
  while (o + 4 <= b.length) {
    const tag = b.readUInt16BE(o);
    const n = b.readUInt16BE(o + 2);
    tlv.set(tag, b.subarray(o + 4, o + 4 + n));
    o += 4 + n;
  }
  return { destino, esm_class, data_coding, registered_delivery, corto, tlv };
}

const TLV_SAR_REF = 0x020c;
const TLV_SAR_TOTAL = 0x020e;
const TLV_SAR_SEQ = 0x020f;
const TLV_PAYLOAD = 0x0424;

/** One part as read: its concatenation place (total 1 when alone) and its decoded payload. */
interface ParteLeida {
  ref: number;
  total: number;
  seq: number;
  data_coding: number;
  /** GSM-7 septets, or octets for Latin-1 and UCS-2. */
  contenido: number[] | Buffer;
}

/** Splits a submit into its concatenation header and payload, decoded as data_coding says. */
export function leerParte(sub: SubmitCrudo, gsmEmpaquetado: boolean): ParteLeida {
  let cuerpo = sub.tlv.get(TLV_PAYLOAD) ?? sub.corto;
  let ref = 0;
  let total = 1;
  let seq = 1;
  let udh = 0;
  if (sub.esm_class & 0x40 && cuerpo.length > 0) {
    udh = cuerpo[0]! + 1;
    for (let i = 1; i < udh;) {
      const iei = cuerpo[i]!;
      const n = cuerpo[i + 1]!;
      if (iei === 0x00) [ref, total, seq] = [cuerpo[i + 2]!, cuerpo[i + 3]!, cuerpo[i + 4]!];
      if (iei === 0x08)
        [ref, total, seq] = [cuerpo.readUInt16BE(i + 2), cuerpo[i + 4]!, cuerpo[i + 5]!];
      i += 2 + n;
    }
  } else if (sub.tlv.has(TLV_SAR_TOTAL)) {
    ref = sub.tlv.get(TLV_SAR_REF)?.readUInt16BE(0) ?? 0;
    total = sub.tlv.get(TLV_SAR_TOTAL)![0]!;
    seq = sub.tlv.get(TLV_SAR_SEQ)?.[0] ?? 1;
  }
  const dc = sub.data_coding;
  let contenido: number[] | Buffer;
  if (dc === 0 && gsmEmpaquetado)
    contenido = septetosEmpaquetados(cuerpo, udh ? rellenoTrasUdh(udh) : 0);
  else {
    cuerpo = cuerpo.subarray(udh);
    contenido = dc === 0 || dc === 1 ? [...cuerpo] : Buffer.from(cuerpo);
  }
  return { ref, total, seq, data_coding: dc, contenido };
}

/** The text a handset shows for the parts of one message, in order. */
export function textoDePartes(partes: ParteLeida[]): string {
  const dc = partes[0]!.data_coding;
  if (dc === 0 || dc === 1) return textoGsm(partes.flatMap((p) => p.contenido as number[]));
  const octetos = Buffer.concat(partes.map((p) => p.contenido as Buffer));
  if (dc === 8) return Buffer.from(octetos).swap16().toString('utf16le');
  return octetos.toString('latin1');
}

/** Options of the SMPP simulator. */
export interface OpcionesSmpp extends Partial<Comportamiento> {
  port?: number;
  host?: string;
  system_id?: string;
  password?: string;
  /** data_coding 0 arrives packed 8 septets in 7 octets (default: one septet per octet). */
  gsmEmpaquetado?: boolean;
  /** Makes that part of every concatenated message fail. */
  fallarParte?: FalloParte;
}

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
  /** Parts of concatenated messages waiting for the rest, by session, addresses and reference. */
  private readonly enCurso = new Map<string, { partes: ParteLeida[]; ids: string[] }>();
  /** Submits accepted (a concatenated text counts one per part). */
  partesAceptadas = 0;
  /** Every bind received: who, the system_type and the interface_version it announced. */
  readonly binds: { system_id: string; system_type: string; interface_version: number }[] = [];
  /** The part that fails in every concatenated message, if any; change it at run time. */
  fallarParte: FalloParte | undefined;

  constructor(private readonly o: OpcionesSmpp = {}) {
    this.comportamiento = comportamientoDe(o);
    this.port = o.port ?? 0;
    this.host = o.host ?? '127.0.0.1';
    this.fallarParte = o.fallarParte;
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
    // The package decodes short_message by guessing; keep each PDU's octets to read them as sent.
    let crudo: Buffer | null = null;
    const leer = s.socket.read.bind(s.socket);
    s.socket.read = (n?: number) => {
      const b = leer(n);
      if (b && n !== 4) crudo = b;
      return b;
    };
    s.on('error', () => {});
    s.on('bind_transceiver', (pdu) => {
      this.binds.push({
        system_id: String(pdu.system_id ?? ''),
        system_type: String(pdu.system_type ?? ''),
        interface_version: Number(pdu.interface_version ?? 0),
      });
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
      const sub = crudo ? leerSubmit(Buffer.concat([Buffer.alloc(4), crudo])) : undefined;
      const responder = () => {
        if (this.comportamiento.caido || !s.socket.writable || !sub) return;
        const destino = sub.destino;
        if (!NUMERO_VALIDO.test(destino)) {
          s.send(pdu.response({ command_status: E.ESME_RINVDSTADR }));
          return;
        }
        if (c.tasaFallo > 0 && Math.random() < c.tasaFallo) {
          s.send(pdu.response({ command_status: E.ESME_RSYSERR }));
          return;
        }
        const parte = leerParte(sub, this.o.gsmEmpaquetado === true);
        const falla = parte.total > 1 && this.fallarParte?.parte === parte.seq;
        if (falla && this.fallarParte?.como !== 'recibo') {
          const st = this.fallarParte?.como === 'submit' ? E.ESME_RSUBMITFAIL : E.ESME_RTHROTTLED;
          s.send(pdu.response({ command_status: st }));
          return;
        }
        const id = `${this.prefijo}${(this.siguiente++).toString(16)}`;
        const t = Date.now();
        this.partesAceptadas++;
        const txt = this.reunir(parte, destino, String(s.socket.remotePort), id, t);
        s.send(pdu.response({ message_id: id }));
        if (sub.registered_delivery) {
          const stat = falla ? 'UNDELIV' : 'DELIVRD';
          const enviarRecibo = () => {
            if (!s.socket.writable) return;
            const ahora = Date.now();
            s.deliver_sm({
              source_addr: destino,
              esm_class: E.ESM_CLASS.MC_DELIVERY_RECEIPT,
              short_message: `id:${id} sub:001 dlvrd:${falla ? '000' : '001'} submit date:${fechaSmpp(t)} done date:${fechaSmpp(ahora)} stat:${stat} err:000 text:${txt.slice(0, 20)}`,
              receipted_message_id: id,
              message_state: falla ? 5 : 2,
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

  /** Adds a part to its message; records the message when it is complete. Returns the part's text
   * as far as it can be read alone (the receipt quotes it). */
  private reunir(p: ParteLeida, destino: string, origen: string, id: string, t: number): string {
    if (p.total <= 1) {
      const texto = textoDePartes([p]);
      this.registro.push({ id, telefono: destino, texto, t, origen, partes: 1 });
      return texto;
    }
    const clave = `${origen}|${destino}|${p.ref}|${p.total}`;
    let m = this.enCurso.get(clave);
    if (!m) this.enCurso.set(clave, (m = { partes: [], ids: [] }));
    m.partes[p.seq - 1] = p;
    m.ids[p.seq - 1] = id;
    const n = m.partes.filter(Boolean).length;
    if (n === p.total) {
      this.enCurso.delete(clave);
      this.registro.push({
        id: `${m.ids[0]}+${p.total - 1}`,
        telefono: destino,
        texto: textoDePartes(m.partes),
        t,
        origen,
        partes: p.total,
      });
    }
    return p.data_coding === 8 ? '' : textoDePartes([p]);
  }
}
