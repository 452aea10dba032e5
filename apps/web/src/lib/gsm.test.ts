import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodificarGsm, duracionGsm, esGsm, wavDePcm } from './gsm.ts';

const PROMPTS = '/usr/share/asterisk/sounds/es_MX_f_Allison';

/** sox's decode of the same file (libgsm): 16-bit signed little-endian samples. */
function sox(archivo: string): Int16Array {
  const raw = execFileSync('sox', [
    '-t',
    'gsm',
    archivo,
    '-t',
    'raw',
    '-e',
    'signed',
    '-b',
    '16',
    '-L',
    '-',
  ]);
  return new Int16Array(raw.buffer, raw.byteOffset, raw.length / 2);
}

describe('decodificador GSM 06.10', () => {
  it.each(['auth-thankyou.gsm', 'vm-goodbye.gsm', 'agent-pass.gsm'])(
    'decodifica %s muestra por muestra igual que sox (libgsm)',
    (nombre) => {
      const archivo = `${PROMPTS}/${nombre}`;
      const datos = new Uint8Array(fs.readFileSync(archivo));
      expect(esGsm(datos)).toBe(true);
      const propio = decodificarGsm(datos);
      const referencia = sox(archivo);
      expect(propio.length).toBe(referencia.length);
      expect(propio.length / 8000).toBeCloseTo(duracionGsm(datos.length), 6);
      let distintas = 0;
      for (let i = 0; i < propio.length; i++) if (propio[i] !== referencia[i]) distintas++;
      expect(distintas).toBe(0);
    },
  );

  it('rechaza lo que no son tramas GSM y arma un WAV PCM que declara su tamaño', () => {
    expect(esGsm(new Uint8Array(33))).toBe(false);
    expect(esGsm(new Uint8Array(40))).toBe(false);
    const wav = wavDePcm(new Int16Array([1, -1, 300]));
    expect(new TextDecoder().decode(wav.slice(0, 4))).toBe('RIFF');
    expect(new DataView(wav.buffer).getUint32(40, true)).toBe(6);
    expect(new DataView(wav.buffer).getInt16(46, true)).toBe(-1);
  });
});
