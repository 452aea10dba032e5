import { TIPO_SMS } from '../constants.ts';
import { msg } from '../messages.ts';

// What an SMS text costs on the network (3GPP TS 23.038 / GSM 03.38, TS 23.040): its encoding,
// its length as the network counts it, and its parts. The dialog shows it, the SMPP channel sends
// it, the SMPP simulator decodes it; all three read these functions.

/** GSM 03.38 default alphabet: the character at each septet value 0x00–0x7F (0x1B is the escape). */
const BASICO =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\x1bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** GSM 03.38 extension table: character → septet sent after the escape 0x1B. */
const EXTENSION: ReadonlyMap<string, number> = new Map([
  ['\f', 0x0a],
  ['^', 0x14],
  ['{', 0x28],
  ['}', 0x29],
  ['\\', 0x2f],
  ['[', 0x3c],
  ['~', 0x3d],
  [']', 0x3e],
  ['|', 0x40],
  ['€', 0x65],
]);
const BASICO_DE: ReadonlyMap<string, number> = new Map(
  [...BASICO].map((c, i) => [c, i] as const).filter(([c]) => c !== '\x1b'),
);
const EXTENSION_DE: ReadonlyMap<number, string> = new Map(
  [...EXTENSION].map(([c, v]) => [v, c] as const),
);
/** The escape septet that announces a character of the extension table. */
export const ESCAPE_GSM = 0x1b;

/** How a text travels: GSM 03.38 7-bit default alphabet, or UCS-2 (UTF-16BE) when any character does not fit. */
export type CodificacionSms = 'GSM-7' | 'UCS-2';

/** Network limits: characters of a single SMS and of each part of a concatenated one. */
export const LIMITES_SMS: Readonly<Record<CodificacionSms, { sola: number; parte: number }>> = {
  'GSM-7': { sola: 160, parte: 153 },
  'UCS-2': { sola: 70, parte: 67 },
};

/** Most parts a concatenated SMS can have (its count travels in one octet). */
export const MAX_PARTES_SMS = 255;

/** The analysis of a text as the network counts it. */
export interface AnalisisSms {
  codificacion: CodificacionSms;
  /** Characters as the network counts them: septets (extension characters count 2) or UTF-16 code units (emoji count 2). */
  caracteres: number;
  /** SMS per recipient (0 for an empty text). */
  partes: number;
  /** Characters in the last part. */
  usados: number;
  /** Capacity of each part (160/70 alone, 153/67 when concatenated). */
  capacidad: number;
  /** The first character that forces UCS-2 (null when the text is GSM-7). */
  fuerzaUcs2: string | null;
  /** The text of each part (a part never splits an escape pair or a surrogate pair). */
  textos: string[];
}

/** Septets of one character in GSM 03.38 (1 basic, 2 extension), or 0 when it is not in the alphabet. */
function septetosDe(c: string): number {
  if (BASICO_DE.has(c)) return 1;
  return EXTENSION.has(c) ? 2 : 0;
}

/** Encoding, length, parts and part texts of an SMS text. */
export function analizarSms(texto: string): AnalisisSms {
  let fuerzaUcs2: string | null = null;
  for (const c of texto) {
    if (septetosDe(c) === 0) {
      fuerzaUcs2 = c;
      break;
    }
  }
  const codificacion: CodificacionSms = fuerzaUcs2 === null ? 'GSM-7' : 'UCS-2';
  // Units of each character as the network counts it (a code point outside the BMP is 2 in UCS-2).
  const unidades: [string, number][] = [...texto].map((c) => [
    c,
    codificacion === 'GSM-7' ? septetosDe(c) : c.length,
  ]);
  const caracteres = unidades.reduce((s, [, n]) => s + n, 0);
  const limites = LIMITES_SMS[codificacion];
  if (caracteres <= limites.sola) {
    return {
      codificacion,
      caracteres,
      partes: caracteres === 0 ? 0 : 1,
      usados: caracteres,
      capacidad: limites.sola,
      fuerzaUcs2,
      textos: caracteres === 0 ? [] : [texto],
    };
  }
  const textos: string[] = [];
  let actual = '';
  let usados = 0;
  for (const [c, n] of unidades) {
    if (usados + n > limites.parte) {
      textos.push(actual);
      actual = '';
      usados = 0;
    }
    actual += c;
    usados += n;
  }
  textos.push(actual);
  return {
    codificacion,
    caracteres,
    partes: textos.length,
    usados,
    capacidad: limites.parte,
    fuerzaUcs2,
    textos,
  };
}

/** The GSM 03.38 septets of a text (extension characters as escape + septet); throws on a character outside the alphabet. */
export function septetosGsm(texto: string): number[] {
  const r: number[] = [];
  for (const c of texto) {
    const b = BASICO_DE.get(c);
    if (b !== undefined) r.push(b);
    else {
      const e = EXTENSION.get(c);
      if (e === undefined) throw new Error(`«${c}» no está en el alfabeto GSM 03.38`);
      r.push(ESCAPE_GSM, e);
    }
  }
  return r;
}

/** The text of GSM 03.38 septets (an unknown escape shows as a space, as handsets do). */
export function textoGsm(septetos: ArrayLike<number>): string {
  let r = '';
  for (let i = 0; i < septetos.length; i++) {
    const s = septetos[i]! & 0x7f;
    if (s === ESCAPE_GSM) {
      const e = septetos[++i];
      r += e === undefined ? '' : (EXTENSION_DE.get(e & 0x7f) ?? ' ');
    } else r += BASICO[s];
  }
  return r;
}

/** Packs septets into octets (TS 23.038 6.1.2.1), after `relleno` fill bits that align them after a UDH;
 * 7 spare bits at the end carry a CR so the receiver does not read an '@' there. */
export function empaquetarGsm(septetos: readonly number[], relleno = 0): Uint8Array {
  const bits = relleno + septetos.length * 7;
  const r = new Uint8Array(Math.ceil(bits / 8));
  let pos = relleno;
  const todos = r.length * 8 - bits === 7 ? [...septetos, 0x0d] : septetos;
  for (const s of todos) {
    for (let b = 0; b < 7; b++, pos++) if ((s >> b) & 1) r[pos >> 3]! |= 1 << (pos & 7);
  }
  return r;
}

/** Unpacks `n` septets from octets that start with `relleno` fill bits. */
export function desempaquetarGsm(octetos: Uint8Array, n: number, relleno = 0): number[] {
  const r: number[] = [];
  let pos = relleno;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let b = 0; b < 7; b++, pos++) if ((octetos[pos >> 3]! >> (pos & 7)) & 1) s |= 1 << b;
    r.push(s);
  }
  return r;
}

/** The septets packed in octets after `relleno` fill bits (a CR in 7 spare end bits is padding, dropped). */
export function septetosEmpaquetados(octetos: Uint8Array, relleno = 0): number[] {
  const bits = octetos.length * 8 - relleno;
  const s = desempaquetarGsm(octetos, Math.floor(bits / 7), relleno);
  if (bits % 7 === 0 && s.at(-1) === 0x0d) s.pop();
  return s;
}

/** Fill bits after a UDH of `octetosUdh` octets (its length octet included) so septets start on a septet boundary. */
export function rellenoTrasUdh(octetosUdh: number): number {
  return (7 - ((octetosUdh * 8) % 7)) % 7;
}

/** SMS an exercise sends: its recipients × the parts of its text, for SMS exercises (type 1);
 * null for other types. The list and the dashboard show it before a drill starts. */
export function smsTotal(id_tipo: number, accion: string, destinatarios: number): number | null {
  return id_tipo === TIPO_SMS ? destinatarios * analizarSms(accion).partes : null;
}

/** The list's and dashboard's SMS figure of an exercise with recipients: '8 SMS (2 por
 * destinatario)', and once acknowledgements of its replies went out (issue 46.2, sms_acuses,
 * already in sms_total) '9 SMS (2 por destinatario y 1 de acuses de respuesta)'. */
export function textoSmsTotal(f: {
  sms_total: number;
  destinatarios: number;
  sms_acuses?: number | undefined;
}): string {
  const acuses = f.sms_acuses ?? 0;
  const total = f.sms_total.toLocaleString('es-MX');
  const partes = (f.sms_total - acuses) / f.destinatarios;
  return acuses > 0
    ? msg('smsTotalConAcuses', { total, partes, acuses: acuses.toLocaleString('es-MX') })
    : msg('smsTotal', { total, partes });
}
