/**
 * Polls of SMS and WhatsApp exercises and the replies people send back (issue 46.2 and 46.4):
 * the options' schema, the poll's text and its SMS parts, how a reply is read (an option, an
 * opt-out 'BAJA', an opt-in 'ALTA', or 'Respuesta no reconocida' for an operator), which answer
 * is a person's current one, when a change opens a case, and which poll a reply belongs to.
 * Pure functions: the intake of every channel imports them, so all channels read a reply alike.
 */
import { z } from 'zod';
import {
  MAX_OPCIONES_ENCUESTA,
  MIN_OPCIONES_ENCUESTA,
  VENTANA_ENCUESTA_MS,
  type ComoRespuesta,
} from '../constants.ts';
import { msg } from '../messages.ts';
import { banderaSchema, enteroSchema, textoSchema, vacioComoAusente } from '../zod-helpers.ts';
import { analizarSms, type AnalisisSms } from './sms.ts';

// ---------------------------------------------------------------------------------------------
// Options

/** Longest option text: it is also a WhatsApp quick-reply button's title or a line of an SMS. */
export const MAX_LARGO_OPCION_ENCUESTA = 60;
/** Longest automatic acknowledgement sent after an answer (two GSM-7 parts). */
export const MAX_LARGO_ACUSE_ENCUESTA = 306;

/** One answer option of a poll, as an operator writes it (like a questionnaire's answer). */
export const OpcionEncuestaSchema = z.object({
  digito: enteroSchema('digito', 0, 9),
  texto: textoSchema('texto', { min: 1, max: MAX_LARGO_OPCION_ENCUESTA }).transform((t) =>
    t.trim(),
  ),
  /** Requiere atención: choosing it opens a case at once. */
  atencion: banderaSchema('atencion'),
  /** Optional text sent back automatically when a person chooses this option. */
  acuse: vacioComoAusente(
    textoSchema('acuse', { max: MAX_LARGO_ACUSE_ENCUESTA })
      .transform((t) => t.trim())
      .optional(),
  ),
});
/** One validated option. */
export type OpcionEncuesta = z.infer<typeof OpcionEncuestaSchema>;
/** What the matching rules need of an option. */
export type OpcionClasificable = Pick<OpcionEncuesta, 'digito' | 'texto' | 'atencion'>;

/** A poll's options: 2 to 9, digits unique, texts that a reply can tell apart (not the same
 * once accents, case, punctuation and STOP words are ignored: 'Estoy bien' and 'Estamos bien'
 * are one answer), and no option is an opt-out/opt-in word. */
export const OpcionesEncuestaSchema = z
  .array(OpcionEncuestaSchema, { error: msg('opcionesEncuestaLista', { campo: 'opciones' }) })
  .superRefine((opciones, ctx) => {
    const n = opciones.length;
    if (n < MIN_OPCIONES_ENCUESTA || n > MAX_OPCIONES_ENCUESTA) {
      ctx.addIssue({
        code: 'custom',
        message: msg('opcionesEncuestaCantidad', {
          min: MIN_OPCIONES_ENCUESTA,
          max: MAX_OPCIONES_ENCUESTA,
          n,
        }),
      });
    }
    const digitos = new Set<number>();
    const textos = new Map<string, number>();
    opciones.forEach((o, i) => {
      if (digitos.has(o.digito)) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'digito'],
          message: msg('opcionEncuestaDigitoRepetido', { digito: o.digito }),
        });
      }
      digitos.add(o.digito);
      const clave = palabrasClave(o.texto);
      const previa = textos.get(clave);
      if (previa !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'texto'],
          message: msg('opcionEncuestaTextoRepetido', { N: i + 1, M: previa + 1 }),
        });
      } else textos.set(clave, i);
      const entero = normalizarRespuesta(o.texto);
      if (PALABRAS_BAJA.has(entero) || PALABRAS_ALTA.has(entero)) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'texto'],
          message: msg('opcionEncuestaPalabraReservada', { N: i + 1, texto: o.texto }),
        });
      }
    });
  });

// ---------------------------------------------------------------------------------------------
// The poll's text

/** First-person verbs an option starts with, and the 'usted' form the instruction uses
 * ('Estoy a salvo' → '1 si está a salvo'). */
const A_USTED: Readonly<Record<string, string>> = {
  estoy: 'está',
  estamos: 'están',
  necesito: 'necesita',
  necesitamos: 'necesitan',
  tengo: 'tiene',
  tenemos: 'tienen',
  soy: 'es',
  somos: 'son',
  puedo: 'puede',
  podemos: 'pueden',
  requiero: 'requiere',
  requerimos: 'requieren',
  sigo: 'sigue',
  seguimos: 'siguen',
  quiero: 'quiere',
  queremos: 'quieren',
  voy: 'va',
  vamos: 'van',
};

/** One option as the instruction words it: '1 si está a salvo' when its first word is a
 * first-person verb we know, else '2 para No'. */
function opcionEnInstruccion(o: Pick<OpcionEncuesta, 'digito' | 'texto'>): string {
  const texto = o.texto.trim();
  const [primera = '', ...resto] = texto.split(/\s+/);
  const usted = A_USTED[primera.toLowerCase()];
  return usted
    ? msg('encuestaOpcionSi', { digito: o.digito, texto: [usted, ...resto].join(' ') })
    : msg('encuestaOpcionPara', { digito: o.digito, texto });
}

/** The instruction appended to a poll: 'Responda 1 si está a salvo, 2 si necesita ayuda'. */
export function instruccionEncuesta(
  opciones: readonly Pick<OpcionEncuesta, 'digito' | 'texto'>[],
): string {
  return msg('encuestaResponda', { opciones: opciones.map(opcionEnInstruccion).join(', ') });
}

/** The text a poll sends (the operator's question, plus the instruction on its own line when
 * asked for) and its SMS analysis, so the counter shows the parts the whole text costs. */
export function textoEncuesta(
  pregunta: string,
  opciones: readonly Pick<OpcionEncuesta, 'digito' | 'texto'>[],
  anexarOpciones: boolean,
): { texto: string; sms: AnalisisSms } {
  const base = pregunta.trim();
  const texto = anexarOpciones
    ? [base, instruccionEncuesta(opciones)].filter((t) => t !== '').join('\n')
    : base;
  return { texto, sms: analizarSms(texto) };
}

// ---------------------------------------------------------------------------------------------
// Normalising a reply

/** Keycap emoji ('1️⃣': digit, optional VS16, U+20E3); '🔟' is one code point and stays. */
const KEYCAP = /([0-9])\uFE0F?\u20E3/g;
/** Invisible marks: skin tones, variation selectors, a stray keycap, zero-width characters, BOM,
 * soft hyphen. */
const INVISIBLES = /[\u{1F3FB}-\u{1F3FF}]|\uFE0E|\uFE0F|\u20E3|[\u200B-\u200D\u2060\uFEFF\u00AD]/gu;
/** Control characters and line/paragraph separators: read as a space. */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/gu;
/** Punctuation and math/modifier symbols around a reply ('¡1!', '#1', '"Baja"'); not emoji. */
const BORDES = /^[\p{P}\p{Sm}\p{Sk}\s]+|[\p{P}\p{Sm}\p{Sk}\s]+$/gu;

/**
 * A reply as the rules compare it: NFKC (full-width and other compatibility digits become
 * 0-9), keycaps '0️⃣'..'9️⃣' become their digit, invisible marks and accents go, control
 * characters become spaces, lower case, whitespace collapsed, surrounding punctuation stripped.
 * Emoji stay ('👍'). 'ñ' compares as 'n'.
 */
export function normalizarRespuesta(texto: string): string {
  return texto
    .normalize('NFKC')
    .replace(KEYCAP, '$1')
    .replace(INVISIBLES, '')
    .replace(CONTROL, ' ')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(BORDES, '');
}

// ---------------------------------------------------------------------------------------------
// Vocabulary. Every set below is compared after `normalizarRespuesta` (no accents, lower case)
// and after letters repeated three times or more are collapsed ('siii' → 'si', 'ayudaaa').

/** Opt-out words: the whole message (see `nucleo`), never inside a sentence. */
export const PALABRAS_BAJA: ReadonlySet<string> = new Set([
  'baja',
  'alto',
  'stop',
  'cancelar',
  'detener',
]);
/** Opt-in words: the whole message. */
export const PALABRAS_ALTA: ReadonlySet<string> = new Set(['alta', 'start', 'reanudar']);

/** Courtesy words and phrases dropped at either end of a message before it is compared whole
 * ('si gracias' is 'si'; 'baja por favor' is 'baja'). */
const CORTESIAS: readonly (readonly string[])[] = [
  ['gracias', 'a', 'dios'],
  ['a', 'dios', 'gracias'],
  ['bendito', 'sea', 'dios'],
  ['bendito', 'dios'],
  ['gracias', 'dios'],
  ['muchas', 'gracias'],
  ['mil', 'gracias'],
  ['buenos', 'dias'],
  ['buen', 'dia'],
  ['buenas', 'tardes'],
  ['buenas', 'noches'],
  ['por', 'favor'],
  ['gracias'],
  ['grax'],
  ['amen'],
  ['hola'],
  ['buenas'],
  ['porfa'],
  ['porfavor'],
  ['xfa'],
  ['saludos'],
  ['ya'],
];

/** Yes-like words that count only as the whole message, STOP words aside ('si', 'ok', 'claro
 * que si', 'todo ok'). */
const SI_PALABRAS: ReadonlySet<string> = new Set([
  'si',
  'sii',
  'sip',
  'bn',
  'simon',
  'ok',
  'okay',
  'okey',
  'oki',
  'okis',
  'va',
  'vale',
  'sale',
  'claro',
  'correcto',
  'afirmativo',
  'listo',
  'perfecto',
]);
/** No-like words that count only as the whole message ('no', 'nel'; 'no se' is not one). */
const NO_PALABRAS: ReadonlySet<string> = new Set(['no', 'nop', 'nope', 'nel', 'negativo']);
/** Yes-like phrases that count anywhere unless negated ('estamos bien gracias a Dios'). */
const SI_FRASES: readonly (readonly string[])[] = [
  ['bien'],
  ['salvo'],
  ['salva'],
  ['salvos'],
  ['salvas'],
  ['seguro'],
  ['segura'],
  ['seguros'],
  ['seguras'],
  ['sin', 'novedad'],
  ['sin', 'novedades'],
];
/** Help words that count anywhere unless negated or thanked for ('gracias por la ayuda'). */
const AYUDA_FRASES: readonly (readonly string[])[] = [
  ['ayuda'],
  ['ayudenme'],
  ['ayudeme'],
  ['ayudame'],
  ['ayudanos'],
  ['auxilio'],
  ['socorro'],
  ['sos'],
  ['rescate'],
  ['emergencia'],
];
/** Option words that also mark an attention option as the help one ('Requiero atención'). */
const AYUDA_EN_OPCION: ReadonlySet<string> = new Set(['atencion', 'apoyo']);
/** Emoji read as yes, no and help wherever they appear. */
const SI_EMOJI: ReadonlySet<string> = new Set(['👍', '✅', '👌', '🆗', '✔', '☑']);
const NO_EMOJI: ReadonlySet<string> = new Set(['👎', '❌', '✖', '🚫', '⛔']);
const AYUDA_EMOJI: ReadonlySet<string> = new Set(['🆘']);

/** Words that deny what follows them closely ('no necesito ayuda', 'ya no estoy a salvo'). */
const NEGACIONES: ReadonlySet<string> = new Set([
  'no',
  'ni',
  'nunca',
  'jamas',
  'tampoco',
  'nadie',
  'ningun',
  'ninguno',
  'ninguna',
]);
/** Filtered words (see STOP) before a match in which a negation denies it. */
const ALCANCE_NEGACION = 2;
/** Words that start a new clause, like a comma: 'no tenemos luz pero estamos bien'. */
const CONJUNCIONES: ReadonlySet<string> = new Set(['y', 'e', 'pero', 'aunque', 'sino']);
/** Words left out when an option's text is looked for in a reply: 'Estoy a salvo' is found in
 * 'a salvo' and in 'estamos a salvo todos'. */
const STOP: ReadonlySet<string> = new Set([
  'a',
  'al',
  'de',
  'del',
  'el',
  'la',
  'los',
  'las',
  'lo',
  'un',
  'una',
  'unos',
  'unas',
  'en',
  'con',
  'por',
  'para',
  'que',
  'mi',
  'mis',
  'su',
  'sus',
  'tu',
  'tus',
  'me',
  'nos',
  'se',
  'yo',
  'estoy',
  'estamos',
  'esta',
  'estan',
  'todo',
  'todos',
  'ya',
]);
/** Words that may come before a digit that is still the answer: 'opción 1', 'el 1', 'mi
 * respuesta es la 2', '#1'. */
const ANTES_DE_DIGITO: ReadonlySet<string> = new Set([
  'opcion',
  'opciones',
  'el',
  'la',
  'numero',
  'num',
  'nro',
  'n',
  'mi',
  'respuesta',
  'resp',
  'es',
  'seria',
  'escojo',
  'elijo',
  'marco',
  'mando',
  'envio',
  'contesto',
  'respondo',
  'tecla',
  'digito',
  'boton',
]);
/** Digits written as words, read like the digit when alone or after lead-in words ('uno',
 * 'el dos', 'opción tres'; 'somos dos' is not an answer). */
const NUMEROS_EN_LETRA: ReadonlyMap<string, number> = new Map([
  ['cero', 0],
  ['uno', 1],
  ['dos', 2],
  ['tres', 3],
  ['cuatro', 4],
  ['cinco', 5],
  ['seis', 6],
  ['siete', 7],
  ['ocho', 8],
  ['nueve', 9],
]);
/** Real words a typo rule would otherwise turn into a vocabulary word ('salgo' is not 'salvo'). */
const NO_CORREGIR: ReadonlySet<string> = new Set([
  'cien',
  'sien',
  'salgo',
  'salto',
  'saldo',
  'calvo',
  'nadie',
]);
/** Shortest word a typo is corrected in, and the only distance corrected. */
const LARGO_MINIMO_ERRATA = 4;

// ---------------------------------------------------------------------------------------------
// Tokens

interface Token {
  /** The word as compared: letters repeated 3+ times collapsed, a typo corrected. */
  w: string;
  tipo: 'palabra' | 'numero' | 'emoji';
  clausula: number;
  /** The word was a typo corrected to `w`. */
  errata: boolean;
  /** A number that is part of a time, fraction or decimal ('1:30', '1/2', '1.5'). */
  compuesto: boolean;
}

const TOKEN =
  /(\p{L}+)|([0-9]+)|(\p{Extended_Pictographic}|[\u{1F1E6}-\u{1F1FF}])|([.,;:!?¡¿()])/gu;

/** The tokens of a normalised reply; punctuation and conjunctions only advance the clause. */
function tokenizar(n: string): Token[] {
  const tokens: Token[] = [];
  let clausula = 0;
  for (const m of n.matchAll(TOKEN)) {
    const [todo, letras, cifras, emoji] = m;
    const i = m.index;
    if (letras !== undefined) {
      const w = letras.replace(/(\p{L})\1{2,}/gu, '$1');
      if (CONJUNCIONES.has(w)) {
        clausula++;
        continue;
      }
      tokens.push({ w, tipo: 'palabra', clausula, errata: false, compuesto: false });
    } else if (cifras !== undefined) {
      const compuesto =
        /[0-9][:/.]$/.test(n.slice(Math.max(0, i - 2), i)) ||
        /^[:/.][0-9]/.test(n.slice(i + todo.length, i + todo.length + 2));
      tokens.push({ w: cifras, tipo: 'numero', clausula, errata: false, compuesto });
    } else if (emoji !== undefined) {
      tokens.push({ w: emoji, tipo: 'emoji', clausula, errata: false, compuesto: false });
    } else clausula++;
  }
  return tokens;
}

/** Whether a and b are at most one edit apart (insert, delete, substitute, or swap two
 * neighbouring letters: optimal string alignment distance ≤ 1). */
export function distanciaUno(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** The words and numbers of a text once normalised (the same tokens as a reply's, emoji aside):
 * 'Zona 1' and 'Zona 2' are two texts. */
function palabrasDe(texto: string): string[] {
  return tokenizar(normalizarRespuesta(texto))
    .filter((t) => t.tipo !== 'emoji')
    .map((t) => t.w);
}

/** What tells an option's text apart from another's: its words and numbers without STOP words
 * (all of them when it has only STOP words). */
function palabrasClave(texto: string): string {
  const ws = palabrasDe(texto);
  const contenido = ws.filter((w) => !STOP.has(w));
  return (contenido.length > 0 ? contenido : ws).join(' ');
}

/** Known words that are never corrected into another. */
const CONOCIDAS: ReadonlySet<string> = new Set([
  ...PALABRAS_BAJA,
  ...PALABRAS_ALTA,
  ...CORTESIAS.flat(),
  ...SI_PALABRAS,
  ...NO_PALABRAS,
  ...NEGACIONES,
  ...STOP,
  ...ANTES_DE_DIGITO,
  ...NUMEROS_EN_LETRA.keys(),
  ...NO_CORREGIR,
]);

/** Corrects, in place, words of 4+ letters one edit away from exactly one vocabulary word. */
function corregirErratas(tokens: Token[], vocabulario: ReadonlySet<string>): void {
  const candidatas = [...vocabulario].filter((v) => v.length >= LARGO_MINIMO_ERRATA);
  for (const t of tokens) {
    if (t.tipo !== 'palabra' || t.w.length < LARGO_MINIMO_ERRATA) continue;
    if (vocabulario.has(t.w) || CONOCIDAS.has(t.w)) continue;
    const cerca = candidatas.filter((v) => distanciaUno(t.w, v));
    if (cerca.length === 1) {
      t.w = cerca[0] ?? t.w;
      t.errata = true;
    }
  }
}

/** The words of a message without the courtesies at either end, repeats of one word folded
 * ('si si' → 'si'); emoji are not words. */
function nucleo(tokens: readonly Token[]): string[] {
  const ws = tokens.filter((t) => t.tipo !== 'emoji').map((t) => t.w);
  let i = 0;
  let j = ws.length;
  const en = (c: readonly string[], desde: number) => c.every((w, k) => ws[desde + k] === w);
  let cambio = true;
  while (cambio && i < j) {
    cambio = false;
    for (const c of CORTESIAS) {
      if (c.length <= j - i && en(c, i)) {
        i += c.length;
        cambio = true;
      } else if (c.length <= j - i && en(c, j - c.length)) {
        j -= c.length;
        cambio = true;
      }
    }
  }
  const resto = ws.slice(i, j);
  return resto.every((w) => w === resto[0]) ? resto.slice(0, 1) : resto;
}

interface Hallazgo {
  inicio: number;
  fin: number;
  errata: boolean;
}

/** Where a phrase occurs among one clause's filtered words, not denied by a negation in the
 * ALCANCE_NEGACION words before it; with `gratitud`, not thanked for either ('gracias por la
 * ayuda'). */
function buscarFrase(
  filtrados: readonly Token[],
  frase: readonly string[],
  gratitud = false,
): Hallazgo[] {
  const hallados: Hallazgo[] = [];
  for (let i = 0; i + frase.length <= filtrados.length; i++) {
    const tramo = filtrados.slice(i, i + frase.length);
    const clausula = tramo[0]?.clausula;
    if (!tramo.every((t, k) => t.w === frase[k] && t.clausula === clausula)) continue;
    const antes = filtrados
      .slice(Math.max(0, i - ALCANCE_NEGACION), i)
      .filter((t) => t.clausula === clausula);
    if (antes.some((t) => NEGACIONES.has(t.w))) continue;
    if (gratitud && ['gracias', 'agradezco'].includes(antes.at(-1)?.w ?? '')) continue;
    hallados.push({ inicio: i, fin: i + frase.length, errata: tramo.some((t) => t.errata) });
  }
  return hallados;
}

/** The words of a reply a phrase is looked for in: STOP words out (they keep their clause). */
function filtrar(tokens: readonly Token[]): Token[] {
  return tokens.filter((t) => t.tipo !== 'emoji' && !STOP.has(t.w));
}

type Clase = 'si' | 'no' | 'ayuda';

/** The yes / no / help signals of a tokenised text, each with whether it needed a typo fixed. */
function clases(tokens: readonly Token[]): Map<Clase, { errata: boolean }> {
  const senales = new Map<Clase, { errata: boolean }>();
  const marcar = (c: Clase, errata: boolean) => {
    const previa = senales.get(c);
    senales.set(c, { errata: previa ? previa.errata && errata : errata });
  };
  const ws = nucleo(tokens);
  const errataNucleo = tokens.some((t) => t.errata);
  // Yes-words with nothing but filler around ('claro que si', 'todo ok', 'si estamos'); no-words
  // alone ('no se' is not a no).
  const sinRelleno = ws.filter((w) => !STOP.has(w));
  if (sinRelleno.length > 0 && sinRelleno.every((w) => SI_PALABRAS.has(w))) {
    marcar('si', errataNucleo);
  }
  if (ws.length > 0 && ws.every((w) => NO_PALABRAS.has(w))) marcar('no', errataNucleo);
  for (const t of tokens) {
    if (t.tipo !== 'emoji') continue;
    if (SI_EMOJI.has(t.w)) marcar('si', false);
    if (NO_EMOJI.has(t.w)) marcar('no', false);
    if (AYUDA_EMOJI.has(t.w)) marcar('ayuda', false);
  }
  const filtrados = filtrar(tokens);
  for (const f of SI_FRASES) for (const h of buscarFrase(filtrados, f)) marcar('si', h.errata);
  for (const f of AYUDA_FRASES) {
    for (const h of buscarFrase(filtrados, f, true)) marcar('ayuda', h.errata);
  }
  return senales;
}

/** The option each class of synonym stands for in this poll: yes to the one yes-like option,
 * no to the one option that says no, help to the one attention option that speaks of help;
 * a class with none or several such options stands for nothing (never guess). */
function opcionesDeClase(opciones: readonly OpcionClasificable[]): Map<Clase, number> {
  const de: Record<Clase, number[]> = { si: [], no: [], ayuda: [] };
  for (const o of opciones) {
    const tokens = tokenizar(normalizarRespuesta(o.texto));
    const c = clases(tokens);
    const primera = tokens.find((t) => t.tipo === 'palabra')?.w ?? '';
    const esNo = c.has('no') || NO_PALABRAS.has(primera);
    const esAyuda = c.has('ayuda') || tokens.some((t) => AYUDA_EN_OPCION.has(t.w));
    if (c.has('si') && !esNo && !esAyuda) de.si.push(o.digito);
    if (esNo) de.no.push(o.digito);
    if (o.atencion && esAyuda) de.ayuda.push(o.digito);
  }
  const mapa = new Map<Clase, number>();
  for (const c of ['si', 'no', 'ayuda'] as const) {
    const [unico, ...otros] = de[c];
    if (unico !== undefined && otros.length === 0) mapa.set(c, unico);
  }
  return mapa;
}

// ---------------------------------------------------------------------------------------------
// Classifying

/** What a reply is: one option and how it was recognised, an opt-out, an opt-in, or none. */
export type ClasificacionRespuesta =
  | { tipo: 'opcion'; digito: number; como: Exclude<ComoRespuesta, 'manual'> }
  | { tipo: 'baja' }
  | { tipo: 'alta' }
  | { tipo: 'no_reconocida' };

/** Wire form of a classification (how the intake stores it and the inbox reads it). */
export const ClasificacionRespuestaSchema = z.discriminatedUnion('tipo', [
  z.object({
    tipo: z.literal('opcion'),
    digito: z.number().int().min(0).max(9),
    como: z.enum(['digito', 'texto', 'sinonimo', 'errata']),
  }),
  z.object({ tipo: z.literal('baja') }),
  z.object({ tipo: z.literal('alta') }),
  z.object({ tipo: z.literal('no_reconocida') }),
]);

const NO_RECONOCIDA: ClasificacionRespuesta = { tipo: 'no_reconocida' };

/** Longest reply (normalised characters) read automatically: answers are short, and a longer
 * text (a story, a forwarded chain) is for an operator to read whole, not for a rule to cut. */
export const MAX_LARGO_CLASIFICABLE = 1000;
/** Strongest evidence first: a digit beats the option's words, which beat a synonym, then a typo. */
const FUERZA: readonly Exclude<ComoRespuesta, 'manual'>[] = [
  'digito',
  'texto',
  'sinonimo',
  'errata',
];

/**
 * Reads a reply against the poll it answers. Opt-out ('baja', 'alto', 'stop', 'cancelar',
 * 'detener') and opt-in ('alta', 'start', 'reanudar') count only as the whole message (courtesy
 * words aside: 'Baja por favor'), never inside a sentence ('no quiero que se cancele'). A text
 * longer than MAX_LARGO_CLASIFICABLE is left to an operator. Then an option by, in order of
 * strength: a lone digit ('1', '#1', 'opción 1', '1️⃣', '2 ayuda'; 'uno' or 'el dos' as the
 * whole message); the option's words ('a salvo' for 'Estoy a salvo'); a synonym that stands for
 * exactly one option (yes, no, help: see `opcionesDeClase`); one typo in a word of 4+ letters
 * ('salbo'). When the evidence names two options ('1 y 2', 'estoy bien pero necesito ayuda') or
 * a digit that is no option ('3'), or nothing: 'no_reconocida', kept for an operator. It never
 * guesses.
 */
export function clasificarRespuesta(
  texto: string,
  opciones: readonly OpcionClasificable[],
): ClasificacionRespuesta {
  const n = normalizarRespuesta(texto);
  if (n === '' || n.length > MAX_LARGO_CLASIFICABLE) return NO_RECONOCIDA;
  const tokens = tokenizar(n);
  const entero = nucleo(tokens).join(' ');
  if (PALABRAS_BAJA.has(entero)) return { tipo: 'baja' };
  if (PALABRAS_ALTA.has(entero)) return { tipo: 'alta' };

  const porOpcion = new Map<number, Set<Exclude<ComoRespuesta, 'manual'>>>();
  const senalar = (digito: number, como: Exclude<ComoRespuesta, 'manual'>) => {
    const s = porOpcion.get(digito) ?? new Set();
    s.add(como);
    porOpcion.set(digito, s);
  };
  const digitosOpcion = new Set(opciones.map((o) => o.digito));

  // Digits: one value at most; it answers when only lead-in words come before it.
  const sueltos = tokens.filter((t) => t.tipo === 'numero' && t.w.length === 1 && !t.compuesto);
  const valores = new Set(sueltos.map((t) => Number(t.w)));
  if (valores.size > 1) return NO_RECONOCIDA;
  let digitoSuelto: number | null = null;
  const primero = sueltos[0];
  if (primero) {
    const d = Number(primero.w);
    const antes = tokens.slice(0, tokens.indexOf(primero)).filter((t) => t.tipo !== 'emoji');
    const inicial = antes.every(
      (t) => ANTES_DE_DIGITO.has(t.w) || CORTESIAS.some((c) => c.includes(t.w)),
    );
    if (inicial && !digitosOpcion.has(d)) return NO_RECONOCIDA;
    if (inicial) senalar(d, 'digito');
    else if (digitosOpcion.has(d)) digitoSuelto = d;
  }
  // A digit written as a word counts only as the whole message, lead-in words aside.
  const dicho = nucleo(tokens);
  const enLetra = NUMEROS_EN_LETRA.get(dicho.at(-1) ?? '');
  if (enLetra !== undefined && dicho.slice(0, -1).every((w) => ANTES_DE_DIGITO.has(w))) {
    if (!digitosOpcion.has(enLetra)) return NO_RECONOCIDA;
    senalar(enLetra, 'digito');
  }

  // Words: fix typos against the poll's words and the synonyms, then look for each option.
  const textos = opciones.map((o) => {
    const ws = palabrasDe(o.texto);
    const contenido = ws.filter((w) => !STOP.has(w));
    return { o, ws, contenido: contenido.length > 0 ? contenido : ws };
  });
  corregirErratas(
    tokens,
    new Set([
      ...textos.flatMap((t) => t.ws),
      ...SI_FRASES.flat(),
      ...AYUDA_FRASES.flat(),
      ...SI_PALABRAS,
    ]),
  );
  const ws = nucleo(tokens);
  const errataEnNucleo = tokens.some((t) => t.errata);
  const filtrados = filtrar(tokens);
  const tramos: { digito: number; inicio: number; fin: number; errata: boolean }[] = [];
  for (const { o, ws: propias, contenido } of textos) {
    // The whole message is the option's text (a corrected one is looked for word by word).
    if (!errataEnNucleo && ws.length > 0 && ws.join(' ') === propias.join(' ')) {
      tramos.push({ digito: o.digito, inicio: -1, fin: Infinity, errata: false });
      continue;
    }
    // A one-word option of 3 letters or fewer ('Sí', 'No') only counts as the whole message.
    if (contenido.length === 1 && (contenido[0] ?? '').length < LARGO_MINIMO_ERRATA) continue;
    for (const h of buscarFrase(filtrados, contenido)) tramos.push({ digito: o.digito, ...h });
  }
  // An option found inside another option's longer match is that other option ('ayuda' in
  // 'ayuda médica').
  for (const t of tramos) {
    const dentro = tramos.some(
      (u) =>
        u !== t && u.inicio <= t.inicio && u.fin >= t.fin && u.fin - u.inicio > t.fin - t.inicio,
    );
    if (!dentro) senalar(t.digito, t.errata ? 'errata' : 'texto');
  }

  // Synonyms.
  const deClase = opcionesDeClase(opciones);
  for (const [clase, { errata }] of clases(tokens)) {
    const digito = deClase.get(clase);
    if (digito !== undefined) senalar(digito, errata ? 'errata' : 'sinonimo');
  }

  // A digit inside the text that names another option than the words do: two answers.
  if (digitoSuelto !== null && porOpcion.size > 0 && !porOpcion.has(digitoSuelto)) {
    senalar(digitoSuelto, 'digito');
  }
  const [unica, ...otras] = [...porOpcion];
  if (!unica || otras.length > 0) return NO_RECONOCIDA;
  const [digito, comos] = unica;
  const como = FUERZA.find((c) => comos.has(c)) ?? 'errata';
  return { tipo: 'opcion', digito, como };
}

// ---------------------------------------------------------------------------------------------
// A person's answers over time

/** A moment as the stores give it: epoch milliseconds, a Date or an ISO text. */
export type Instante = number | string | Date;

const ms = (t: Instante): number => (t instanceof Date ? t.getTime() : new Date(t).getTime());

/** One stored reply of a person to one poll. */
export interface RespuestaFechada {
  recibida: Instante;
  clasificacion: ClasificacionRespuesta | { tipo: 'opcion'; digito: number; como: ComoRespuesta };
}

/** A person's current answer: the latest reply classified as an option (by hand or not), so
 * '1' at 10:02 then '2' at 10:40 is 2; a later unrecognised text or 'BAJA' does not change it.
 * Equal times: the later in the list. Null when no reply is an option yet. */
export function respuestaVigente<T extends RespuestaFechada>(respuestas: readonly T[]): T | null {
  let vigente: T | null = null;
  let cuando = -Infinity;
  for (const r of respuestas) {
    const t = ms(r.recibida);
    if (r.clasificacion.tipo !== 'opcion' || Number.isNaN(t)) continue;
    if (t >= cuando) {
      vigente = r;
      cuando = t;
    }
  }
  return vigente;
}

/** Whether a new current answer opens a case at once: it requires attention and the previous
 * current answer did not (or there was none). Moving between two attention options does not
 * open another; an unknown digit requires nothing. */
export function abreCaso(
  anterior: number | null | undefined,
  nueva: number | null | undefined,
  opciones: readonly Pick<OpcionEncuesta, 'digito' | 'atencion'>[],
): boolean {
  const atencion = (d: number | null | undefined) =>
    d !== null && d !== undefined && opciones.some((o) => o.digito === d && o.atencion);
  return atencion(nueva) && !atencion(anterior);
}

/** One poll sent to a number on a channel. */
export interface EnvioEncuesta<Id = number> {
  id: Id;
  enviada: Instante;
}

/**
 * The poll a reply answers: of the polls sent to that number on that channel, the latest sent at
 * or before the reply (a later poll closes the earlier ones, so a reply is never ambiguous) if
 * the reply came within `ventanaMs` of it; else null (the reply goes to the inbox). Equal send
 * times: the later in the list.
 */
export function encuestaAbierta<Id>(
  envios: readonly EnvioEncuesta<Id>[],
  fechaRespuesta: Instante,
  ventanaMs: number = VENTANA_ENCUESTA_MS,
): EnvioEncuesta<Id> | null {
  const r = ms(fechaRespuesta);
  if (Number.isNaN(r)) return null;
  let ultima: EnvioEncuesta<Id> | null = null;
  let cuando = -Infinity;
  for (const e of envios) {
    const t = ms(e.enviada);
    if (Number.isNaN(t) || t > r) continue;
    if (t >= cuando) {
      ultima = e;
      cuando = t;
    }
  }
  return ultima && r - cuando <= ventanaMs ? ultima : null;
}
