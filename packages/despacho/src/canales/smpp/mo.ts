import { createHash } from 'node:crypto';
import { msg } from '@pregon/contract/messages';
import { canonizarTelefono } from '@pregon/contract/rules/phone';
import { rellenoTrasUdh, septetosEmpaquetados, textoGsm } from '@pregon/contract/rules/sms';

// Replies over SMPP (issue 46): a mobile-originated deliver_sm read from its own octets (the
// `smpp` package decodes short_message by guessing, and loses what it cannot read), its text
// decoded as data_coding says, and the parts of a long reply joined. Pure functions: the channel
// reads, the store joins and keys, and the tests drive them with tables.

/** SMPP 3.4 TLV tags a reply may carry. */
const TLV_SAR_REF = 0x020c;
const TLV_SAR_TOTAL = 0x020e;
const TLV_SAR_SEQ = 0x020f;
const TLV_PAYLOAD = 0x0424;

/** Longest text kept readable in a reply (the raw octets are kept whole beside it). */
export const MAX_TEXTO_RESPUESTA = 4_000;
/** How long the parts of a long reply wait for the rest before the reply is stored as what came
 * (marked incomplete): SMSCs deliver a message's parts within seconds or minutes. */
export const PLAZO_PARTES_MO_MS = 3_600_000;
/** Without an id or a time from the gateway, the same sender and text within this window is one
 * reply (the SMSC's resend of a reply stored before its answer was lost), not two. */
export const VENTANA_DUPLICADO_MS = 6 * 3_600_000;

/** The fields of a deliver_sm body as the wire has them (same layout as submit_sm, §4.6.1). */
export interface DeliverCrudo {
  origen: string;
  origenTon: number;
  destino: string;
  esm_class: number;
  data_coding: number;
  /** schedule_delivery_time as written ('' for an MO, as SMPP 3.4 says). */
  programada: string;
  corto: Buffer;
  tlv: Map<number, Buffer>;
}

/** Reads a deliver_sm body (the octets after command_length: header then fields); throws when it
 * is shorter than its fields say. */
export function leerDeliver(b: Buffer): DeliverCrudo {
  let o = 12;
  const cadena = () => {
    const fin = b.indexOf(0, o);
    if (fin < 0) throw new Error('deliver_sm truncado');
    const t = b.toString('latin1', o, fin);
    o = fin + 1;
    return t;
  };
  const octeto = () => {
    if (o >= b.length) throw new Error('deliver_sm truncado');
    return b[o++]!;
  };
  cadena(); // service_type
  const origenTon = octeto();
  octeto(); // source_addr_npi
  const origen = cadena();
  octeto();
  octeto();
  const destino = cadena();
  const esm_class = octeto();
  o += 2; // protocol_id, priority_flag
  const programada = cadena();
  cadena(); // validity_period
  o += 2; // registered_delivery, replace_if_present_flag
  const data_coding = octeto();
  o += 1; // sm_default_msg_id
  const largo = octeto();
  if (o + largo > b.length) throw new Error('deliver_sm truncado');
  const corto = b.subarray(o, o + largo);
  o += largo;
  const tlv = new Map<number, Buffer>();
  while (o + 4 <= b.length) {
    const tag = b.readUInt16BE(o);
    const n = b.readUInt16BE(o + 2);
    tlv.set(tag, b.subarray(o + 4, Math.min(b.length, o + 4 + n)));
    o += 4 + n;
  }
  return { origen, origenTon, destino, esm_class, data_coding, programada, corto, tlv };
}

/** Where a part stands in its message: 8- or 16-bit reference, total, 1-based sequence. */
export interface Concatenado {
  ref: number;
  total: number;
  seq: number;
}

/** One deliver_sm of a reply: who sent it, its place in a long reply (absent when whole), and
 * its content ready to join: GSM-7 as one septet per octet, other codings as their octets. */
export interface ParteMo {
  remitente: string;
  /** The sender as the phone directory writes it (null when it is not a phone number). */
  telefono: string | null;
  data_coding: number;
  parte?: Concatenado;
  contenido: Buffer;
  /** The octets as they came (short_message or message_payload, UDH included). */
  crudo: Buffer;
}

/** A reply's text decoded: the text (capped, NULs and lone surrogates made safe), the coding's
 * name, and a note when the octets could not be read as text. */
export interface TextoMo {
  texto: string;
  codificacion: string;
  nota?: string;
}

/** A sender's number as the phone directory stores it: TON 1 (international) gets its '+'. */
function telefonoDe(origen: string, ton: number): string | null {
  const t = origen.trim();
  if (!/^\+?\d{4,20}$/.test(t)) return null;
  const r = canonizarTelefono(ton === 1 && !t.startsWith('+') ? `+${t}` : t);
  return r.ok ? r.telefono : null;
}

/** Reads one MO deliver_sm: its UDH (IEI 0x00 8-bit and 0x08 16-bit references), SAR TLVs or
 * message_payload, and its content. `empaquetado`: data_coding 0 comes packed 8 septets in 7
 * octets (the device's `gsm_empaquetado`); by default one septet per octet, as SMSCs send it. */
export function leerParteMo(d: DeliverCrudo, empaquetado = false): ParteMo {
  const payload = d.tlv.get(TLV_PAYLOAD);
  const cuerpo = payload && d.corto.length === 0 ? payload : d.corto;
  let parte: Concatenado | undefined;
  let udh = 0;
  if (d.esm_class & 0x40 && cuerpo.length > 0) {
    udh = Math.min(cuerpo[0]! + 1, cuerpo.length);
    for (let i = 1; i + 1 < udh;) {
      const iei = cuerpo[i]!;
      const n = cuerpo[i + 1]!;
      if (iei === 0x00 && n === 3 && i + 4 < udh)
        parte = { ref: cuerpo[i + 2]!, total: cuerpo[i + 3]!, seq: cuerpo[i + 4]! };
      if (iei === 0x08 && n === 4 && i + 5 < udh)
        parte = { ref: cuerpo.readUInt16BE(i + 2), total: cuerpo[i + 4]!, seq: cuerpo[i + 5]! };
      i += 2 + n;
    }
  } else if (d.tlv.get(TLV_SAR_TOTAL)?.length) {
    const ref = d.tlv.get(TLV_SAR_REF);
    parte = {
      ref: ref?.length === 2 ? ref.readUInt16BE(0) : (ref?.[0] ?? 0),
      total: d.tlv.get(TLV_SAR_TOTAL)![0]!,
      seq: d.tlv.get(TLV_SAR_SEQ)?.[0] ?? 1,
    };
  }
  // A header that says 1 part, or a sequence out of range, is a whole message.
  if (parte && (parte.total <= 1 || parte.seq < 1 || parte.seq > parte.total)) parte = undefined;
  const dc = d.data_coding;
  let contenido: Buffer;
  const gsm = alfabetoMo(dc) === 'GSM-7';
  if (gsm && empaquetado)
    contenido = Buffer.from(
      septetosEmpaquetados(cuerpo.subarray(udh), udh ? rellenoTrasUdh(udh) : 0),
    );
  else if (gsm) contenido = Buffer.from(cuerpo.subarray(udh).map((x) => x & 0x7f));
  else contenido = Buffer.from(cuerpo.subarray(udh));
  return {
    remitente: d.origen,
    telefono: telefonoDe(d.origen, d.origenTon),
    data_coding: dc,
    ...(parte ? { parte } : {}),
    contenido,
    crudo: Buffer.from(cuerpo),
  };
}

/** A lone surrogate (half of a pair, a UCS-2 text cut mid-character). */
const SUELTOS = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Makes a decoded text safe to store: lone surrogates replaced, NUL (which PostgreSQL's text
 * cannot hold) shown as U+FFFD, capped at MAX_TEXTO_RESPUESTA. Other control characters stay:
 * they are data, shown escaped wherever a reply is displayed. */
function seguro(t: string): string {
  const limpio = t.replace(SUELTOS, '\uFFFD').replaceAll('\u0000', '\uFFFD');
  return limpio.length > MAX_TEXTO_RESPUESTA ? limpio.slice(0, MAX_TEXTO_RESPUESTA) : limpio;
}

/** The alphabet of a data_coding: SMPP's own values below 0x10 (0 SMSC default, 1 IA5: GSM-7
 * here; 3 Latin-1; 8 UCS-2), above it TS 23.038's coding groups (0x10-0x1F with a message
 * class, 0xC0-0xEF message waiting, 0xF0-0xFF data coding/class), whose alphabet bits say GSM-7
 * or UCS-2; null for anything else (8-bit data, compressed, other character sets). */
export function alfabetoMo(dc: number): 'GSM-7' | 'Latin-1' | 'UCS-2' | null {
  if (dc === 0 || dc === 1) return 'GSM-7';
  if (dc === 3) return 'Latin-1';
  if (dc === 8) return 'UCS-2';
  if (dc >= 0x10 && dc <= 0x1f)
    return (['GSM-7', null, 'UCS-2', null] as const)[(dc >> 2) & 3] ?? null;
  if (dc >= 0xc0 && dc <= 0xdf) return 'GSM-7';
  if (dc >= 0xe0 && dc <= 0xef) return 'UCS-2';
  if (dc >= 0xf0) return dc & 0x04 ? null : 'GSM-7';
  return null;
}

/** Decodes a reply's content by its alphabet (alfabetoMo): GSM 03.38 (escape table included),
 * Latin-1, UCS-2 (UTF-16 big-endian, surrogate pairs for emoji); any other coding (8-bit data,
 * compressed) is kept as hexadecimal with a note. */
export function decodificarMo(data_coding: number, contenido: Buffer): TextoMo {
  const a = alfabetoMo(data_coding);
  if (a === 'GSM-7') return { texto: seguro(textoGsm(contenido)), codificacion: 'GSM-7' };
  if (a === 'Latin-1')
    return { texto: seguro(contenido.toString('latin1')), codificacion: 'Latin-1' };
  if (a === 'UCS-2') {
    const par = contenido.length & ~1;
    const t = Buffer.from(contenido.subarray(0, par)).swap16().toString('utf16le');
    return { texto: seguro(t), codificacion: 'UCS-2' };
  }
  const hex = `0x${data_coding.toString(16).padStart(2, '0')}`;
  return {
    texto: seguro(contenido.toString('hex')),
    codificacion: hex,
    nota: msg('respuestaCodificacionDesconocida', { codigo: hex }),
  };
}

/** The content of a long reply's parts joined in order (missing parts skipped). */
export function unirContenidos(partes: readonly (Buffer | undefined)[]): Buffer {
  return Buffer.concat(partes.filter((p): p is Buffer => p !== undefined));
}

/** The idempotency key of a reply: 'gw:' + the gateway's id when it gives one; else a hash of
 * device, sender, text and the gateway's time, or, without one, the window of VENTANA_DUPLICADO_MS
 * it was received in (`ventana`: that window's index; the store also checks the one before). */
export function claveRespuesta(r: {
  id_equipo: number;
  remitente: string;
  texto_crudo: string;
  id_gateway?: string | null;
  fecha_gateway?: number | null;
  ventana: number;
}): string {
  if (r.id_gateway) return `gw:${r.id_gateway}`.slice(0, 200);
  const h = createHash('sha256')
    .update(`${r.id_equipo}\n${r.remitente}\n${r.texto_crudo}`)
    .digest('hex')
    .slice(0, 40);
  return r.fecha_gateway != null ? `h:${h}:t${r.fecha_gateway}` : `h:${h}:v${r.ventana}`;
}
