import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BYTES_TRAMA, leerAudioGsm, validarGsmCrudo } from './gsm.ts';

// The GSM 06.10 check against real audio: every Spanish prompt Debian ships
// (asterisk-core-sounds-es-gsm) is accepted with its real length, and the same bytes cut short
// or with a broken frame are refused.

const PROMPTS = '/usr/share/asterisk/sounds/es_MX_f_Allison';

function gsmBajo(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.gsm'))
    .map((f) => path.join(dir, f))
    .sort();
}

describe.skipIf(!fs.existsSync(PROMPTS))('GSM 06.10 con los mensajes de Debian en español', () => {
  const archivos = fs.existsSync(PROMPTS) ? gsmBajo(PROMPTS) : [];

  it('accepts every prompt with its length, refuses each one cut or with a broken frame', () => {
    expect(archivos.length).toBeGreaterThan(400);
    // Plain comparisons collected in one list: 500 deep Buffer equalities would take 30 s.
    const fallos: string[] = [];
    for (const f of archivos) {
      const datos = fs.readFileSync(f);
      const v = validarGsmCrudo(datos);
      if (
        !v.ok ||
        v.tramas !== datos ||
        v.duracion_s !== ((datos.length / BYTES_TRAMA) * 20) / 1000
      )
        fallos.push(`${f}: ${JSON.stringify({ ...v, tramas: undefined })}`);
      if (validarGsmCrudo(datos.subarray(0, datos.length - 1)).ok) fallos.push(`${f} cortado`);
      const roto = Buffer.from(datos);
      const t = Math.floor(datos.length / BYTES_TRAMA / 2) * BYTES_TRAMA;
      roto[t] = 0x20;
      const r = validarGsmCrudo(roto);
      const esperado = `no es GSM 06.10: la trama ${t / BYTES_TRAMA + 1} no empieza con la firma 0xD`;
      if (r.ok || r.motivo !== esperado)
        fallos.push(`${f} roto: ${JSON.stringify(r.ok || r.motivo)}`);
    }
    expect(fallos).toEqual([]);
  });

  it('reads a WAV 6.10 made from a prompt as the raw frames sox writes; refuses a PCM WAV', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-gsm-'));
    try {
      const prompt = archivos.find((f) => f.endsWith('auth-thankyou.gsm')) ?? archivos[0]!;
      const pcm = path.join(dir, 'pcm.wav');
      execFileSync('sox', [prompt, '-b', '16', pcm]);
      execFileSync('sox', [pcm, path.join(dir, 'crudo.gsm')]);
      execFileSync('sox', [pcm, '-e', 'gsm-full-rate', path.join(dir, 'w49.wav')]);
      const crudo = fs.readFileSync(path.join(dir, 'crudo.gsm'));
      const v = leerAudioGsm(fs.readFileSync(path.join(dir, 'w49.wav')));
      if (!v.ok) throw new Error(v.motivo);
      // WAV 6.10 holds frames in pairs: an odd count gets one frame of padding.
      expect(v.tramas.subarray(0, crudo.length)).toEqual(crudo);
      expect(v.tramas.length - crudo.length).toBeLessThanOrEqual(BYTES_TRAMA);
      expect(leerAudioGsm(fs.readFileSync(pcm))).toEqual({
        ok: false,
        motivo: 'el WAV no contiene audio GSM 6.10; conviértalo a .gsm (8 kHz, mono)',
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
