/**
 * GSM 06.10 full-rate decoder (ETSI EN 300 961; the integer arithmetic of libgsm, which sox and
 * Asterisk use), so the dialogs can play a .gsm file in the browser before and after uploading.
 * Input: raw 33-byte frames as Asterisk stores them; output: 16-bit PCM at 8 kHz.
 */

/** Bytes of one frame. */
export const BYTES_TRAMA = 33;
/** Samples of one frame (20 ms at 8 kHz). */
const MUESTRAS_TRAMA = 160;
/** Sample rate of GSM audio. */
export const FRECUENCIA_GSM = 8000;

const MIN = -32768;
const MAX = 32767;

const sat = (x: number) => (x < MIN ? MIN : x > MAX ? MAX : x);
const suma = (a: number, b: number) => sat(a + b);
const resta = (a: number, b: number) => sat(a - b);
const multR = (a: number, b: number) =>
  a === MIN && b === MIN ? MAX : sat(Math.floor((a * b + 16384) / 32768));
const asr = (a: number, n: number) =>
  n >= 16 ? (a < 0 ? -1 : 0) : n <= -16 ? 0 : n < 0 ? asl(a, -n) : a >> n;
function asl(a: number, n: number): number {
  if (n >= 16) return 0;
  if (n <= -16) return a < 0 ? -1 : 0;
  if (n < 0) return asr(a, -n);
  return sat(a << n);
}

const FAC = [18431, 20479, 22527, 24575, 26623, 28671, 30719, 32767];
const QLB = [3277, 11469, 21299, 32767];
const LAR_B = [0, 0, 2048, -2560, 94, -1792, -341, -1144];
const LAR_MIC = [-32, -32, -16, -16, -8, -8, -4, -4];
const LAR_INVA = [13107, 13107, 13107, 13107, 19223, 17476, 31454, 29708];
const BITS_LAR = [6, 6, 5, 5, 4, 4, 3, 3];

/** Whether the bytes are whole GSM 06.10 frames (each starts with the 0xD signature). */
export function esGsm(datos: Uint8Array): boolean {
  if (datos.length === 0 || datos.length % BYTES_TRAMA !== 0) return false;
  for (let i = 0; i < datos.length; i += BYTES_TRAMA) if (datos[i]! >> 4 !== 0xd) return false;
  return true;
}

/** Length in seconds of raw GSM 06.10 data: 20 ms per 33-byte frame. */
export function duracionGsm(bytes: number): number {
  return Math.floor(bytes / BYTES_TRAMA) * 0.02;
}

/** Decoder state carried from frame to frame. */
class Estado {
  drp = new Int32Array(160);
  nrp = 40;
  larpp = [new Int32Array(8), new Int32Array(8)];
  j = 0;
  v = new Int32Array(9);
  msr = 0;
}

function decodificarLar(larc: readonly number[], larpp: Int32Array) {
  for (let i = 0; i < 8; i++) {
    let t = suma(larc[i]!, LAR_MIC[i]!) << 10;
    t = resta(t, LAR_B[i]! << 1);
    t = multR(LAR_INVA[i]!, t);
    larpp[i] = suma(t, t);
  }
}

function larARp(larp: Int32Array) {
  for (let i = 0; i < 8; i++) {
    const x = larp[i]!;
    const t = x < 0 ? (x === MIN ? MAX : -x) : x;
    const r = t < 11059 ? t << 1 : t < 20070 ? t + 11059 : suma(t >> 2, 26112);
    larp[i] = x < 0 ? -r : r;
  }
}

function sintesisCorta(
  e: Estado,
  rrp: Int32Array,
  n: number,
  wt: Int32Array,
  desde: number,
  s: Int16Array,
) {
  const v = e.v;
  for (let k = desde; k < desde + n; k++) {
    let sri = wt[k]!;
    for (let i = 7; i >= 0; i--) {
      sri = resta(sri, multR(rrp[i]!, v[i]!));
      v[i + 1] = suma(v[i]!, multR(rrp[i]!, sri));
    }
    v[0] = sri;
    s[k] = sri;
  }
}

function filtroCorto(e: Estado, larc: readonly number[], wt: Int32Array, s: Int16Array) {
  const actual = e.larpp[e.j]!;
  e.j ^= 1;
  const previo = e.larpp[e.j]!;
  decodificarLar(larc, actual);
  const larp = new Int32Array(8);
  const tramo = (pesoPrevio: 0 | 1 | 2 | 3, desde: number, n: number) => {
    for (let i = 0; i < 8; i++) {
      const p = previo[i]!;
      const a = actual[i]!;
      if (pesoPrevio === 3) larp[i] = suma(suma(p >> 2, a >> 2), p >> 1);
      else if (pesoPrevio === 2) larp[i] = suma(p >> 1, a >> 1);
      else if (pesoPrevio === 1) larp[i] = suma(suma(p >> 2, a >> 2), a >> 1);
      else larp[i] = a;
    }
    larARp(larp);
    sintesisCorta(e, larp, n, wt, desde, s);
  };
  tramo(3, 0, 13);
  tramo(2, 13, 14);
  tramo(1, 27, 13);
  tramo(0, 40, 120);
}

function rpe(xmaxc: number, mc: number, xmc: readonly number[], erp: Int32Array) {
  let exp = 0;
  if (xmaxc > 15) exp = (xmaxc >> 3) - 1;
  let mant = xmaxc - (exp << 3);
  if (mant === 0) {
    exp = -4;
    mant = 7;
  } else {
    while (mant <= 7) {
      mant = (mant << 1) | 1;
      exp--;
    }
    mant -= 8;
  }
  const t1 = FAC[mant]!;
  const t2 = resta(6, exp);
  const t3 = asl(1, resta(t2, 1));
  erp.fill(0);
  for (let i = 0; i < 13; i++) {
    let t = ((xmc[i]! << 1) - 7) << 12;
    t = suma(multR(t1, t), t3);
    erp[mc + 3 * i] = asr(t, t2);
  }
}

function sintesisLarga(e: Estado, nc: number, bc: number, erp: Int32Array) {
  const nr = nc < 40 || nc > 120 ? e.nrp : nc;
  e.nrp = nr;
  const brp = QLB[bc]!;
  const d = e.drp;
  for (let k = 0; k < 40; k++) d[120 + k] = suma(erp[k]!, multR(brp, d[120 + k - nr]!));
}

/** Reads MSB-first bit fields from a frame. */
class Bits {
  private pos = 4;
  constructor(
    private readonly b: Uint8Array,
    private readonly base: number,
  ) {}
  leer(n: number): number {
    let x = 0;
    for (let i = 0; i < n; i++, this.pos++) {
      const byte = this.b[this.base + (this.pos >> 3)]!;
      x = (x << 1) | ((byte >> (7 - (this.pos & 7))) & 1);
    }
    return x;
  }
}

function decodificarTrama(e: Estado, datos: Uint8Array, base: number, salida: Int16Array) {
  const bits = new Bits(datos, base);
  const larc = BITS_LAR.map((n) => bits.leer(n));
  const wt = new Int32Array(MUESTRAS_TRAMA);
  const erp = new Int32Array(40);
  for (let j = 0; j < 4; j++) {
    const nc = bits.leer(7);
    const bc = bits.leer(2);
    const mc = bits.leer(2);
    const xmaxc = bits.leer(6);
    const xmc = Array.from({ length: 13 }, () => bits.leer(3));
    rpe(xmaxc, mc, xmc, erp);
    sintesisLarga(e, nc, bc, erp);
    for (let k = 0; k < 40; k++) wt[j * 40 + k] = e.drp[120 + k]!;
    e.drp.copyWithin(0, 40, 160);
  }
  filtroCorto(e, larc, wt, salida);
  for (let k = 0; k < MUESTRAS_TRAMA; k++) {
    e.msr = suma(salida[k]!, multR(e.msr, 28180));
    salida[k] = ((suma(e.msr, e.msr) & 0xfff8) << 16) >> 16;
  }
}

/** Decodes raw GSM 06.10 frames into 16-bit PCM samples at 8 kHz (a trailing partial frame is
 * ignored). */
export function decodificarGsm(datos: Uint8Array): Int16Array {
  const tramas = Math.floor(datos.length / BYTES_TRAMA);
  const pcm = new Int16Array(tramas * MUESTRAS_TRAMA);
  const e = new Estado();
  const trama = new Int16Array(MUESTRAS_TRAMA);
  for (let t = 0; t < tramas; t++) {
    decodificarTrama(e, datos, t * BYTES_TRAMA, trama);
    pcm.set(trama, t * MUESTRAS_TRAMA);
  }
  return pcm;
}

/** A mono 16-bit PCM WAV file of the samples, which any browser plays. */
export function wavDePcm(pcm: Int16Array, frecuencia = FRECUENCIA_GSM): Uint8Array {
  const bytes = pcm.length * 2;
  const out = new Uint8Array(44 + bytes);
  const v = new DataView(out.buffer);
  const texto = (o: number, s: string) => {
    for (let i = 0; i < s.length; i++) v.setUint8(o + i, s.charCodeAt(i));
  };
  texto(0, 'RIFF');
  v.setUint32(4, 36 + bytes, true);
  texto(8, 'WAVE');
  texto(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, frecuencia, true);
  v.setUint32(28, frecuencia * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  texto(36, 'data');
  v.setUint32(40, bytes, true);
  for (let i = 0; i < pcm.length; i++) v.setInt16(44 + i * 2, pcm[i]!, true);
  return out;
}
