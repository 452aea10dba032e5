/**
 * Stored audio names (issue 23.1). The telephony agent stores every upload under a
 * content-addressed name, `{base}-{h}`: `base` the client's chosen name, `h` the first 16 hex
 * digits of the SHA-256 of the GSM frames stored. The same bytes give the same name, other bytes
 * another name, so an upload never replaces audio a drill plays. The operator still sees the name
 * they chose (`nombreVisibleAudio`). Pure functions, shared by the agent, the api and the web.
 */
import { MAX_LARGO_AUDIO } from './questionnaire.ts';

/** Hex digits of the SHA-256 kept in a stored name. */
export const LARGO_HUELLA = 16;

/** A stored name's suffix: '-' and 16 lower-case hex digits, at the end (before an optional .gsm). */
const SUFIJO = new RegExp(`-[0-9a-f]{${LARGO_HUELLA}}(?=(\\.gsm)?$)`, 'i');

/** The name the operator chose, without the `-{16 hex}` suffix the agent adds ('aviso-0123…'
 * → 'aviso', 'aviso-0123….gsm' → 'aviso.gsm'); any other name is returned as it is. */
export function nombreVisibleAudio(nombre: string): string {
  const sin = nombre.replace(SUFIJO, '');
  return sin === '' || sin.startsWith('.') ? nombre : sin;
}

/** The stored name of `base` (already checked against PATRON_NOMBRE_AUDIO) for content whose
 * SHA-256 is `sha256` (hex): an earlier suffix is dropped first (re-uploading a stored name keeps
 * one suffix), the base is cut so the whole name fits 64 characters. */
export function nombreAlmacenAudio(base: string, sha256: string): string {
  const h = sha256.slice(0, LARGO_HUELLA).toLowerCase();
  if (!/^[0-9a-f]{16}$/.test(h)) throw new Error('nombreAlmacenAudio: sha256 no es hexadecimal');
  const limpio = nombreVisibleAudio(base).slice(0, MAX_LARGO_AUDIO - LARGO_HUELLA - 1);
  return `${limpio}-${h}`;
}

/** The short form of a SHA-256 shown in reports (its first 16 hex digits, as in stored names). */
export function huellaCorta(sha256: string): string {
  return sha256.slice(0, LARGO_HUELLA);
}
