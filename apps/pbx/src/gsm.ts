/**
 * GSM 06.10 full-rate audio as Asterisk plays it (format_gsm: raw 33-byte frames, 20 ms each,
 * each frame starting with the 0xD signature nibble), and the WAV form (RIFF, format 0x0031,
 * Microsoft's "WAV49" packing of two frames in 65 bytes) converted to raw frames. Pure functions.
 */

/** Bytes of one raw GSM 06.10 frame. */
export const BYTES_TRAMA = 33;
/** Milliseconds of audio in one frame (160 samples at 8 kHz). */
export const MS_TRAMA = 20;

/** Bit widths of the 76 parameters of one frame, in order: 8 LARc, then per sub-frame Nc, bc,
 * Mc, xmaxc and 13 xmc (GSM 06.10 section 1.7, table 1.1). They add up to 260 bits. */
const ANCHOS: readonly number[] = [
  6,
  6,
  5,
  5,
  4,
  4,
  3,
  3,
  ...Array.from({ length: 4 }, () => [7, 2, 2, 6, ...Array<number>(13).fill(3)]).flat(),
];

/** What an audio upload holds: raw frames and their length, or why it is not GSM 06.10. */
export type ResultadoGsm =
  { ok: true; tramas: Buffer; duracion_s: number } | { ok: false; motivo: string };

/** Checks raw GSM: a whole number of 33-byte frames, each with the 0xD signature. */
export function validarGsmCrudo(datos: Buffer): ResultadoGsm {
  if (datos.length === 0) return { ok: false, motivo: 'el archivo está vacío' };
  if (datos.length % BYTES_TRAMA !== 0)
    return {
      ok: false,
      motivo: `no es GSM 06.10: ${datos.length} bytes no son tramas completas de ${BYTES_TRAMA} bytes (la última está cortada)`,
    };
  for (let i = 0; i < datos.length; i += BYTES_TRAMA) {
    if (datos[i]! >> 4 !== 0xd)
      return {
        ok: false,
        motivo: `no es GSM 06.10: la trama ${i / BYTES_TRAMA + 1} no empieza con la firma 0xD`,
      };
  }
  return { ok: true, tramas: datos, duracion_s: ((datos.length / BYTES_TRAMA) * MS_TRAMA) / 1000 };
}

/** Reads a RIFF/WAVE file whose format is GSM 6.10 (0x0031) and returns its data as raw frames;
 * null when the bytes are not a RIFF/WAVE file at all. */
export function gsmDeWav(datos: Buffer): ResultadoGsm | null {
  if (datos.length < 12 || datos.toString('latin1', 0, 4) !== 'RIFF') return null;
  if (datos.toString('latin1', 8, 12) !== 'WAVE') return null;
  let formato: number | undefined;
  let bloque = 0;
  let data: Buffer | undefined;
  for (let p = 12; p + 8 <= datos.length;) {
    const id = datos.toString('latin1', p, p + 4);
    const largo = datos.readUInt32LE(p + 4);
    const cuerpo = datos.subarray(p + 8, Math.min(datos.length, p + 8 + largo));
    if (id === 'fmt ' && cuerpo.length >= 16) {
      formato = cuerpo.readUInt16LE(0);
      bloque = cuerpo.readUInt16LE(12);
    } else if (id === 'data') data = cuerpo;
    p += 8 + largo + (largo % 2);
  }
  if (formato !== 0x0031 || bloque !== 65)
    return {
      ok: false,
      motivo: 'el WAV no contiene audio GSM 6.10; conviértalo a .gsm (8 kHz, mono)',
    };
  if (!data || data.length < 65) return { ok: false, motivo: 'el WAV no tiene audio' };
  const pares = Math.floor(data.length / 65);
  const salida = Buffer.alloc(pares * 2 * BYTES_TRAMA);
  for (let i = 0; i < pares; i++) {
    const lector = lectorLsb(data.subarray(i * 65, i * 65 + 65));
    for (let t = 0; t < 2; t++) {
      const params = ANCHOS.map((w) => lector(w));
      escribirTrama(
        params,
        salida.subarray((i * 2 + t) * BYTES_TRAMA, (i * 2 + t + 1) * BYTES_TRAMA),
      );
    }
  }
  return validarGsmCrudo(salida);
}

/** WAV49 packs the parameters as a bit stream read from the low bit of each byte up, each value
 * least significant bit first (libgsm's WAV49 option). */
function lectorLsb(b: Buffer): (ancho: number) => number {
  let bit = 0;
  return (ancho) => {
    let v = 0;
    for (let k = 0; k < ancho; k++, bit++) v |= ((b[bit >> 3]! >> (bit & 7)) & 1) << k;
    return v;
  };
}

/** A raw frame: the 0xD nibble, then the parameters most significant bit first. */
function escribirTrama(params: readonly number[], destino: Buffer): void {
  destino.fill(0);
  let bit = 0;
  const poner = (v: number, ancho: number) => {
    for (let k = ancho - 1; k >= 0; k--, bit++) {
      if ((v >> k) & 1) destino[bit >> 3]! |= 0x80 >> (bit & 7);
    }
  };
  poner(0xd, 4);
  params.forEach((v, i) => poner(v, ANCHOS[i]!));
}

/** Reads an upload: a GSM WAV is converted to raw frames, anything else must be raw GSM. */
export function leerAudioGsm(datos: Buffer): ResultadoGsm {
  return gsmDeWav(datos) ?? validarGsmCrudo(datos);
}
