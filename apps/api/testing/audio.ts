import { execFileSync } from 'node:child_process';

/** Writes `segundos` of a sine tone as real GSM 06.10 audio (8 kHz mono) with Debian's sox: the
 * audio the AMI simulator plays for its real length, as Asterisk would. */
export function tonoGsm(archivo: string, segundos: number, hz = 440): void {
  execFileSync('sox', [
    '-n',
    '-r',
    '8000',
    '-c',
    '1',
    archivo,
    'synth',
    String(segundos),
    'sine',
    String(hz),
  ]);
}
