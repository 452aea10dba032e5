import type net from 'node:net';
import smpp from 'smpp';
import {
  analizarSms,
  rellenoTrasUdh,
  septetosEmpaquetados,
  septetosGsm,
  textoGsm,
} from '@pregon/contract/rules/sms';
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
// Replies (issue 46): enviarMo delivers a handset's message as MO deliver_sm (esm_class 0) in any
// coding, whole or in parts (UDH with an 8- or 16-bit reference, SAR TLVs, message_payload), held
// while the account has no session and resent while its deliver_sm_resp does not come or is an
// error, as SMSCs do.

const E = smpp as unknown as Record<string, number> & {
  ESM_CLASS: Record<string, number>;
  ESME_RINVSRCADR: number;
  ESME_RINVSRCTON: number;
  ESME_RINVSRCNPI: number;
  ESME_RINVDSTTON: number;
  ESME_RINVDSTNPI: number;
  ESME_RINVDSTADR: number;
  ESME_RINVSYSID: number;
  ESME_RINVPASWD: number;
  ESME_RALYBND: number;
  ESME_RTHROTTLED: number;
};

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
  enquire_link(o: object, cb?: (p: Pdu) => void): boolean;
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
  origen: string;
  origenTon: number;
  origenNpi: number;
  destino: string;
  destTon: number;
  destNpi: number;
  esm_class: number;
  data_coding: number;
  registered_delivery: number;
  /** validity_period as written ('' when absent; relative 'YYMMDDhhmmss000R'). */
  vigencia: string;
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
  const origenTon = octeto();
  const origenNpi = octeto();
  const origen = cadena();
  const destTon = octeto();
  const destNpi = octeto();
  const destino = cadena();
  const esm_class = octeto();
  o += 2;
  cadena(); // schedule_delivery_time
  const vigencia = cadena();
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
  return {
    origen,
    origenTon,
    origenNpi,
    destino,
    destTon,
    destNpi,
    esm_class,
    data_coding,
    registered_delivery,
    vigencia,
    corto,
    tlv,
  };
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

/**
 * What a strict SMSC says of a submit's addresses (SMPP 3.4 §5.2.5-6), 0 when it takes them.
 * Destination: international (TON 1, NPI 1), 8 to 15 digits without '+'. Source: empty (TON/NPI
 * 0/0: the account's own), alphanumeric (TON 5, NPI 0, up to 11 characters), a short code
 * (TON 3, NPI 0, up to 8 digits) or an international number (TON 1, NPI 1).
 */
export function validarDirecciones(sub: SubmitCrudo): number {
  const o = sub.origen;
  if (o === '') {
    if (sub.origenTon !== 0) return E.ESME_RINVSRCTON;
    if (sub.origenNpi !== 0) return E.ESME_RINVSRCNPI;
  } else if (/[^0-9]/.test(o)) {
    if (sub.origenTon !== 5) return E.ESME_RINVSRCTON;
    if (sub.origenNpi !== 0) return E.ESME_RINVSRCNPI;
    if (o.length > 11) return E.ESME_RINVSRCADR;
  } else if (sub.origenTon === 3) {
    if (sub.origenNpi !== 0) return E.ESME_RINVSRCNPI;
    if (o.length > 8) return E.ESME_RINVSRCADR;
  } else if (sub.origenTon === 1) {
    if (sub.origenNpi !== 1) return E.ESME_RINVSRCNPI;
    if (!/^\d{8,15}$/.test(o)) return E.ESME_RINVSRCADR;
  } else return E.ESME_RINVSRCTON;
  if (sub.destTon !== 1) return E.ESME_RINVDSTTON;
  if (sub.destNpi !== 1) return E.ESME_RINVDSTNPI;
  if (!/^\d{8,15}$/.test(sub.destino)) return E.ESME_RINVDSTADR;
  return 0;
}

/** message_state (SMPP 3.4 §5.2.28) of each receipt stat. */
const ESTADOS: Record<string, number> = {
  ENROUTE: 1,
  DELIVRD: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIV: 5,
  ACCEPTD: 6,
  UNKNOWN: 7,
  REJECTD: 8,
};

/** How the simulator writes ids and delivery receipts, the ways real SMSCs differ. */
export interface OpcionesRecibo {
  /** submit_sm_resp message_id: 'hex' (8 upper-case digits with leading zeros, e.g. 0000002A),
   * 'decimal', or the default: a random prefix and a counter. */
  idSubmit?: 'hex' | 'decimal';
  /** The receipt text's `id:`: the submit's number in 'decimal' (10 digits, leading zeros, as
   * SMPP 3.4 appendix B shows it) or 'hex' (lower case, no zeros); default as answered. */
  idRecibo?: 'decimal' | 'hex';
  /** No receipted_message_id or message_state TLVs: only the text says which message. */
  sinTlv?: boolean;
  /** The receipt text in message_payload, short_message empty. */
  enPayload?: boolean;
  /** stat of every receipt (default DELIVRD), and its err. */
  stat?: string;
  err?: string;
  /** esm_class of receipts (default 0x04, SMSC delivery receipt). */
  esmClass?: number;
}

/** A reply as a handset sends it (issue 46), delivered by the simulator as MO deliver_sm. */
export interface MoSimulado {
  /** The sender: international digits (TON 1, NPI 1), as SMSCs give a handset's number. */
  de: string;
  /** The account's number it was sent to (destination_addr; default empty). */
  a?: string;
  texto: string;
  /** 0 (GSM-7, one septet per octet), 3 (Latin-1), 8 (UCS-2) or any other (then `octetos`);
   * default 0 when the text is GSM-7, else 8. */
  data_coding?: number;
  /** The content's octets as they go (a coding the simulator does not write, hostile bytes). */
  octetos?: Buffer;
  /** A long reply: a UDH with an 8- or 16-bit reference, SAR TLVs, or one message_payload. */
  concatenacion?: 'udh8' | 'udh16' | 'sar' | 'payload';
  /** Characters per part of a long reply (default 153 GSM-7, 67 UCS-2). */
  porParte?: number;
  /** The concatenation reference (default a counter). */
  ref?: number;
  /** The account whose session gets it (default any bound session). */
  cuenta?: string;
}

/** The deliver_sm fields of each part of an MO. */
export function pdusMo(mo: MoSimulado, ref: number): object[] {
  const dc = mo.data_coding ?? (analizarSms(mo.texto).codificacion === 'GSM-7' ? 0 : 8);
  const codificar = (t: string): Buffer =>
    mo.octetos
      ? mo.octetos
      : dc === 0 || dc === 1
        ? Buffer.from(septetosGsm(t))
        : dc === 8
          ? Buffer.from(t, 'utf16le').swap16()
          : Buffer.from(t, 'latin1');
  const base = {
    source_addr: mo.de,
    source_addr_ton: 1,
    source_addr_npi: 1,
    destination_addr: mo.a ?? '',
    esm_class: 0,
    data_coding: dc,
  };
  if (!mo.concatenacion) return [{ ...base, short_message: codificar(mo.texto) }];
  if (mo.concatenacion === 'payload')
    return [{ ...base, short_message: Buffer.alloc(0), message_payload: codificar(mo.texto) }];
  const n = mo.porParte ?? (dc === 8 ? 67 : 153);
  const cps = [...mo.texto];
  const textos: string[] = [];
  for (let i = 0; i < cps.length; i += n) textos.push(cps.slice(i, i + n).join(''));
  const total = textos.length;
  return textos.map((t, i) => {
    const cuerpo = codificar(t);
    if (mo.concatenacion === 'sar')
      return {
        ...base,
        short_message: cuerpo,
        sar_msg_ref_num: ref & 0xffff,
        sar_total_segments: total,
        sar_segment_seqnum: i + 1,
      };
    const udh =
      mo.concatenacion === 'udh16'
        ? Buffer.from([0x06, 0x08, 0x04, (ref >> 8) & 0xff, ref & 0xff, total, i + 1])
        : Buffer.from([0x05, 0x00, 0x03, ref & 0xff, total, i + 1]);
    return { ...base, esm_class: 0x40, short_message: Buffer.concat([udh, cuerpo]) };
  });
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
  /** Addresses checked like a strict SMSC (validarDirecciones); false takes any TON/NPI and a
   * destination of 8 to 15 digits with or without '+'. Default true. */
  estricto?: boolean;
  /** Live sessions one system_id may hold; a bind beyond answers RALYBND (default unlimited). */
  maxBinds?: number;
  /** Ids and receipts as some SMSC writes them. */
  recibos?: OpcionesRecibo;
  /** Submits taken per second; beyond, RTHROTTLED (default unlimited). */
  maxPorSegundo?: number;
  /** Number of the first message id (default 1). */
  primerId?: number;
  /** SMPP over TLS (ssmpp://): the server's PEM key and certificate. */
  tls?: { key: string; cert: string };
  /** How long an MO waits for its deliver_sm_resp, and between resends (default 300 ms). */
  reintentoMoMs?: number;
  /** How long a receipt answered with an error waits before it is delivered again (5 s). */
  reintentoReciboMs?: number;
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
  /** Every submit_sm read from a bound session, answered or not (its session may close before
   * the simulated latency ends, and then it is neither accepted nor refused): the witness that a
   * message reached the SMSC. */
  readonly submitsLeidos: { destino: string; t: number }[] = [];
  /** validity_period of every submit accepted, in order ('' when it had none). */
  readonly vigencias: string[] = [];
  /** Every bind received: who, the system_type and the interface_version it announced. */
  readonly binds: { system_id: string; system_type: string; interface_version: number }[] = [];
  /** Submits taken per calendar second (all sessions); beyond, RTHROTTLED. Change at run time. */
  maxPorSegundo: number | undefined;
  /** Submits answered RTHROTTLED. */
  estrangulados = 0;
  private segundo = 0;
  private enSegundo = 0;
  /** False: enquire_link goes unanswered, like a half-open link; change it at run time. */
  responderEnquireLink = true;
  /** How ids and receipts are written; change it at run time. */
  recibos: OpcionesRecibo;
  /** Live sessions one system_id may hold (RALYBND beyond); change it at run time. */
  maxBinds: number | undefined;
  /** Live bound sessions by system_id. */
  private readonly ligadas = new Map<string, number>();
  /** Submits refused for their addresses: the command_status, source and destination. */
  readonly rechazos: { estado: number; origen: string; destino: string }[] = [];
  /** The part that fails in every concatenated message, if any; change it at run time. */
  fallarParte: FalloParte | undefined;
  /** Bound sessions and their system_id: a receipt goes to any session of its account. */
  private readonly cuentaDe = new WeakMap<Sesion, string>();
  /** Receipts held for an account with no session bound, delivered at its next bind (as SMSCs
   * store and forward them). */
  private readonly retenidos = new Map<string, object[]>();

  constructor(private readonly o: OpcionesSmpp = {}) {
    this.comportamiento = comportamientoDe(o);
    this.port = o.port ?? 0;
    this.host = o.host ?? '127.0.0.1';
    this.fallarParte = o.fallarParte;
    this.maxBinds = o.maxBinds;
    this.maxPorSegundo = o.maxPorSegundo;
    this.siguiente = o.primerId ?? 1;
    this.recibos = { ...o.recibos };
    this.servidor = smpp.createServer(o.tls ?? {}, (s) =>
      this.sesion(s as Sesion),
    ) as net.Server & {
      sessions: Sesion[];
    };
  }

  /** Port it listens on. */
  get puerto(): number {
    return this.port;
  }

  /** URL to put in a device's url field. */
  get url(): string {
    return `${this.o.tls ? 'ssmpp' : 'smpp'}://${this.host}:${this.port}`;
  }

  /** Starts listening; returns the port. */
  async iniciar(): Promise<number> {
    this.parado = false;
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

  /** MO deliver_sm written (resends included), answered with an error status, and taken. */
  readonly mo = { intentos: 0, rechazados: 0, entregados: 0 };
  private moRef = 0;
  private parado = false;

  /**
   * Delivers a reply as SMSCs do: each part as an MO deliver_sm to a bound session of the account
   * (held while none is bound), resent after `reintentoMoMs` while its deliver_sm_resp does not
   * come or is an error. Resolves once every part was taken (or the simulator stops).
   */
  async enviarMo(mo: MoSimulado): Promise<void> {
    const ref = mo.ref ?? (this.moRef = (this.moRef + 1) & 0xffff);
    for (const campos of pdusMo(mo, ref)) await this.entregarMo(campos, mo.cuenta);
  }

  /** One MO part, until a session takes it. */
  private async entregarMo(campos: object, cuenta: string | undefined): Promise<void> {
    const plazo = this.o.reintentoMoMs ?? 300;
    while (!this.parado) {
      const s = this.servidor.sessions.find(
        (x) =>
          x.socket.writable &&
          this.cuentaDe.has(x) &&
          (cuenta === undefined || this.cuentaDe.get(x) === cuenta),
      );
      if (!s) {
        await esperar(20);
        continue;
      }
      this.mo.intentos++;
      const estado = await new Promise<number | undefined>((ok) => {
        const t = setTimeout(() => ok(undefined), plazo);
        const escrito = s.deliver_sm(campos, (p) => {
          clearTimeout(t);
          ok(p.command_status);
        });
        if (!escrito) {
          clearTimeout(t);
          ok(undefined);
        }
      });
      if (estado === 0) {
        this.mo.entregados++;
        return;
      }
      if (estado !== undefined) this.mo.rechazados++;
      await esperar(plazo);
    }
  }

  /** Sends a deliver_sm of the caller's making to every session (a receipt for nobody, an MO). */
  enviarDeliver(campos: object): void {
    for (const s of this.servidor.sessions) if (s.socket.writable) s.deliver_sm(campos);
  }

  /** Sends enquire_link on every session, as SMSCs do; resolves with how many answered within
   * `ms`. */
  async sondear(ms = 1000): Promise<number> {
    const vivas = this.servidor.sessions.filter((s) => s.socket.writable);
    const r = await Promise.all(
      vivas.map(
        (s) =>
          new Promise<boolean>((ok) => {
            const t = setTimeout(() => ok(false), ms);
            s.enquire_link({}, () => {
              clearTimeout(t);
              ok(true);
            });
          }),
      ),
    );
    return r.filter(Boolean).length;
  }

  /** Stops listening and drops every session. */
  async detener(): Promise<void> {
    this.parado = true;
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
      // Like a real SMSC: an unknown account is RINVSYSID, a wrong password RINVPASWD, a second
      // bind on the session or one beyond the account's sessions RALYBND.
      const cuenta = String(pdu.system_id ?? '');
      let estado = 0;
      if (this.o.system_id && cuenta !== this.o.system_id) estado = E.ESME_RINVSYSID;
      else if (this.o.password && pdu.password !== this.o.password) estado = E.ESME_RINVPASWD;
      else if (ligada) estado = E.ESME_RALYBND;
      else if (this.maxBinds !== undefined && (this.ligadas.get(cuenta) ?? 0) >= this.maxBinds)
        estado = E.ESME_RALYBND;
      if (estado !== 0) {
        s.send(pdu.response({ command_status: estado }));
        return;
      }
      ligada = true;
      this.ligadas.set(cuenta, (this.ligadas.get(cuenta) ?? 0) + 1);
      this.cuentaDe.set(s, cuenta);
      s.on('close', () => this.ligadas.set(cuenta, (this.ligadas.get(cuenta) ?? 1) - 1));
      s.send(pdu.response({ system_id: 'pregon-sim' }));
      const retenidos = this.retenidos.get(cuenta);
      this.retenidos.delete(cuenta);
      for (const r of retenidos ?? []) this.entregar(s, r);
    });
    s.on('enquire_link', (pdu) => {
      if (this.responderEnquireLink) s.send(pdu.response());
    });
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
      if (sub) this.submitsLeidos.push({ destino: sub.destino, t: Date.now() });
      const responder = () => {
        if (this.comportamiento.caido || !s.socket.writable || !sub) return;
        const estado =
          this.o.estricto === false
            ? NUMERO_VALIDO.test(sub.destino)
              ? 0
              : E.ESME_RINVDSTADR
            : validarDirecciones(sub);
        if (estado !== 0) {
          this.rechazos.push({ estado, origen: sub.origen, destino: sub.destino });
          s.send(pdu.response({ command_status: estado }));
          return;
        }
        // What a handset shows: an international number with its '+'.
        const destino = sub.destTon === 1 ? `+${sub.destino}` : sub.destino;
        if (c.tasaFallo > 0 && Math.random() < c.tasaFallo) {
          s.send(pdu.response({ command_status: E.ESME_RSYSERR }));
          return;
        }
        // The account's rate, as SMSCs enforce it: beyond it, RTHROTTLED (nothing sent).
        const segundo = Math.floor(Date.now() / 1000);
        if (segundo !== this.segundo) [this.segundo, this.enSegundo] = [segundo, 0];
        if (this.maxPorSegundo !== undefined && this.enSegundo >= this.maxPorSegundo) {
          this.estrangulados++;
          s.send(pdu.response({ command_status: E.ESME_RTHROTTLED }));
          return;
        }
        this.enSegundo++;
        const parte = leerParte(sub, this.o.gsmEmpaquetado === true);
        const falla = parte.total > 1 && this.fallarParte?.parte === parte.seq;
        if (falla && this.fallarParte?.como !== 'recibo') {
          const st = this.fallarParte?.como === 'submit' ? E.ESME_RSUBMITFAIL : E.ESME_RTHROTTLED;
          s.send(pdu.response({ command_status: st }));
          return;
        }
        const n = this.siguiente++;
        const r = this.recibos;
        const id =
          r.idSubmit === 'hex'
            ? n.toString(16).toUpperCase().padStart(8, '0')
            : r.idSubmit === 'decimal'
              ? String(n)
              : `${this.prefijo}${n.toString(16)}`;
        const t = Date.now();
        this.partesAceptadas++;
        this.vigencias.push(sub.vigencia);
        const txt = this.reunir(parte, destino, String(s.socket.remotePort), id, t);
        s.send(pdu.response({ message_id: id }));
        if (sub.registered_delivery) {
          const stat = falla ? 'UNDELIV' : (r.stat ?? 'DELIVRD');
          // The id as the receipt text quotes it: as answered, or its number in another base.
          const idTexto =
            r.idRecibo === 'decimal'
              ? String(n).padStart(10, '0')
              : r.idRecibo === 'hex'
                ? n.toString(16)
                : id;
          const enviarRecibo = () => {
            const ahora = Date.now();
            const texto = `id:${idTexto} sub:001 dlvrd:${stat === 'DELIVRD' ? '001' : '000'} submit date:${fechaSmpp(t)} done date:${fechaSmpp(ahora)} stat:${stat} err:${r.err ?? '000'} text:${txt.slice(0, 20)}`;
            this.entregar(s, {
              source_addr: sub.destino,
              source_addr_ton: sub.destTon,
              source_addr_npi: sub.destNpi,
              esm_class: r.esmClass ?? E.ESM_CLASS.MC_DELIVERY_RECEIPT,
              ...(r.enPayload
                ? { short_message: '', message_payload: Buffer.from(texto, 'latin1') }
                : { short_message: texto }),
              ...(r.sinTlv ? {} : { receipted_message_id: id, message_state: ESTADOS[stat] ?? 7 }),
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

  /**
   * Delivers a receipt as SMSCs store and forward them (SMPP 3.4 §4.6.2: the deliver_sm_resp is
   * the ESME's acknowledgement): on the session that submitted, else on another bound session of
   * the same account, else held until the account binds again. A receipt whose session closes
   * before it was answered is held for the next bind too (the ESME died with it); one answered
   * with an error is delivered again after `reintentoReciboMs`.
   */
  private entregar(s: Sesion | undefined, recibo: object, cuentaDada?: string): void {
    const cuenta = cuentaDada ?? (s ? this.cuentaDe.get(s) : undefined) ?? '';
    const viva = s?.socket.writable
      ? s
      : this.servidor.sessions.find((x) => this.cuentaDe.get(x) === cuenta && x.socket.writable);
    if (!viva) {
      this.retenidos.set(cuenta, [...(this.retenidos.get(cuenta) ?? []), recibo]);
      return;
    }
    let respondido = false;
    const alCerrar = () => {
      if (respondido || this.parado) return;
      respondido = true;
      this.recibosReenviados++;
      this.entregar(undefined, recibo, cuenta);
    };
    let sinRespuesta = this.sinRespuesta.get(viva);
    if (!sinRespuesta) {
      const pendientes = (sinRespuesta = new Set());
      this.sinRespuesta.set(viva, pendientes);
      viva.on('close', () => {
        for (const f of pendientes) f();
        pendientes.clear();
      });
    }
    sinRespuesta.add(alCerrar);
    this.recibosEscritos++;
    viva.deliver_sm(recibo, (p) => {
      sinRespuesta.delete(alCerrar);
      if (respondido) return;
      respondido = true;
      if (p.command_status === 0) {
        this.recibosRespondidos++;
        return;
      }
      setTimeout(() => {
        if (this.parado) return;
        this.recibosReenviados++;
        this.entregar(undefined, recibo, cuenta);
      }, this.o.reintentoReciboMs ?? 5_000).unref();
    });
  }

  /** Per session, its receipts not answered yet: delivered again if it closes first. */
  private readonly sinRespuesta = new WeakMap<Sesion, Set<() => void>>();
  /** Receipts written to a session (each delivery, re-deliveries included). */
  recibosEscritos = 0;
  /** Receipts answered with status 0 (the ESME took them). */
  recibosRespondidos = 0;
  /** Receipts delivered again: their session closed unanswered, or they were refused. */
  recibosReenviados = 0;

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
