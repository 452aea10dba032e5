import smpp from 'smpp';
import { msg } from '@pregon/contract/messages';
import {
  analizarSms,
  empaquetarGsm,
  MAX_PARTES_SMS,
  rellenoTrasUdh,
  septetosGsm,
} from '@pregon/contract/rules/sms';
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
// Texts are encoded by the contract's SMS rule: GSM-7 as data_coding 0 (or 1/3 per device), else
// UCS-2 as 8; a long text goes as parts (UDH, SAR TLVs or one message_payload, per device), each
// its own submit and receipt, and the recipient's outcome is that of all its parts together.

const ESME = smpp as unknown as Record<string, number>;
/** Statuses after which the same submit may be sent again (the SMSC did not take it). */
const TRANSITORIOS = new Set([
  ESME.ESME_RTHROTTLED,
  ESME.ESME_RMSGQFUL,
  ESME.ESME_RSYSERR,
  ESME.ESME_RX_T_APPN,
]);
/** How a device wants long texts: a UDH in each part, SAR TLVs, or the whole text in message_payload. */
type Concatenacion = 'udh' | 'sar' | 'payload';
/** The per-device SMPP options read from the device's credentials (`smpp` section). */
interface OpcionesSmpp {
  /** data_coding of GSM-7 texts: 0 (SMSC default alphabet), 1 (IA5, septets unpacked) or 3 (Latin-1). */
  dataCodingGsm: 0 | 1 | 3;
  /** GSM-7 septets packed 8 in 7 octets under data_coding 0 (some SMSCs want them packed). */
  empaquetado: boolean;
  concatenacion: Concatenacion;
  /** interface_version announced at bind: 0x34 (SMPP v3.4) unless the device says otherwise. */
  versionInterfaz: number;
}
/** The fields of one submit_sm a text needs, without the per-message UDH reference. */
interface ParteCodificada {
  cuerpo: Buffer;
  data_coding: number;
}
/** A text encoded once for the device: its parts' bodies, and whether they carry a UDH. */
interface TextoCodificado {
  partes: ParteCodificada[];
  concatenacion: Concatenacion;
}
/** What one part's submit got. */
type ResultadoParte =
  | { tipo: 'aceptado'; id: string }
  | { tipo: 'reintentar' | 'invalido' | 'fallido' | 'incierto'; motivo: string };
/** A multi-part message waiting for its parts' receipts; `clave` is the row's id_gateway. */
interface Grupo {
  clave: string;
  total: number;
  entregadas: number;
  ids: string[];
  terminado: boolean;
  hasta: number;
}
/** How long the receipts of a multi-part message are waited for (SMSC validity is usually 48 h). */
const ESPERA_RECIBOS_MS = 72 * 3_600_000;

/** Reads the device's SMPP options; an unknown value falls back to the default. */
function opcionesDe(c: Record<string, unknown>): OpcionesSmpp {
  const dc = Number(credencial(c, 'smpp', 'data_coding') || 0);
  const conc = credencial(c, 'smpp', 'concatenacion');
  const emp = credencial(c, 'smpp', 'gsm_empaquetado');
  const version = Number(credencial(c, 'smpp', 'interface_version') || 0x34);
  return {
    versionInterfaz: Number.isInteger(version) && version >= 0 && version <= 0xff ? version : 0x34,
    dataCodingGsm: dc === 1 || dc === 3 ? dc : 0,
    empaquetado: emp === 'true' || emp === '1',
    concatenacion: conc === 'sar' || conc === 'payload' ? conc : 'udh',
  };
}

/** UCS-2 octets of a text (UTF-16BE; characters outside the BMP as their surrogate pair). */
const ucs2 = (t: string) => Buffer.from(t, 'utf16le').swap16();
/** True when every character of a text is in Latin-1. */
const esLatin1 = (t: string) => [...t].every((c) => c.charCodeAt(0) <= 0xff && c.length === 1);

/** The parts of a text as this device wants them sent. */
export function codificarTexto(
  texto: string,
  o: OpcionesSmpp = {
    dataCodingGsm: 0,
    empaquetado: false,
    concatenacion: 'udh',
    versionInterfaz: 0x34,
  },
): TextoCodificado {
  const a = analizarSms(texto);
  const gsm = a.codificacion === 'GSM-7' && (o.dataCodingGsm !== 3 || esLatin1(texto));
  const dc = gsm ? o.dataCodingGsm : 8;
  const una = (t: string, conUdh: boolean): Buffer => {
    if (!gsm) return ucs2(t);
    if (dc === 3) return Buffer.from(t, 'latin1');
    const s = septetosGsm(t);
    if (dc === 0 && o.empaquetado)
      return Buffer.from(empaquetarGsm(s, conUdh ? rellenoTrasUdh(6) : 0));
    return Buffer.from(s);
  };
  if (a.partes <= 1 || o.concatenacion === 'payload')
    return {
      partes: [{ cuerpo: una(texto, false), data_coding: dc }],
      concatenacion: a.partes <= 1 ? 'udh' : 'payload',
    };
  if (a.partes > MAX_PARTES_SMS) throw new Error(`SMPP: ${a.partes} partes (máximo 255)`);
  return {
    partes: a.textos.map((t) => ({
      cuerpo: una(t, o.concatenacion === 'udh'),
      data_coding: dc,
    })),
    concatenacion: o.concatenacion,
  };
}
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
  private pendientes = new Map<number, (r: ResultadoParte) => void>();
  /** Deadline of each outstanding submit; one sweep a second instead of a timer per message. */
  private vencimientos = new Map<number, number>();
  private barrido: NodeJS.Timeout | undefined;
  private clave = 0;
  private enVentana = 0;
  private esperaVentana: (() => void)[] = [];
  private cerrado = false;
  /** The exercise's text encoded once (the package would detect and encode it per submit). */
  private textos = new Map<string, TextoCodificado>();
  /** Multi-part messages by part id, until every part's receipt is in. */
  private grupos = new Map<string, Grupo>();
  /** 8-bit reference of the next concatenated message. */
  private referencia = Math.floor(Math.random() * 256);
  private readonly host: string;
  private readonly port: number;
  private readonly origen: string;
  private readonly opciones: OpcionesSmpp;

  constructor(private readonly o: OpcionesCanal) {
    const u = new URL(o.equipo.url.includes('://') ? o.equipo.url : `smpp://${o.equipo.url}`);
    this.host = u.hostname;
    this.port = Number(u.port || 2775);
    this.origen = credencial(o.equipo.credenciales, 'smpp', 'source_addr');
    this.opciones = opcionesDe(o.equipo.credenciales);
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
            system_type: credencial(this.o.equipo.credenciales, 'smpp', 'system_type'),
            interface_version: this.opciones.versionInterfaz,
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
    const motivo = entregado
      ? undefined
      : `SMPP: ${leido.stat ?? `message_state ${pdu.message_state}`}`;
    const g = this.grupos.get(id);
    if (!g) {
      this.o.alRecibo({ id_equipo: this.o.equipo.id_equipo, id_gateway: id, entregado, motivo });
      return;
    }
    this.grupos.delete(id);
    if (g.terminado) return;
    if (!entregado) {
      // One undelivered part: the recipient did not get the message.
      g.terminado = true;
      this.o.alRecibo({
        id_equipo: this.o.equipo.id_equipo,
        id_gateway: g.clave,
        entregado: false,
        motivo: `${motivo} (parte ${g.ids.indexOf(id) + 1} de ${g.total})`,
      });
    } else if (++g.entregadas === g.total) {
      g.terminado = true;
      this.o.alRecibo({ id_equipo: this.o.equipo.id_equipo, id_gateway: g.clave, entregado });
    }
  }

  /** A text's parts for this device, encoded once per text. */
  private codificado(texto: string): TextoCodificado {
    let c = this.textos.get(texto);
    if (!c) {
      c = codificarTexto(texto, this.opciones);
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
    // Multi-part messages whose receipts never all came: forget them (the row stays 'enviado').
    for (const [id, g] of this.grupos) {
      if (g.hasta > ahora) break;
      this.grupos.delete(id);
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
    let texto: TextoCodificado;
    try {
      texto = this.codificado(e.texto);
    } catch (err) {
      return { tipo: 'fallido', motivo: (err as Error).message };
    }
    if (texto.partes.length === 1) {
      const p = texto.partes[0]!;
      const r = await this.submit(s, e.telefono, p.data_coding, {
        ...(texto.concatenacion === 'payload'
          ? { short_message: Buffer.alloc(0), message_payload: p.cuerpo }
          : { short_message: p.cuerpo }),
      });
      return r.tipo === 'aceptado' ? { tipo: 'aceptado', id_gateway: r.id } : r;
    }
    return this.enviarPartes(s, e.telefono, texto);
  }

  /** Sends every part of a long text; the recipient's result is that of all parts together. */
  private async enviarPartes(
    s: Sesion,
    telefono: string,
    texto: TextoCodificado,
  ): Promise<ResultadoEnvio> {
    const ref = (this.referencia = (this.referencia + 1) & 0xff);
    const total = texto.partes.length;
    const campos = (i: number): object => {
      const p = texto.partes[i]!;
      if (texto.concatenacion === 'sar')
        return {
          short_message: p.cuerpo,
          sar_msg_ref_num: ref,
          sar_total_segments: total,
          sar_segment_seqnum: i + 1,
        };
      // UDH: IEI 0x00 (concatenation, 8-bit reference), length 3, reference, total, sequence.
      const udh = Buffer.from([0x05, 0x00, 0x03, ref, total, i + 1]);
      return { short_message: Buffer.concat([udh, p.cuerpo]), esm_class: 0x40 };
    };
    const g: Grupo = {
      clave: '',
      total,
      entregadas: 0,
      ids: [],
      terminado: false,
      hasta: Date.now() + ESPERA_RECIBOS_MS,
    };
    // Each accepted part joins the group inside the submit_sm_resp callback: its receipt may be
    // read from the same socket chunk, before any promise continuation runs.
    const unir = (i: number) => (id: string) => {
      g.ids[i] = id;
      if (i === 0) g.clave = `${id}+${total - 1}`;
      if (!g.terminado) this.grupos.set(id, g);
    };
    const una = async (i: number): Promise<ResultadoParte> => {
      const dc = texto.partes[i]!.data_coding;
      let r = await this.submit(s, telefono, dc, campos(i), unir(i));
      // A later part refused for now: retry it here (the parts already taken cannot be recalled).
      for (let k = 0; r.tipo === 'reintentar' && k < 3 && !this.cerrado; k++) {
        await new Promise((ok) =>
          setTimeout(
            ok,
            Math.min(this.o.config.backoffMs * 2 ** k, this.o.config.timeoutEnvioMs / 4),
          ),
        );
        const actual = this.sesion ?? (await this.conectar().catch(() => undefined));
        if (!actual) break;
        r = await this.submit(actual, telefono, dc, campos(i), unir(i));
      }
      return r;
    };
    // The first part alone: if the SMSC refuses it for now, nothing was sent and the whole can wait.
    const primera = await this.submit(
      s,
      telefono,
      texto.partes[0]!.data_coding,
      campos(0),
      unir(0),
    );
    if (primera.tipo !== 'aceptado') return primera;
    const resto = await Promise.all(texto.partes.slice(1).map((_, i) => una(i + 1)));
    const malo = resto.findIndex((r) => r.tipo !== 'aceptado');
    if (malo < 0) return { tipo: 'aceptado', id_gateway: g.clave };
    g.terminado = true;
    const r = resto[malo] as Exclude<ResultadoParte, { tipo: 'aceptado' }>;
    const motivo = `${r.motivo} (parte ${malo + 2} de ${total})`;
    // Some parts reached the SMSC: never resent as a whole.
    return {
      tipo: r.tipo === 'incierto' ? 'incierto' : r.tipo === 'invalido' ? 'invalido' : 'fallido',
      motivo,
      id_gateway: g.clave,
    };
  }

  /** One submit_sm in the window; resolves with what the SMSC answered. */
  private async submit(
    s: Sesion,
    telefono: string,
    data_coding: number,
    campos: object,
    alAceptar?: (id: string) => void,
  ): Promise<ResultadoParte> {
    // A free place in the window is taken at once, without a turn of the event loop.
    if (this.enVentana < this.o.config.ventanaSmpp && this.esperaVentana.length === 0)
      this.enVentana++;
    else await this.ventana();
    try {
      return await new Promise<ResultadoParte>((resolve) => {
        const clave = ++this.clave;
        const fin = (r: ResultadoParte) => {
          this.pendientes.delete(clave);
          this.vencimientos.delete(clave);
          resolve(r);
        };
        this.vencimientos.set(clave, Date.now() + this.o.config.timeoutEnvioMs);
        this.pendientes.set(clave, fin);
        agrupar(s);
        const escrito = s.submit_sm(
          {
            destination_addr: telefono,
            source_addr: this.origen,
            registered_delivery: 1,
            data_coding,
            ...campos,
          },
          (pdu) => {
            if (pdu.command_status === 0) {
              alAceptar?.(String(pdu.message_id));
              fin({ tipo: 'aceptado', id: String(pdu.message_id) });
            } else if (INVALIDOS.has(pdu.command_status))
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
