import fs from 'node:fs';
import smpp from 'smpp';
import { msg } from '@pregon/contract/messages';
import { mensajeRed, motivoRed } from '@pregon/contract/rules/equipment';
import {
  analizarSms,
  empaquetarGsm,
  MAX_PARTES_SMS,
  rellenoTrasUdh,
  septetosGsm,
} from '@pregon/contract/rules/sms';
import {
  credencial,
  ESPERA_RECIBOS_MS,
  motivoParte,
  registrarCanal,
  type Canal,
  type Envio,
  type OpcionesCanal,
  type ResultadoEnvio,
  type RespuestaEntrante,
} from '../../canal.ts';
import { busquedaGuardada, CODIGO_DESTINO, destinoLiteralRefusado } from '../../destinos.ts';
import { decodificarMo, leerDeliver, leerParteMo } from './mo.ts';

// SMPP v3.4 over the `smpp` package: one bind_transceiver per device and dispatcher, a window of
// outstanding submit_sm, enquire_link, reconnection on demand, and deliver_sm receipts matched by
// message id. SMPP has no idempotency key: a submit whose answer was lost is 'incierto'.
// Texts are encoded by the contract's SMS rule: GSM-7 as data_coding 0 (or 1/3 per device), else
// UCS-2 as 8; a long text goes as parts (UDH, SAR TLVs or one message_payload, per device), each
// its own submit and receipt, and the recipient's outcome is that of all its parts together.

/** What a submit_sm_resp's command_status means for the drill (SMPP 3.4 §5.1.3):
 * - 'reintentar': the SMSC did not take it for now (throttling, queue full, its own error): the
 *   same submit may go again later;
 * - 'direccion': the device's source address or the TON/NPI it types addresses with are refused:
 *   every recipient would get the same, the exercise pauses with the addressing named;
 * - 'equipo': the PDU as this device builds it is refused (a flag, esm_class, service_type,
 *   validity, an optional parameter, the message length of the exercise's text): the same for
 *   everyone, the exercise pauses;
 * - 'invalido': this recipient's number is refused;
 * - 'destinatario': refused for this recipient only ('fallido'); codes not in the table (vendor
 *   codes 0x400–0x4FF) too, where they still count toward the automatic pause.
 */
export type ClaseEstadoSmpp = 'reintentar' | 'direccion' | 'equipo' | 'invalido' | 'destinatario';

/** command_status → [name, class], every error code of SMPP 3.4 §5.1.3 (submit_sm answers). */
export const ESTADOS_SMPP: ReadonlyMap<number, readonly [string, ClaseEstadoSmpp]> = new Map([
  [0x01, ['RINVMSGLEN', 'equipo']],
  [0x02, ['RINVCMDLEN', 'equipo']],
  [0x03, ['RINVCMDID', 'equipo']],
  [0x04, ['RINVBNDSTS', 'equipo']],
  [0x05, ['RALYBND', 'reintentar']],
  [0x06, ['RINVPRTFLG', 'equipo']],
  [0x07, ['RINVREGDLVFLG', 'equipo']],
  [0x08, ['RSYSERR', 'reintentar']],
  [0x0a, ['RINVSRCADR', 'direccion']],
  [0x0b, ['RINVDSTADR', 'invalido']],
  [0x0c, ['RINVMSGID', 'destinatario']],
  [0x0d, ['RBINDFAIL', 'reintentar']],
  [0x0e, ['RINVPASWD', 'equipo']],
  [0x0f, ['RINVSYSID', 'equipo']],
  [0x11, ['RCANCELFAIL', 'destinatario']],
  [0x13, ['RREPLACEFAIL', 'destinatario']],
  [0x14, ['RMSGQFUL', 'reintentar']],
  [0x15, ['RINVSERTYP', 'equipo']],
  [0x33, ['RINVNUMDESTS', 'equipo']],
  [0x34, ['RINVDLNAME', 'equipo']],
  [0x40, ['RINVDESTFLAG', 'equipo']],
  [0x42, ['RINVSUBREP', 'equipo']],
  [0x43, ['RINVESMCLASS', 'equipo']],
  [0x44, ['RCNTSUBDL', 'equipo']],
  [0x45, ['RSUBMITFAIL', 'destinatario']],
  [0x48, ['RINVSRCTON', 'direccion']],
  [0x49, ['RINVSRCNPI', 'direccion']],
  [0x50, ['RINVDSTTON', 'direccion']],
  [0x51, ['RINVDSTNPI', 'direccion']],
  [0x53, ['RINVSYSTYP', 'equipo']],
  [0x54, ['RINVREPFLAG', 'equipo']],
  [0x55, ['RINVNUMMSGS', 'equipo']],
  [0x58, ['RTHROTTLED', 'reintentar']],
  [0x61, ['RINVSCHED', 'equipo']],
  [0x62, ['RINVEXPIRY', 'equipo']],
  [0x63, ['RINVDFTMSGID', 'equipo']],
  [0x64, ['RX_T_APPN', 'reintentar']],
  [0x65, ['RX_P_APPN', 'destinatario']],
  [0x66, ['RX_R_APPN', 'destinatario']],
  [0x67, ['RQUERYFAIL', 'destinatario']],
  [0xc0, ['RINVOPTPARSTREAM', 'equipo']],
  [0xc1, ['ROPTPARNOTALLWD', 'equipo']],
  [0xc2, ['RINVPARLEN', 'equipo']],
  [0xc3, ['RMISSINGOPTPARAM', 'equipo']],
  [0xc4, ['RINVOPTPARAMVAL', 'equipo']],
  [0xfe, ['RDELIVERYFAILURE', 'destinatario']],
  [0xff, ['RUNKNOWNERR', 'destinatario']],
]);

/** The class of a submit_sm_resp command_status, with its SMPP name ('0x4f1' when unknown). */
export function claseEstadoSmpp(estado: number): { nombre: string; clase: ClaseEstadoSmpp } {
  const e = ESTADOS_SMPP.get(estado);
  return e
    ? { nombre: `ESME_${e[0]}`, clase: e[1] }
    : { nombre: `0x${estado.toString(16)}`, clase: 'destinatario' };
}

const ESME = {
  ESME_RALYBND: 0x05,
  ESME_RSYSERR: 0x08,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
  ESME_RTHROTTLED: 0x58,
} as const;
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
  /** How addresses are typed (TON/NPI), each value overridable per device. */
  direcciones: OpcionesDireccion;
}
/** TON/NPI overrides of a device (credentials `dest_addr_ton`, `dest_addr_npi`,
 * `source_addr_ton`, `source_addr_npi`) and the country code added to 10-digit numbers. */
export interface OpcionesDireccion {
  destTon?: number;
  destNpi?: number;
  origenTon?: number;
  origenNpi?: number;
  /** Country code of numbers stored without one (10 digits): '52', Mexico, unless the device says. */
  codigoPais: string;
}
/** One SMPP address with its type of number and numbering plan indicator. */
export interface Direccion {
  addr: string;
  ton: number;
  npi: number;
}
/** SMPP 3.4 §5.2.5 and §5.2.6: the TON and NPI values Pregón uses. */
export const TON = { desconocido: 0, internacional: 1, nacional: 2, red: 3, alfanumerico: 5 };
export const NPI = { desconocido: 0, e164: 1 };
/** Longest number sent as a short code (TON 3): SMSCs' short codes have 3 to 8 digits. */
const MAX_CODIGO_CORTO = 8;
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
  | {
      tipo: 'reintentar' | 'invalido' | 'fallido' | 'incierto';
      motivo: string;
      pausar?: boolean;
      sinSalir?: boolean;
    };

/** SMPP v3.4 relative validity_period (§7.1.1): 'YYMMDDhhmmss000R' for a number of minutes. */
export function vigenciaRelativa(minutos: number): string {
  const d = Math.floor(minutos / 1440);
  const h = Math.floor((minutos % 1440) / 60);
  const p = (n: number) => String(n).padStart(2, '0');
  return `0000${p(d)}${p(h)}${p(minutos % 60)}00000R`;
}

/** Reads the device's SMPP options; an unknown value falls back to the default. */
function opcionesDe(c: Record<string, unknown>): OpcionesSmpp {
  const dc = Number(credencial(c, 'smpp', 'data_coding') || 0);
  const conc = credencial(c, 'smpp', 'concatenacion');
  const emp = credencial(c, 'smpp', 'gsm_empaquetado');
  const version = Number(credencial(c, 'smpp', 'interface_version') || 0x34);
  const octeto = (clave: string) => {
    const t = credencial(c, 'smpp', clave);
    const n = Number(t);
    return t !== '' && Number.isInteger(n) && n >= 0 && n <= 0xff ? n : undefined;
  };
  const pais = credencial(c, 'smpp', 'codigo_pais');
  return {
    direcciones: {
      destTon: octeto('dest_addr_ton'),
      destNpi: octeto('dest_addr_npi'),
      origenTon: octeto('source_addr_ton'),
      origenNpi: octeto('source_addr_npi'),
      codigoPais: /^\d{1,3}$/.test(pais) ? pais : '52',
    },
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
    direcciones: { codigoPais: '52' },
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
/** Digits of a stored number in international form: '+' and separators removed, the country
 * code added to a national 10-digit number; undefined when it is not a number at all. */
function internacional(telefono: string, pais: string): string | undefined {
  const t = telefono.replace(/[\s().-]/g, '');
  if (!/^\+?\d+$/.test(t)) return undefined;
  if (t.startsWith('+')) return t.slice(1);
  if (t.startsWith('00')) return t.slice(2);
  return t.length === 10 ? pais + t : t;
}

/**
 * The destination address of a recipient: international (TON 1, NPI 1 E.164), digits with the
 * country code and without '+', which is how SMPP 3.4 §5.2.5 types a full number. With
 * `dest_addr_ton` 2 (national) the national number goes instead; other overrides only change the
 * TON/NPI octets. Something that is not a number goes as stored, for the SMSC to refuse it
 * (RINVDSTADR: that recipient is 'invalido').
 */
export function direccionDestino(telefono: string, o: OpcionesDireccion): Direccion {
  const ton = o.destTon ?? TON.internacional;
  const npi = o.destNpi ?? NPI.e164;
  const int = internacional(telefono, o.codigoPais);
  if (int === undefined) return { addr: telefono, ton, npi };
  const nacional =
    ton === TON.nacional && int.startsWith(o.codigoPais) ? int.slice(o.codigoPais.length) : int;
  return { addr: nacional, ton, npi };
}

/**
 * The source address of a device (credential `source_addr`): empty, TON/NPI 0/0 (the SMSC puts
 * the account's own); with letters, alphanumeric (TON 5, NPI 0); digits up to 8, a short code
 * (TON 3 network specific, NPI 0); a longer number, international like a destination (TON 1,
 * NPI 1). Some SMSCs want short codes as TON 0/NPI 1 or TON 2: the device's
 * `source_addr_ton`/`source_addr_npi` override either octet.
 */
export function direccionOrigen(origen: string, o: OpcionesDireccion): Direccion {
  let d: Direccion;
  const t = origen.trim();
  if (t === '') d = { addr: '', ton: TON.desconocido, npi: NPI.desconocido };
  else if (/[^\d+\s().-]/.test(t)) d = { addr: t, ton: TON.alfanumerico, npi: NPI.desconocido };
  else if (/^\d+$/.test(t) && t.length <= MAX_CODIGO_CORTO)
    d = { addr: t, ton: TON.red, npi: NPI.desconocido };
  else d = { addr: internacional(t, o.codigoPais) ?? t, ton: TON.internacional, npi: NPI.e164 };
  return { addr: d.addr, ton: o.origenTon ?? d.ton, npi: o.origenNpi ?? d.npi };
}

/** Crash tests only (DESPACHO_TRAZA_SMPP = a file): each submit_sm's destination is appended,
 * synchronously, once the PDU was handed to the socket. A SIGKILLed process's socket is reset,
 * and a reset drops what the SMSC's side had received but not yet read: this file is the witness
 * of what left when the SMSC's own record cannot be. */
const TRAZA = process.env.DESPACHO_TRAZA_SMPP;

/** Socket errors that mean the SMSC cannot be reached now (not a TLS certificate refused). */
const CODIGOS_SIN_CONEXION = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
]);

/**
 * What an operator reads when the connection or the bind fails (issue 49.3): the class of the
 * failure naming host:port ('No se pudo conectar con 127.0.0.1:5432: no responde como un SMSC',
 * '…: conexión rechazada'), never the peer's bytes: the smpp package's own errors quote the
 * length it read ('PDU length was too large (1213486160…)' is 'HTTP'), so a device url could
 * read what answers on any port. A destination refused by EQUIPOS_DESTINOS_PERMITIDOS keeps its
 * own Spanish reason.
 */
export function motivoConexionSmpp(
  err: Error & { code?: string },
  destino: { host: string; puerto: number; enlazado?: boolean },
  timeoutMs: number,
): string {
  if (err.code === CODIGO_DESTINO) return err.message;
  const host = destino.host.replace(/^\[|\]$/g, '');
  const texto = `${host.includes(':') ? `[${host}]` : host}:${destino.puerto}`;
  // A system or TLS error has a code; a peer that is not an SMSC fails in the PDU parser (none).
  const codigo = err.code && /^[A-Z0-9_]+$/.test(err.code) ? err.code : 'NO_SMSC';
  // A bound session that drops says only why ('la conexión se cortó').
  if (destino.enlazado) return `SMPP: ${motivoRed(codigo, { host, timeoutMs })}`;
  return `SMPP: ${mensajeRed(codigo, { host, puerto: destino.puerto, texto }, timeoutMs)}`;
}

/** deliver_sm_resp status for a reply not stored now (SMPP 3.4 §5.1.3): the SMSC delivers it again. */
const ESME_RX_T_APPN = 0x64;

/** Bind refusals that may pass: the account's binds are in use, or the SMSC is busy. */
const BIND_TRANSITORIOS = new Map<number, string>([
  [ESME.ESME_RALYBND, 'RALYBND'],
  [ESME.ESME_RBINDFAIL, 'RBINDFAIL'],
  [ESME.ESME_RSYSERR, 'RSYSERR'],
  [ESME.ESME_RTHROTTLED, 'RTHROTTLED'],
]);
/** Bind refusals that name the wrong credential. */
const BIND_CREDENCIALES = new Map<number, string>([
  [ESME.ESME_RINVPASWD, 'RINVPASWD (contraseña)'],
  [ESME.ESME_RINVSYSID, 'RINVSYSID (system_id)'],
]);

interface Pdu {
  command: string;
  command_status: number;
  message_id?: string;
  esm_class?: number;
  source_addr?: string;
  receipted_message_id?: string;
  message_state?: number;
  short_message?: string | { message?: string | Buffer };
  message_payload?: string | Buffer | { message?: string | Buffer };
  response(o?: object): object;
}
interface Sesion {
  on(ev: string, f: (x: Pdu & Error) => void): void;
  send(pdu: object): boolean;
  bind_transceiver(o: object, cb: (p: Pdu) => void): boolean;
  submit_sm(o: object, cb: (p: Pdu) => void): boolean;
  enquire_link(o: object, cb: (p: Pdu) => void): boolean;
  unbind(cb?: () => void): boolean;
  close(cb?: () => void): void;
  destroy(): void;
  socket: { writable: boolean; cork(): void; uncork(): void; read(n?: number): Buffer | null };
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

/** Reads the `id:`, `stat:` and `err:` fields of a delivery receipt's text (SMPP 3.4 appendix B). */
export function leerRecibo(texto: string): { id?: string; stat?: string; err?: string } {
  return {
    id: CAMPO_ID.exec(texto)?.[1],
    stat: CAMPO_STAT.exec(texto)?.[1]?.toUpperCase(),
    err: CAMPO_ERR.exec(texto)?.[1],
  };
}
/** A receipt text's field `name:value` (compiled once: a receipt comes for every message). */
const campoRecibo = (n: string) => new RegExp(`(?:^|\\s)${n}:(\\S+)`, 'i');
const CAMPO_ID = campoRecibo('id');
const CAMPO_STAT = campoRecibo('stat');
const CAMPO_ERR = campoRecibo('err');

/** message_state (SMPP 3.4 §5.2.28) as the receipt text's stat names. */
const ESTADOS_MENSAJE: Record<number, string> = {
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
};
/** Final stats that say the message was not delivered, with their catalogue message. */
const NO_ENTREGADOS = {
  EXPIRED: 'smppExpirado',
  DELETED: 'smppBorrado',
  UNDELIV: 'smppNoEntregable',
  REJECTD: 'smppRechazado',
} as const;

/** What a receipt says of its message: delivered, not delivered (with the reason), or nothing
 * final yet. ACCEPTD and ENROUTE are not final; UNKNOWN (the SMSC lost track) is not final
 * either: the row stays 'enviado', which is what is known of it. */
export function desenlaceRecibo(
  stat: string | undefined,
  err: string | undefined,
): { entregado: boolean; motivo?: string } | undefined {
  if (stat === 'DELIVRD') return { entregado: true };
  const clave = NO_ENTREGADOS[stat as keyof typeof NO_ENTREGADOS];
  if (clave) return { entregado: false, motivo: msg(clave, { err: err ?? '-' }) };
  return undefined;
}

/** The text of a short_message or message_payload, however the package decoded it. */
function textoPdu(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (Buffer.isBuffer(v)) return v.toString('latin1');
  const m = (v as { message?: unknown }).message;
  return m === undefined ? '' : textoPdu(m);
}

/** An id as compared: trimmed, lower case, without leading zeros. */
const normalizar = (x: string) => sinCeros(x.trim().toLowerCase());
/** An id without its leading zeros (the regular expression only when there is one to drop: trim
 * and toLowerCase give the same string back when nothing changes, and most ids have none). */
const sinCeros = (x: string) => (x.charCodeAt(0) === 48 ? x.replace(/^0+(?=.)/, '') : x);
/** The value of an id read as hexadecimal, or as decimal, in decimal; undefined when it cannot be.
 * (Up to 13 hex digits the value is below 2^53: a Number holds it exactly, and is cheaper than a
 * BigInt; a decimal's value in decimal is its digits without leading zeros.) */
const comoHex = (x: string) =>
  !/^[0-9a-f]{1,32}$/i.test(x)
    ? undefined
    : x.length <= 13
      ? parseInt(x, 16).toString()
      : BigInt(`0x${x}`).toString();
const comoDecimal = (x: string) => (/^\d{1,38}$/.test(x) ? sinCeros(x) : undefined);
/** How a receipt's id matched its submit's: as is, submit hex → receipt decimal, or the reverse. */
type Forma = 'igual' | 'hexDecimal' | 'decimalHex';
const FORMAS: readonly Forma[] = ['igual', 'hexDecimal', 'decimalHex'];
/** A remembered id: until when, and its keys in each form. */
interface Claves {
  hasta: number;
  igual: string;
  hex: string | undefined;
  dec: string | undefined;
}

/**
 * The message ids a channel got from submit_sm_resp, found again from a receipt's id whatever its
 * form: SMSCs answer an id in hex and quote it in decimal in the receipt text (or the reverse),
 * with or without leading zeros or upper case. A receipt id matches a submit id when both
 * normalised are equal, or when one read as hexadecimal is the other read as decimal. When a
 * receipt could match two ids (digits-only hex ids), the form this SMSC has used before wins.
 * Bounded: at most `max` ids, each kept `ms` (ids beyond are matched only as is, by the store).
 */
export class IndiceIds {
  private readonly vence = new Map<string, Claves>();
  private readonly igual = new Map<string, string>();
  private readonly hex = new Map<string, string>();
  private readonly dec = new Map<string, string>();
  /** How many receipts matched in each form alone: the SMSC's habit. */
  readonly votos: Record<Forma, number> = { igual: 0, hexDecimal: 0, decimalHex: 0 };

  constructor(
    private readonly max = 100_000,
    private readonly ms = ESPERA_RECIBOS_MS,
  ) {}

  /** Remembers a submit's id until its receipt. */
  agregar(id: string, ahora = Date.now()): void {
    this.quitar(id);
    const c: Claves = {
      hasta: ahora + this.ms,
      igual: normalizar(id),
      hex: comoHex(id),
      dec: comoDecimal(id),
    };
    this.vence.set(id, c);
    this.igual.set(c.igual, id);
    if (c.hex !== undefined) this.hex.set(c.hex, id);
    if (c.dec !== undefined) this.dec.set(c.dec, id);
    if (this.vence.size > this.max) this.quitar(this.vence.keys().next().value!);
  }

  /** Forgets an id (its final receipt came). */
  quitar(id: string): void {
    const c = this.vence.get(id);
    if (!c) return;
    this.vence.delete(id);
    if (this.igual.get(c.igual) === id) this.igual.delete(c.igual);
    if (c.hex !== undefined && this.hex.get(c.hex) === id) this.hex.delete(c.hex);
    if (c.dec !== undefined && this.dec.get(c.dec) === id) this.dec.delete(c.dec);
  }

  /** The submit id a receipt's id stands for, or undefined when none is known. */
  buscar(r: string): string | undefined {
    const t = r.trim();
    const d = comoDecimal(t);
    const h = comoHex(t);
    // The candidates in FORMAS' order: as is, submit hex → receipt decimal, the reverse.
    const ids = [
      this.igual.get(normalizar(t)),
      d === undefined ? undefined : this.hex.get(d),
      h === undefined ? undefined : this.dec.get(h),
    ];
    let hallados = 0;
    let primero = -1;
    let distintos = false;
    for (let i = 0; i < ids.length; i++) {
      if (ids[i] === undefined) continue;
      hallados++;
      if (primero < 0) primero = i;
      else if (ids[i] !== ids[primero]) distintos = true;
    }
    if (primero < 0) return undefined;
    if (!distintos) {
      if (hallados === 1) this.votos[FORMAS[primero]!]++;
      return ids[primero];
    }
    // Ambiguous: the form this SMSC has used most (ties: in FORMAS' order, as is first).
    let mejor = primero;
    for (let i = primero + 1; i < ids.length; i++)
      if (ids[i] !== undefined && this.votos[FORMAS[i]!] > this.votos[FORMAS[mejor]!]) mejor = i;
    return ids[mejor];
  }

  /** Drops the ids whose time is over. */
  barrer(ahora: number): void {
    for (const [id, c] of this.vence) {
      if (c.hasta > ahora) break;
      this.quitar(id);
    }
  }

  /** How many ids it holds. */
  get tamano(): number {
    return this.vence.size;
  }
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
  /** 8-bit reference of the next concatenated message. */
  private referencia = Math.floor(Math.random() * 256);
  /** Accepted ids until their receipt, to match receipts that quote them in another form. */
  private readonly ids = new IndiceIds();
  /** Binds refused in a row for now (RALYBND, RBINDFAIL), and when the next may be tried. */
  private fallosBind = 0;
  private bindDesde = 0;
  private motivoBind = '';
  private readonly host: string;
  private readonly port: number;
  private readonly tls: boolean;
  private readonly origen: Direccion;
  private readonly opciones: OpcionesSmpp;

  get ventana(): number {
    return this.o.config.ventanaSmpp;
  }

  constructor(private readonly o: OpcionesCanal) {
    const u = new URL(o.equipo.url.includes('://') ? o.equipo.url : `smpp://${o.equipo.url}`);
    this.host = u.hostname;
    // ssmpp://: SMPP over TLS (3550 by default, as SMSCs and the smpp package take it).
    this.tls = u.protocol === 'ssmpp:';
    this.port = Number(u.port || (this.tls ? 3550 : 2775));
    this.opciones = opcionesDe(o.equipo.credenciales);
    this.origen = direccionOrigen(
      credencial(o.equipo.credenciales, 'smpp', 'source_addr'),
      this.opciones.direcciones,
    );
  }

  private conectar(): Promise<Sesion> {
    if (this.sesion) return Promise.resolve(this.sesion);
    this.conectando ??= new Promise<Sesion>((resolve, reject) => {
      // A loopback or private address not listed in EQUIPOS_DESTINOS_PERMITIDOS is never
      // connected to: an address at once, a name at each lookup (busquedaGuardada).
      const refusado = destinoLiteralRefusado(this.host, this.port);
      if (refusado) {
        this.conectando = undefined;
        reject(Object.assign(refusado, { pausar: true }));
        return;
      }
      const c = this.o.equipo.credenciales;
      const s = smpp.connect({
        host: this.host,
        port: this.port,
        lookup: busquedaGuardada(this.port),
        noDelay: true,
        ...(this.tls
          ? {
              tls: true,
              servername: this.host,
              // The SMSC's CA (PEM) when it is not a public one; 'tls_verificar' "false" accepts
              // any certificate (a test SMSC's self-signed one), never the default.
              ...(credencial(c, 'smpp', 'tls_ca') ? { ca: credencial(c, 'smpp', 'tls_ca') } : {}),
              rejectUnauthorized: credencial(c, 'smpp', 'tls_verificar') !== 'false',
            }
          : {}),
      }) as unknown as Sesion;
      // The package decodes short_message by guessing the coding, and drops what it cannot read:
      // a reply is read from its PDU's own octets (the body read last, before its event).
      let crudo: Buffer | null = null;
      const leer = s.socket.read.bind(s.socket);
      s.socket.read = (n?: number) => {
        const b = leer(n);
        if (b && n !== 4) crudo = b;
        return b;
      };
      let listo = false;
      // Neither the TCP connect nor bind_transceiver has a deadline of its own: a gateway that
      // accepts the socket and never answers the bind would hold every send waiting for it.
      const plazo = setTimeout(() => {
        if (listo) return;
        caer('SMPP: sin respuesta al conectar');
        s.destroy();
      }, this.o.config.timeoutEnvioMs);
      plazo.unref();
      let caida = false;
      /** The gateway could not be reached (socket errors, closed or silent before the bind):
       * unlike a bind refusal or a certificate refused, nothing about the device is wrong. */
      let sinConexion = true;
      /** The destination is not allowed: the device's configuration, the exercise pauses. */
      let pausar = false;
      const caer = (motivo: string) => {
        if (caida) return;
        caida = true;
        clearTimeout(plazo);
        if (this.sesion === s) {
          this.sesion = undefined;
          // Submits written but unanswered: the SMSC may have taken them.
          for (const [, fin] of [...this.pendientes]) fin({ tipo: 'incierto', motivo });
          this.pendientes.clear();
          this.vencimientos.clear();
        }
        if (!listo) {
          this.conectando = undefined;
          reject(Object.assign(new Error(motivo), { sinConexion, pausar }));
        }
        listo = true;
      };
      s.on('error', (e) => {
        const codigo = (e as Error & { code?: string }).code ?? '';
        sinConexion = CODIGOS_SIN_CONEXION.has(codigo);
        pausar = codigo === CODIGO_DESTINO;
        caer(
          motivoConexionSmpp(
            e as Error,
            { host: this.host, puerto: this.port, enlazado: listo },
            this.o.config.timeoutEnvioMs,
          ),
        );
      });
      s.on('close', () =>
        caer(
          listo
            ? 'SMPP: conexión cerrada'
            : motivoConexionSmpp(
                Object.assign(new Error(''), { code: 'CERRADA' }),
                { host: this.host, puerto: this.port },
                this.o.config.timeoutEnvioMs,
              ),
        ),
      );
      // Over TLS the bind waits for the handshake (secureConnect), not the TCP connect.
      s.on(this.tls ? 'secureConnect' : 'connect', () => {
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
              reject(this.errorBind(pdu.command_status));
              return;
            }
            this.fallosBind = 0;
            this.bindDesde = 0;
            listo = true;
            this.sesion = s;
            this.conectando = undefined;
            this.vigilar(s, caer);
            resolve(s);
          },
        );
      });
      s.on('deliver_sm', (pdu) => {
        const cuerpo = crudo;
        crudo = null;
        // esm_class message type 0: a mobile-originated message (a reply), not a receipt.
        if (this.o.alRespuesta && ((pdu.esm_class ?? 0) & 0x3c) === 0) {
          void this.respuesta(s, pdu, cuerpo);
          return;
        }
        const durable = this.recibo(pdu);
        if (!durable) {
          agrupar(s);
          s.send(pdu.response());
          return;
        }
        // Issue 48.6: a receipt is answered once it is durable (applied, or stored to wait for
        // its row): one the process held in memory when it died is never answered, and the SMSC
        // delivers it again (to the next bind). A failed write answers ESME_RX_T_APPN, which
        // asks the SMSC to deliver it again later.
        void durable
          .then(
            () => 0,
            (err: unknown) => {
              this.sinDestino(`acuse sin guardar, el SMSC lo reenviará: ${String(err)}`);
              return ESME_RX_T_APPN;
            },
          )
          .then((estado) => {
            if (!s.socket.writable) return;
            agrupar(s);
            s.send(pdu.response({ command_status: estado }));
          });
      });
      s.on('enquire_link', (pdu) => s.send(pdu.response()));
      s.on('unbind', (pdu) => {
        s.send(pdu.response());
        s.close();
      });
    });
    return this.conectando;
  }

  /**
   * Watches a bound session with enquire_link every DESPACHO_ENQUIRE_LINK_S: one unanswered within
   * the send timeout (or the period, if shorter) means a half-open link, where every submit would
   * end 'incierto'. The session is dropped (its unanswered submits become 'incierto') and bound
   * again at once, so the next sends find a live one.
   */
  private vigilar(s: Sesion, caer: (motivo: string) => void): void {
    const periodo = this.o.config.enquireLinkS * 1000;
    if (!(periodo > 0)) return;
    const plazo = Math.min(this.o.config.timeoutEnvioMs, periodo);
    const t = setInterval(() => {
      if (this.sesion !== s || this.cerrado) {
        clearInterval(t);
        return;
      }
      let respondio = false;
      const espera = setTimeout(() => {
        if (respondio || this.sesion !== s || this.cerrado) return;
        clearInterval(t);
        this.enlacesCaidos++;
        caer(msg('smppEnlaceSinRespuesta'));
        s.destroy();
        void this.conectar().catch(() => {});
      }, plazo);
      espera.unref();
      agrupar(s);
      s.enquire_link({}, () => {
        respondio = true;
        clearTimeout(espera);
      });
    }, periodo);
    t.unref();
  }

  /** Sessions dropped because their enquire_link went unanswered. */
  enlacesCaidos = 0;

  /** What a refused bind means. Already bound / no free session (RALYBND, RBINDFAIL, which
   * SMSCs answer when the account's binds are in use, e.g. several dispatchers on one account)
   * and the SMSC's own trouble back off and retry; anything else (RINVPASWD, RINVSYSID, a
   * system_type or version refused) is the device's configuration: credentials refused, pause. */
  private errorBind(estado: number): Error {
    const nombre = BIND_TRANSITORIOS.get(estado);
    if (nombre) {
      this.fallosBind++;
      this.bindDesde =
        Date.now() +
        Math.min(this.o.config.backoffMs * 2 ** (this.fallosBind - 1), this.o.config.backoffMaxMs);
      this.motivoBind = msg('smppBindOcupado', { alias: this.o.equipo.alias, estado: nombre });
      return new Error(this.motivoBind);
    }
    const detalle = BIND_CREDENCIALES.get(estado) ?? `0x${estado.toString(16)}`;
    return Object.assign(
      new Error(
        msg('credencialesEquipoInvalidas', {
          alias: this.o.equipo.alias,
          protocolo: 'SMPP',
          detalle: `bind_transceiver ${detalle}`,
        }),
      ),
      { credenciales: true },
    );
  }

  /**
   * A reply (issue 46): read from its octets, handed to the dispatcher, and acknowledged only once
   * stored. A storage failure answers ESME_RX_T_APPN (temporary): the SMSC delivers it again, and
   * the store keeps it once. A PDU that cannot be read is stored as its octets, never lost.
   */
  private async respuesta(s: Sesion, pdu: Pdu, cuerpo: Buffer | null): Promise<void> {
    let estado = 0;
    try {
      let r: RespuestaEntrante;
      try {
        if (!cuerpo) throw new Error('sin octetos');
        const p = leerParteMo(leerDeliver(cuerpo), this.opciones.empaquetado);
        const d = decodificarMo(p.data_coding, p.contenido);
        r = {
          id_equipo: this.o.equipo.id_equipo,
          canal: 'smpp',
          remitente: p.remitente,
          telefono: p.telefono,
          texto: d.texto,
          codificacion: d.codificacion,
          ...(d.nota ? { nota: d.nota } : {}),
          texto_crudo: p.crudo.toString('hex'),
          ...(p.parte
            ? {
                parte: {
                  ...p.parte,
                  data_coding: p.data_coding,
                  contenido: p.contenido.toString('hex'),
                },
              }
            : {}),
        };
      } catch (err) {
        const hex = (cuerpo ?? Buffer.alloc(0)).toString('hex');
        r = {
          id_equipo: this.o.equipo.id_equipo,
          canal: 'smpp',
          remitente: String(pdu.source_addr ?? ''),
          telefono: null,
          texto: hex.slice(0, 4_000),
          codificacion: 'pdu',
          nota: `deliver_sm ilegible: ${(err as Error).message}`,
          texto_crudo: hex,
        };
      }
      await this.o.alRespuesta!(r);
    } catch (err) {
      estado = ESME_RX_T_APPN;
      this.sinDestino(`respuesta sin guardar, el SMSC la reenviará: ${String(err)}`);
    }
    if (!s.socket.writable) return;
    agrupar(s);
    s.send(pdu.response({ command_status: estado }));
  }

  /** Reads a receipt and hands it to the dispatcher; the promise (when the dispatcher gives
   * one) resolves once it is durable. Nothing to wait for when it is not a receipt. */
  private recibo(pdu: Pdu): Promise<void> | undefined {
    const esm = pdu.esm_class ?? 0;
    // esm_class bits 2-5 say what a deliver_sm is: 0x04 an SMSC delivery receipt, 0x20 an
    // intermediate notification (not final); anything else is not a receipt (a reply, an MO).
    const tipo = esm & 0x3c;
    if (tipo === 0x20) return undefined;
    const texto = textoPdu(pdu.short_message) || textoPdu(pdu.message_payload);
    if (tipo !== 0x04) {
      this.sinDestino(
        `deliver_sm que no es acuse (esm_class 0x${esm.toString(16)}): ${texto.slice(0, 60)}`,
      );
      return undefined;
    }
    const leido = leerRecibo(texto);
    const bruto = pdu.receipted_message_id || leido.id;
    if (!bruto) {
      this.sinDestino(`acuse sin id: ${texto.slice(0, 80)}`);
      return undefined;
    }
    const stat = leido.stat ?? ESTADOS_MENSAJE[pdu.message_state ?? 0];
    const d = desenlaceRecibo(stat, leido.err);
    if (!d) return undefined;
    // Unknown to this channel (sent before a restart, or beyond the index): as is, for the store.
    const id = this.ids.buscar(bruto) ?? bruto;
    this.ids.quitar(id);
    // A long text's part goes as is too: the store finds its row in sms_partes and counts the
    // parts there, so receipts that come after a restart, or to another dispatcher, still count.
    const { entregado, motivo } = d;
    // The recipient (source_addr): the row whose id died with a dispatcher is found by it.
    const telefono = String(pdu.source_addr ?? '');
    const r = this.o.alRecibo({
      id_equipo: this.o.equipo.id_equipo,
      id_gateway: id,
      entregado,
      motivo,
      ...(telefono ? { telefono } : {}),
    });
    return r ?? undefined;
  }

  /** A deliver_sm that cannot be applied: told to the dispatcher, which logs and counts it. */
  private sinDestino(detalle: string): void {
    this.o.alReciboSinDestino?.(`SMPP ${this.o.equipo.alias}: ${detalle}`);
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

  private async tomarVentana(): Promise<void> {
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
    this.ids.barrer(ahora);
  }

  async enviar(e: Envio): Promise<ResultadoEnvio> {
    this.barrido ??= setInterval(() => this.barrer(), 1000);
    this.barrido.unref();
    if (this.cerrado) return { tipo: 'reintentar', motivo: 'SMPP: canal cerrado' };
    let s = this.sesion;
    if (!s && !this.conectando && Date.now() < this.bindDesde)
      // A bind was refused for now: no new bind until its backoff ends.
      return { tipo: 'reintentar', motivo: this.motivoBind };
    if (!s) {
      try {
        s = await this.conectar();
      } catch (err) {
        const e = err as Error & {
          credenciales?: boolean;
          sinConexion?: boolean;
          pausar?: boolean;
        };
        return {
          tipo: 'reintentar',
          motivo: e.message,
          pausar: e.credenciales === true || e.pausar === true,
          ...(e.sinConexion ? { sinConexion: true } : {}),
        };
      }
    }
    let texto: TextoCodificado;
    try {
      texto = this.codificado(e.texto);
    } catch (err) {
      return { tipo: 'fallido', motivo: (err as Error).message };
    }
    // The exercise's validity: the SMSC drops a message it could not deliver in time.
    const vigencia = e.vigencia ? { validity_period: vigenciaRelativa(e.vigencia) } : {};
    if (texto.partes.length === 1) {
      const p = texto.partes[0]!;
      const r = await this.submit(
        s,
        e.telefono,
        p.data_coding,
        {
          ...(texto.concatenacion === 'payload'
            ? { short_message: Buffer.alloc(0), message_payload: p.cuerpo }
            : { short_message: p.cuerpo }),
          ...vigencia,
        },
        e.salir,
      );
      return r.tipo === 'aceptado' ? { tipo: 'aceptado', id_gateway: r.id } : r;
    }
    return this.enviarPartes(s, e.telefono, texto, vigencia, e.salir);
  }

  /** Sends every part of a long text; the recipient's result is that of all parts together. */
  private async enviarPartes(
    s: Sesion,
    telefono: string,
    texto: TextoCodificado,
    extra: object,
    salir?: () => Promise<void>,
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
          ...extra,
        };
      // UDH: IEI 0x00 (concatenation, 8-bit reference), length 3, reference, total, sequence.
      const udh = Buffer.from([0x05, 0x00, 0x03, ref, total, i + 1]);
      return { short_message: Buffer.concat([udh, p.cuerpo]), esm_class: 0x40, ...extra };
    };
    const ids: string[] = [];
    const una = async (i: number): Promise<ResultadoParte> => {
      const dc = texto.partes[i]!.data_coding;
      let r = await this.submit(s, telefono, dc, campos(i));
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
        r = await this.submit(actual, telefono, dc, campos(i));
      }
      if (r.tipo === 'aceptado') ids[i] = r.id;
      return r;
    };
    // The first part alone: if the SMSC refuses it for now, nothing was sent and the whole can wait.
    const primera = await this.submit(s, telefono, texto.partes[0]!.data_coding, campos(0), salir);
    if (primera.tipo !== 'aceptado') return primera;
    ids[0] = primera.id;
    const resto = await Promise.all(texto.partes.slice(1).map((_, i) => una(i + 1)));
    // The row's id: the first part's and how many follow (every part's id goes in `partes`).
    const id_gateway = `${primera.id}+${total - 1}`;
    const partes = Array.from({ length: total }, (_, i) => ids[i] ?? '');
    const malo = resto.findIndex((r) => r.tipo !== 'aceptado');
    if (malo < 0) return { tipo: 'aceptado', id_gateway, partes };
    const r = resto[malo] as Exclude<ResultadoParte, { tipo: 'aceptado' }>;
    // Some parts reached the SMSC: never resent as a whole.
    return {
      tipo: r.tipo === 'incierto' ? 'incierto' : r.tipo === 'invalido' ? 'invalido' : 'fallido',
      motivo: motivoParte(r.motivo, { parte: malo + 2, total }),
      id_gateway,
      partes,
    };
  }

  /** One submit_sm in the window; resolves with what the SMSC answered. `salir` (a message's
   * first submit) counts the attempt right before the PDU is written. */
  private async submit(
    s: Sesion,
    telefono: string,
    data_coding: number,
    campos: object,
    salir?: () => Promise<void>,
  ): Promise<ResultadoParte> {
    // A free place in the window is taken at once, without a turn of the event loop.
    if (this.enVentana < this.o.config.ventanaSmpp && this.esperaVentana.length === 0)
      this.enVentana++;
    else await this.tomarVentana();
    try {
      if (salir) {
        try {
          await salir();
        } catch (err) {
          return { tipo: 'reintentar', motivo: `SMPP: ${String(err)}` };
        }
        // The session died while the attempt was written: nothing went out.
        if (this.sesion !== s || !s.socket.writable)
          return { tipo: 'reintentar', motivo: 'SMPP: conexión no disponible', sinSalir: true };
      }
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
        const destino = direccionDestino(telefono, this.opciones.direcciones);
        const escrito = s.submit_sm(
          {
            destination_addr: destino.addr,
            dest_addr_ton: destino.ton,
            dest_addr_npi: destino.npi,
            source_addr: this.origen.addr,
            source_addr_ton: this.origen.ton,
            source_addr_npi: this.origen.npi,
            registered_delivery: 1,
            data_coding,
            ...campos,
          },
          (pdu) => {
            if (pdu.command_status === 0) {
              this.ids.agregar(String(pdu.message_id));
              fin({ tipo: 'aceptado', id: String(pdu.message_id) });
              return;
            }
            const { nombre, clase } = claseEstadoSmpp(pdu.command_status);
            const codigo = `SMPP 0x${pdu.command_status.toString(16)}`;
            if (clase === 'direccion')
              fin({
                tipo: 'reintentar',
                pausar: true,
                motivo: msg('smppDireccionRechazada', {
                  alias: this.o.equipo.alias,
                  estado: nombre.replace(/^ESME_/, ''),
                  origen: `${this.origen.addr || '(vacío)'} TON ${this.origen.ton}/NPI ${this.origen.npi}`,
                  destino: `${destino.addr} TON ${destino.ton}/NPI ${destino.npi}`,
                }),
              });
            else if (clase === 'equipo')
              fin({
                tipo: 'reintentar',
                pausar: true,
                motivo: msg('smppEstadoEquipo', {
                  alias: this.o.equipo.alias,
                  estado: `${nombre}, ${codigo}`,
                }),
              });
            else if (clase === 'invalido') fin({ tipo: 'invalido', motivo: codigo });
            else if (clase === 'reintentar') fin({ tipo: 'reintentar', motivo: codigo });
            else fin({ tipo: 'fallido', motivo: codigo });
          },
        );
        if (!escrito)
          fin({ tipo: 'reintentar', motivo: 'SMPP: conexión no disponible', sinSalir: true });
        else if (TRAZA && salir) fs.appendFileSync(TRAZA, `${destino.addr}\n`);
      });
    } finally {
      this.liberarVentana();
    }
  }

  async probar(): Promise<string | null> {
    if (this.sesion) return null;
    try {
      await this.conectar();
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  }

  async escuchar(ids: readonly string[] = []): Promise<void> {
    for (const id of ids) this.ids.agregar(id);
    if (this.sesion || this.cerrado) return;
    await this.conectar().catch(() => {});
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

registrarCanal('smpp', { crear: (o) => new CanalSmpp(o), idempotente: false, escucha: true });
