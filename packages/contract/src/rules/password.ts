import { MIN_PASSWORD } from '../api/usuarios.ts';
import type { ClaveMensaje } from '../messages.ts';

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

/** Rates a password for the strength feedback of the user forms. The server only requires
 * MIN_PASSWORD characters; this rates length and variety of character classes, and rates
 * common words and one- or two-character repetitions as weak. */
export function fuerzaContrasena(p: string): FuerzaContrasena {
  const n = [...p].length;
  if (n < MIN_PASSWORD) return { nivel: 0, etiqueta: ETIQUETAS[0], consejo: 'contrasenaCorta' };
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
