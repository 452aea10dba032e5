import type { ClaveMensaje } from '../messages.ts';
import { CONTRASENAS_COMUNES } from './contrasenas-comunes.ts';

/** Fewest characters of a password. */
export const MIN_PASSWORD = 8;
/** Most characters (UTF-16 units, as zod and the inputs' maxLength count) of a password: room for
 * a long passphrase; sign-in accepts the same (argon2 hashes any length; 256 keeps it cheap). */
export const MAX_PASSWORD = 256;

/** Why a password cannot be used, as a catalogue key with its parameters. */
export interface ProblemaContrasena {
  clave: ClaveMensaje;
  params?: Record<string, number>;
}

/** What the list is compared with: NFC, no surrounding spaces, lower case. */
const normalizar = (p: string) => p.normalize('NFC').trim().toLowerCase();

let comunes: Set<string> | undefined;

/** Whether the password is one of the most common (CONTRASENAS_COMUNES), whatever its case and
 * its surrounding spaces. */
export function esContrasenaComun(p: string): boolean {
  comunes ??= new Set(CONTRASENAS_COMUNES.split('\n').filter(Boolean));
  return comunes.has(normalizar(p));
}

/** The one rule for every password a person sets (user create and update, their own change,
 * ADMIN_PASSWORD), shared by the api and the web: MIN_PASSWORD characters or more (a person's
 * characters: code points), at most MAX_PASSWORD, not spaces alone, not a common password.
 * Undefined when it can be used. */
export function problemaContrasena(p: string): ProblemaContrasena | undefined {
  if ([...p].length < MIN_PASSWORD)
    return { clave: 'contrasenaCorta', params: { min: MIN_PASSWORD } };
  if (p.length > MAX_PASSWORD) return { clave: 'contrasenaLarga', params: { max: MAX_PASSWORD } };
  if (p.trim() === '') return { clave: 'contrasenaEnBlanco' };
  if (esContrasenaComun(p)) return { clave: 'contrasenaDemasiadoComun' };
  return undefined;
}

/** How strong a password reads, 0 (too short) to 4 (strong). */
export type NivelContrasena = 0 | 1 | 2 | 3 | 4;

/** The verdict the password fields show as the person types: level, its label and a hint. */
export interface FuerzaContrasena {
  nivel: NivelContrasena;
  etiqueta: ClaveMensaje;
  /** What to change to make it stronger; absent once it is strong. */
  consejo?: ClaveMensaje;
}

const ETIQUETAS: Readonly<Record<NivelContrasena, ClaveMensaje>> = {
  0: 'fuerzaMuyDebil',
  1: 'fuerzaDebil',
  2: 'fuerzaAceptable',
  3: 'fuerzaBuena',
  4: 'fuerzaFuerte',
};

/** Passwords (and pieces of them) people pick first; one inside a password makes it weak. */
const COMUNES = [
  'password',
  'contrasena',
  'contraseña',
  'qwerty',
  'asdf',
  '123456',
  '12345678',
  'abcdef',
  'admin',
  'pregon',
  'pregón',
  'mexico',
  'méxico',
  'secreto',
];

const CLASES = [/[a-zñáéíóúü]/, /[A-ZÑÁÉÍÓÚÜ]/, /\d/, /[^\p{L}\p{N}]/u];

/** Rates a password for the strength feedback of the user forms. What the server refuses
 * (problemaContrasena) rates 0 with its reason; beyond that this rates length and variety of
 * character classes, and rates common words and one- or two-character repetitions as weak. */
export function fuerzaContrasena(p: string): FuerzaContrasena {
  const n = [...p].length;
  const problema = problemaContrasena(p);
  if (problema) return { nivel: 0, etiqueta: ETIQUETAS[0], consejo: problema.clave };
  const minusculas = p.toLowerCase();
  if (new Set(p).size <= 2 || COMUNES.some((c) => minusculas.includes(c)))
    return { nivel: 1, etiqueta: ETIQUETAS[1], consejo: 'contrasenaComun' };
  const variedad = CLASES.filter((c) => c.test(p)).length;
  const puntos = variedad - 1 + (n >= 12 ? 1 : 0) + (n >= 16 ? 1 : 0);
  const nivel: NivelContrasena = puntos >= 4 ? 4 : puntos >= 2 ? 3 : puntos === 1 ? 2 : 1;
  return nivel === 4
    ? { nivel, etiqueta: ETIQUETAS[nivel] }
    : { nivel, etiqueta: ETIQUETAS[nivel], consejo: 'consejoContrasena' };
}
