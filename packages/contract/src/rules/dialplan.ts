/**
 * The Asterisk dialplan Pregón generates (docs/telefonia.md; ARCHITECTURE 6): `extensions.conf`
 * text, exactly as Asterisk 20/22's documentation gives the syntax (`exten =>`, `same =>`,
 * priority labels, application arguments separated by commas). Pure functions: the api feeds
 * them exercises and questionnaires, the PBX agent validates and writes what they produce, and
 * the AMI simulator executes it.
 *
 * Nothing typed by a user reaches the text: ids are integers, audio names must match
 * PATRON_NOMBRE_AUDIO, digits are integers 1..9; titles, questions and answers never appear.
 */
import { PATRON_NOMBRE_AUDIO } from './questionnaire.ts';
import { msg } from '../messages.ts';
import { duracionCorta } from './reintentos.ts';

/** Call length when a call exercise has no tiempo: 35 s (SPEC 9, "Default call run time"). */
export const SEGUNDOS_LLAMADA_DEFECTO = 35;

/** Seconds a quiz waits for a digit after each prompt. */
export const SEGUNDOS_LECTURA_DIGITO = 5;

/** Times a question is asked when nothing or an invalid digit is pressed (1 + 2 replays). */
export const LECTURAS_POR_PREGUNTA = 3;

/** Asterisk core prompt played at the end of a quiz ("gracias", Spanish core sounds). */
export const PROMPT_GRACIAS = 'auth-thankyou';

/** Asterisk's own prompts each include file plays (looked up as `{sounds}/{idioma}/{prompt}.*`):
 * a call plays only its uploaded audio, a quiz thanks the callee at the end. */
export const PROMPTS_SISTEMA: Readonly<Record<TipoDialplan, readonly string[]>> = {
  llamadas: [],
  quiz: [PROMPT_GRACIAS],
};

/** Extensions of the sound formats Asterisk plays a prompt from (format_gsm, format_wav,
 * format_pcm, format_g722, format_sln), in the order the agent looks for them. */
export const FORMATOS_PROMPT = ['gsm', 'wav', 'ulaw', 'alaw', 'sln', 'g722'] as const;

/** The prompts' language the dialplan sets by default (`CHANNEL(language)`, PBX_IDIOMA). */
export const IDIOMA_DEFECTO = 'es';

/** A prompts' language as Asterisk names its sounds folders ('es', 'es_MX', 'en_US_f_Allison'):
 * letters and '_' groups, at most 16 characters; nothing that can carry dialplan. */
export const PATRON_IDIOMA = /^(?=.{2,16}$)[a-z]{2,3}(_[A-Za-z]+)*$/;

/** True when `idioma` may be written into the dialplan as the prompts' language. */
export function idiomaValido(idioma: unknown): idioma is string {
  return typeof idioma === 'string' && PATRON_IDIOMA.test(idioma);
}

/** Name of the AMI UserEvent that reports one accepted quiz digit. */
export const EVENTO_DIGITO = 'PregonDigito';
/** Name of the AMI UserEvent sent when a call reached the end of its audio or questionnaire. */
export const EVENTO_FIN = 'PregonFin';

/** Dialplan context of a call exercise (type 2). */
export const contextoLlamada = (id_ejercicio: number) => `pregon-llamada-${entero(id_ejercicio)}`;
/** Dialplan context of a quiz exercise (type 4). */
export const contextoQuiz = (id_ejercicio: number) => `pregon-quiz-${entero(id_ejercicio)}`;

/** The whole call length in seconds: tiempo minutes × 60 (correction 3), 35 s without tiempo. */
export function segundosLlamada(tiempo: number | null | undefined): number {
  return tiempo && tiempo > 0 ? Math.round(tiempo * 60) : SEGUNDOS_LLAMADA_DEFECTO;
}

/** Issue 45.5: the warning when a call exercise's audio lasts longer than its 'Tiempo' (each
 * call is hung up at its TIMEOUT(absolute)): 'El audio dura 1 min 30 s y cada llamada se corta
 * a 1 min: nadie lo escuchará completo'; null when it fits or its length is unknown. */
export function avisoAudioLargo(
  audioSegundos: number | null | undefined,
  tiempo: number | null | undefined,
): string | null {
  if (audioSegundos == null || !(audioSegundos > 0)) return null;
  const limite = segundosLlamada(tiempo);
  if (Math.round(audioSegundos) <= limite) return null;
  return msg('audioMasLargoQueTiempo', {
    audio: duracionCorta(audioSegundos),
    tiempo: duracionCorta(limite),
  });
}

/** A questionnaire's whole call length in seconds: its 'Tiempo' is the exercise's accion, in
 * minutes (the dialog's 1-10; the SPEC's client sends them as text); 60 s when it holds none. */
export function segundosQuiz(accion: string | number | null | undefined): number {
  const minutos = Number(accion);
  return Number.isFinite(minutos) && minutos > 0 ? minutos * 60 : 60;
}

/**
 * Issue 45.5, a questionnaire: the warning when its questions' audios together last longer than
 * its 'Tiempo'. What a callee lives through (dialplanQuiz): after a 1-s pause each question's audio
 * plays, then up to SEGUNDOS_LECTURA_DIGITO to press a digit, question after question, and the
 * whole call is hung up at its 'Tiempo'. Someone who hears every question through (the only way
 * to know the options) needs at least the sum of the audios, however fast they answer: past it,
 * nobody reaches the last question. 'Los audios de las preguntas suman 1 min 40 s y cada llamada
 * se corta a 1 min: quien escuche cada pregunta completa no llegará a la última'. Unknown lengths
 * (null) count as 0 (the known ones may already be too long); null when it fits.
 */
export function avisoCuestionarioLargo(
  audiosSegundos: readonly (number | null | undefined)[],
  accion: string | number | null | undefined,
): string | null {
  const suma = audiosSegundos.reduce<number>((t, s) => t + (s != null && s > 0 ? s : 0), 0);
  const limite = segundosQuiz(accion);
  if (Math.round(suma) <= limite) return null;
  return msg('audiosCuestionarioMasLargosQueTiempo', {
    audio: duracionCorta(suma),
    tiempo: duracionCorta(limite),
  });
}

/** How every include file is rendered: the prompts' language (default IDIOMA_DEFECTO). */
export interface OpcionesDialplan {
  idioma?: string;
}

function idiomaDe(o: OpcionesDialplan | undefined): string {
  const idioma = o?.idioma ?? IDIOMA_DEFECTO;
  if (!idiomaValido(idioma)) throw new Error(`dialplan: idioma no válido (${String(idioma)})`);
  return idioma;
}

/** A call exercise as the call include file needs it. */
export interface LlamadaDialplan {
  id_ejercicio: number;
  /** Stored audio name (without extension), as the PBX agent answered the upload. */
  audio: string;
  /** The call's absolute length in seconds. */
  segundos: number;
}

/** One question of a quiz: its slot number, audio name and the digits its answers use. */
export interface PreguntaDialplan {
  numero: number;
  audio: string;
  digitos: readonly number[];
}

/** A quiz as its include file needs it. */
export interface QuizDialplan {
  id_ejercicio: number;
  /** The call's absolute length in seconds (accion minutes × 60). */
  segundos: number;
  preguntas: readonly PreguntaDialplan[];
}

/** Why a quiz cannot be rendered: the question number and what is wrong with it. */
export class DialplanInvalido extends Error {
  constructor(
    readonly motivo: 'sinPreguntas' | 'audio' | 'digitos',
    readonly numero?: number,
  ) {
    super(`dialplan: ${motivo}${numero === undefined ? '' : ` en la pregunta ${numero}`}`);
    this.name = 'DialplanInvalido';
  }
}

function entero(n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`dialplan: id no válido (${String(n)})`);
  return n;
}

/** True when a stored audio name can be played (and so written into dialplan). */
export function audioValido(nombre: string | null | undefined): nombre is string {
  return typeof nombre === 'string' && PATRON_NOMBRE_AUDIO.test(nombre);
}

const cabecera = (que: string) => `; Pregón — ${que} (generado por Pregón; no editar a mano)`;

/** The start of every Pregón context: answer, bound the call, the prompts' language, a breath. */
function inicio(segundos: number, idioma: string): string[] {
  return [
    'exten => s,1,Answer()',
    ` same => n,Set(TIMEOUT(absolute)=${Math.max(1, Math.round(segundos))})`,
    ` same => n,Set(CHANNEL(language)=${idioma})`,
    ' same => n,Wait(1)',
  ];
}

const fin = (id: number) => `UserEvent(${EVENTO_FIN},Ejercicio: ${id},Detalle: \${PREGON_DETALLE})`;

/**
 * `archivo_01`: one context per call exercise (answer, bound the call, play the audio, report
 * the end, hang up). Exercises whose audio name is not valid are left out with a comment naming
 * their id (they cannot run; starting them is refused).
 */
export function dialplanLlamadas(
  ejercicios: readonly LlamadaDialplan[],
  opciones?: OpcionesDialplan,
): string {
  const idioma = idiomaDe(opciones);
  const lineas = [cabecera('contextos de llamadas')];
  for (const e of [...ejercicios].sort((a, b) => a.id_ejercicio - b.id_ejercicio)) {
    const id = entero(e.id_ejercicio);
    if (!audioValido(e.audio)) {
      lineas.push('', `; ejercicio ${id} omitido: sin audio válido`);
      continue;
    }
    lineas.push(
      '',
      `[${contextoLlamada(id)}]`,
      ...inicio(e.segundos, idioma),
      ` same => n,Playback(pregon/${e.audio})`,
      ` same => n,${fin(id)}`,
      ' same => n,Hangup()',
    );
  }
  return `${lineas.join('\n')}\n`;
}

/**
 * `salida`: the quiz context. Per question: play its audio and read one digit (5 s), accept only
 * the question's digits, ask again up to twice on no or invalid input (then go on without an
 * answer), report an accepted digit with a UserEvent; at the end report the end, thank and hang
 * up. Throws DialplanInvalido naming the question when one has no valid audio or no digits.
 */
export function dialplanQuiz(q: QuizDialplan, opciones?: OpcionesDialplan): string {
  const idioma = idiomaDe(opciones);
  const id = entero(q.id_ejercicio);
  const preguntas = [...q.preguntas].sort((a, b) => a.numero - b.numero);
  if (preguntas.length === 0) throw new DialplanInvalido('sinPreguntas');
  const lineas = [cabecera(`cuestionario del ejercicio ${id}`), '', `[${contextoQuiz(id)}]`];
  lineas.push(...inicio(q.segundos, idioma));
  preguntas.forEach((p, i) => {
    const n = entero(p.numero);
    if (!audioValido(p.audio)) throw new DialplanInvalido('audio', n);
    const digitos = [...new Set(p.digitos)].sort((a, b) => a - b);
    if (digitos.length === 0 || digitos.some((d) => !Number.isInteger(d) || d < 1 || d > 9))
      throw new DialplanInvalido('digitos', n);
    const siguiente = i + 1 < preguntas.length ? `p${preguntas[i + 1]!.numero}` : 'fin';
    const acepta = digitos.map((d) => `"\${PREGON_DIGITO}" = "${d}"`).join(' | ');
    lineas.push(
      ` same => n(p${n}),Set(PREGON_REPITE=0)`,
      ` same => n(p${n}leer),Read(PREGON_DIGITO,pregon/${p.audio},1,,1,${SEGUNDOS_LECTURA_DIGITO})`,
      ` same => n,GotoIf($[${acepta}]?p${n}ok)`,
      ' same => n,Set(PREGON_REPITE=$[${PREGON_REPITE} + 1])',
      ` same => n,GotoIf($[\${PREGON_REPITE} < ${LECTURAS_POR_PREGUNTA}]?p${n}leer)`,
      ` same => n,Goto(${siguiente})`,
      ` same => n(p${n}ok),UserEvent(${EVENTO_DIGITO},Ejercicio: ${id},Detalle: \${PREGON_DETALLE},Pregunta: ${n},Digito: \${PREGON_DIGITO})`,
    );
  });
  lineas.push(
    ` same => n(fin),${fin(id)}`,
    ` same => n,Playback(${PROMPT_GRACIAS})`,
    ' same => n,Hangup()',
  );
  return `${lineas.join('\n')}\n`;
}

// ---------------------------------------------------------------- what the agent may write

/** The include file that holds every call exercise's context (archivo_01). */
export const ARCHIVO_LLAMADAS = 'pregon-llamadas.conf';

/** The include file of one questionnaire (`id_quiz` = its id_cuestionario). */
export const archivoDialplanQuiz = (id_quiz: number) => `pregon-quiz-${entero(id_quiz)}.conf`;

/** Which include file a text is meant for: the calls' or a questionnaire's. */
export type TipoDialplan = 'llamadas' | 'quiz';

const NUMERO = '(\\d{1,10})';
const NOMBRE = '([A-Za-z0-9_-]{1,64})';
const L_CONTEXTO_LLAMADA = new RegExp(`^\\[pregon-llamada-${NUMERO}\\]$`);
const L_OMITIDO = new RegExp(`^; ejercicio ${NUMERO} omitido: sin audio válido$`);
const L_CONTEXTO_QUIZ = new RegExp(`^\\[pregon-quiz-${NUMERO}\\]$`);
const L_TIMEOUT = new RegExp(`^ same => n,Set\\(TIMEOUT\\(absolute\\)=${NUMERO}\\)$`);
const L_PLAYBACK = new RegExp(`^ same => n,Playback\\(pregon/${NOMBRE}\\)$`);
const L_LEER = new RegExp(
  `^ same => n\\(p${NUMERO}leer\\),Read\\(PREGON_DIGITO,pregon/${NOMBRE},1,,1,\\d+\\)$`,
);
const L_IDIOMA = /^ same => n,Set\(CHANNEL\(language\)=([A-Za-z_]{1,16})\)$/;
const L_ACEPTA = new RegExp(`^ same => n,GotoIf\\(\\$\\[(.*)\\]\\?p${NUMERO}ok\\)$`);

/** The prompts' language a text sets (its first CHANNEL(language) line); the default when none. */
function idiomaDelTexto(texto: string): string {
  for (const linea of texto.split('\n')) {
    const m = L_IDIOMA.exec(linea);
    if (m) return m[1]!;
  }
  return IDIOMA_DEFECTO;
}

/** The data a call include file was rendered from, read back from its text; null when the text
 * does not even have that shape. Only the fields the renderer takes are read: whatever else the
 * text holds is caught by rendering the data again and comparing (see `esDialplanGenerado`). */
function datosLlamadas(texto: string): LlamadaDialplan[] | null {
  const ejercicios: LlamadaDialplan[] = [];
  let actual: LlamadaDialplan | undefined;
  for (const linea of texto.split('\n')) {
    let m = L_CONTEXTO_LLAMADA.exec(linea);
    if (m) {
      actual = { id_ejercicio: Number(m[1]), audio: '', segundos: 0 };
      ejercicios.push(actual);
      continue;
    }
    m = L_OMITIDO.exec(linea);
    if (m) {
      actual = undefined;
      ejercicios.push({ id_ejercicio: Number(m[1]), audio: '', segundos: 0 });
      continue;
    }
    if (!actual) continue;
    if ((m = L_TIMEOUT.exec(linea))) actual.segundos = Number(m[1]);
    else if ((m = L_PLAYBACK.exec(linea))) actual.audio = m[1]!;
  }
  return ejercicios;
}

/** The data a questionnaire include file was rendered from (as `datosLlamadas`). */
function datosQuiz(texto: string): QuizDialplan | null {
  let quiz: { id_ejercicio: number; segundos: number; preguntas: PreguntaDialplan[] } | undefined;
  for (const linea of texto.split('\n')) {
    let m = L_CONTEXTO_QUIZ.exec(linea);
    if (m) {
      if (quiz) return null;
      quiz = { id_ejercicio: Number(m[1]), segundos: 0, preguntas: [] };
      continue;
    }
    if (!quiz) continue;
    if ((m = L_TIMEOUT.exec(linea))) quiz.segundos = Number(m[1]);
    else if ((m = L_LEER.exec(linea)))
      quiz.preguntas.push({ numero: Number(m[1]), audio: m[2]!, digitos: [] });
    else if ((m = L_ACEPTA.exec(linea))) {
      const p = quiz.preguntas.find((x) => x.numero === Number(m![2]));
      if (!p) return null;
      for (const d of m[1]!.matchAll(/= "(\d)"/g)) (p.digitos as number[]).push(Number(d[1]));
    }
  }
  return quiz ?? null;
}

/**
 * True when `texto` is, byte for byte, what `dialplanLlamadas` or `dialplanQuiz` renders from
 * some valid data: the data is read back from the text and rendered again, and the two texts
 * must be equal. No line, character or argument the renderers would not write can pass, so
 * whatever passes runs only what Pregón generates (no user text ever reaches the renderers).
 * The telephony agent's second wall, after the api's signature (ARCHITECTURE 6).
 */
export function esDialplanGenerado(texto: string, tipo: TipoDialplan): boolean {
  try {
    if (tipo === 'llamadas') {
      const datos = datosLlamadas(texto);
      if (!datos) return false;
      const ids = datos.map((e) => e.id_ejercicio);
      if (new Set(ids).size !== ids.length) return false;
      return dialplanLlamadas(datos, { idioma: idiomaDelTexto(texto) }) === texto;
    }
    const datos = datosQuiz(texto);
    if (!datos) return false;
    const numeros = datos.preguntas.map((p) => p.numero);
    if (new Set(numeros).size !== numeros.length) return false;
    return dialplanQuiz(datos, { idioma: idiomaDelTexto(texto) }) === texto;
  } catch {
    return false;
  }
}
