/**
 * The allow-list the telephony agent checks dialplan against before it writes it where Asterisk
 * reads it (ARCHITECTURE 6 and 8). It is the third wall: the agent first requires the api's
 * signature over the exact bytes (apps/api/src/auth/firma-dialplan.ts), then that the text is
 * what the contract's renderer produces (`esDialplanGenerado`); this check stands on its own all
 * the same, should either of those ever let a text through.
 *
 * A pure function: text in, verdict out, naming the line. Deliberately much narrower than what
 * Asterisk accepts. Asterisk substitutes `${…}` and `$[…]` before it calls a function or
 * application, so a name is never read from raw text alone: every `${` must be followed by a
 * literal name, every `(` by a literal allowed function name, only Pregón's own variables may be
 * read or set, and `$[…]` expressions hold only numbers, those variables and operators (its
 * parser calls any dialplan function named in the substituted text).
 */

/** Applications the generated dialplan may use (Asterisk's names). */
export const APLICACIONES_PERMITIDAS = [
  'Answer',
  'Wait',
  'Playback',
  'Background',
  'Read',
  'WaitExten',
  'Set',
  'GotoIf',
  'Goto',
  'Gosub',
  'Return',
  'UserEvent',
  'NoOp',
  'Verbose',
  'Hangup',
  'Progress',
  'Ringing',
] as const;

const PERMITIDAS = new Map(APLICACIONES_PERMITIDAS.map((a) => [a.toLowerCase(), a]));

/** Dialplan functions the dialplan may call, with the only arguments each may take (null: any
 * text that passes the other checks). None runs a program, touches a file or a database, reads
 * a value someone outside could choose, or makes text out of numbers. */
export const FUNCIONES_PERMITIDAS: Readonly<Record<string, RegExp | null>> = {
  // TIMEOUT(absolute) bounds the call; CHANNEL only sets the prompts' language or music class
  // (items such as hangup_handler_push would run dialplan outside the checked contexts).
  TIMEOUT: /^(absolute|digit|response)$/i,
  CHANNEL: /^(language|musicclass)$/i,
  LEN: null,
  ISNULL: null,
  EXISTS: null,
};

/** The only variables the dialplan may read: Pregón's own (set by the dispatcher's Originate,
 * by Read from the callee's keys, or by the dialplan itself to a number) and two statuses
 * Asterisk sets to fixed words. */
export const VARIABLES_LEGIBLES = [
  'PREGON_EJERCICIO',
  'PREGON_DETALLE',
  'PREGON_INTENTO',
  'PREGON_DIGITO',
  'PREGON_REPITE',
  'READSTATUS',
  'PLAYBACKSTATUS',
] as const;

/** The only variables the dialplan may set (Set, Read): Asterisk gives some channel variables
 * effects of their own (a program to run after a recording, say), so no other name. */
export const VARIABLES_ASIGNABLES = ['PREGON_DIGITO', 'PREGON_REPITE'] as const;

const LEGIBLES = new Set<string>(VARIABLES_LEGIBLES);
const ASIGNABLES = new Set<string>(VARIABLES_ASIGNABLES);

/** The contexts Pregón generates: one per call or quiz exercise. */
const NOMBRE_CONTEXTO = /^pregon-(llamada|quiz)-[1-9][0-9]{0,9}$/;

/** A sound name as Playback, Background and Read take it: relative to Asterisk's sounds folder,
 * no extension, no absolute path, no `..`; several joined with `&`. */
const SONIDO = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/** A priority label, as a jump names it. */
const ETIQUETA = /^[A-Za-z0-9_]+$/;

/** The verdict: fine, or the 1-based line and the Spanish reason. */
export type VeredictoDialplan = { ok: true } | { ok: false; linea: number; motivo: string };

const CONTEXTO = /^\[([^\]]*)\]$/;
const EXTEN = /^(exten|same)\s*=>\s*(.*)$/i;
const DIRECTIVAS = /^#\s*(exec|include|tryinclude)\b/i;
const OTRAS = /^(include|switch|eswitch|lswitch|ignorepat)\s*=>/i;
const NOMBRE = /[A-Za-z_][A-Za-z0-9_]*/y;
/** Longest line checked (what Pregón writes stays under 300 characters). */
const LARGO_MAXIMO = 2000;

/** Splits `exten => s,1,App(args)` (or `same => n(label),App(args)`) into its application and
 * arguments; null when the line is not of that shape (extension `s` or `h`, priority a number or
 * `n`, an optional label). */
function aplicacion(resto: string, esSame: boolean): { app: string; args: string } | null {
  const partes = esSame
    ? /^([0-9]+|n)(\([A-Za-z0-9_]+\))?\s*,\s*(.*)$/i.exec(resto)
    : /^(s|h)\s*,\s*([0-9]+|n)(\([A-Za-z0-9_]+\))?\s*,\s*(.*)$/.exec(resto);
  if (!partes) return null;
  const llamada = (esSame ? partes[3] : partes[4])!.trim();
  const m = /^([A-Za-z][A-Za-z0-9_]*)\((.*)\)$/s.exec(llamada);
  if (!m) return null;
  return { app: m[1]!, args: m[2]! };
}

/** The name written right before position `i` (spaces between allowed, as Asterisk's
 * expression parser allows them), or '' when there is none. */
function nombreAntes(texto: string, i: number): string {
  let j = i;
  while (j > 0 && texto[j - 1] === ' ') j--;
  let k = j;
  while (k > 0 && /[A-Za-z0-9_]/.test(texto[k - 1]!)) k--;
  const nombre = texto.slice(k, j);
  return /^[A-Za-z_]/.test(nombre) ? nombre : '';
}

/** The text between the `(` at `abre` and its matching `)`, or undefined when unbalanced. */
function entreParentesis(texto: string, abre: number): string | undefined {
  let nivel = 0;
  for (let i = abre; i < texto.length; i++) {
    if (texto[i] === '(') nivel++;
    else if (texto[i] === ')' && --nivel === 0) return texto.slice(abre + 1, i);
  }
  return undefined;
}

/**
 * Substitutions and calls in an application's arguments: every `${` opens a literal readable
 * variable or allowed function, every `$` opens `${` or `$[`, every `(` follows a literal allowed
 * function name, parentheses balance. Returns the reason, or undefined when all is well.
 */
function problemaDeNombres(args: string): string | undefined {
  let nivel = 0;
  for (let i = 0; i < args.length; i++) {
    const c = args[i];
    if (c === '$') {
      const sig = args[i + 1];
      if (sig === '[') continue;
      if (sig !== '{') return 'el símbolo $ solo puede abrir ${…} o $[…]';
      NOMBRE.lastIndex = i + 2;
      const m = NOMBRE.exec(args);
      if (!m)
        return 'un nombre calculado con ${…} no está permitido: ${ debe ir seguido de un nombre';
      const fin = i + 2 + m[0].length;
      if (args[fin] === '}') {
        if (!LEGIBLES.has(m[0])) return `la variable ${m[0]} no está permitida`;
      } else if (args[fin] !== '(') return `la sustitución \${${m[0]}… no está permitida`;
    } else if (c === '(') {
      const nombre = nombreAntes(args, i).toUpperCase();
      if (!nombre) return 'un paréntesis sin nombre de función delante no está permitido';
      if (!(nombre in FUNCIONES_PERMITIDAS)) return `la función ${nombre}() no está permitida`;
      const dentro = entreParentesis(args, i);
      if (dentro === undefined) return 'los paréntesis no están equilibrados';
      const items = FUNCIONES_PERMITIDAS[nombre];
      if (items && !items.test(dentro.trim()))
        return `${nombre}(${dentro.trim().slice(0, 40)}) no está permitido`;
      nivel++;
    } else if (c === ')' && --nivel < 0) return 'los paréntesis no están equilibrados';
  }
  return nivel === 0 ? undefined : 'los paréntesis no están equilibrados';
}

/** `$[…]` expressions: none nested, and once quoted words and readable substitutions are set
 * aside, only digits, spaces and operators (no name Asterisk's parser could call). */
function problemaDeExpresiones(args: string): string | undefined {
  let desde = 0;
  for (;;) {
    const i = args.indexOf('$[', desde);
    if (i < 0) return undefined;
    const j = args.indexOf(']', i);
    if (j < 0) return 'la expresión $[…] no está cerrada';
    const expr = args.slice(i + 2, j);
    if (expr.includes('$[') || expr.includes('['))
      return 'las expresiones $[…] anidadas no están permitidas';
    let resto = expr;
    for (let previo = ''; previo !== resto;) {
      previo = resto;
      resto = resto
        .replace(/\$\{[A-Za-z_][A-Za-z0-9_]*\}/g, '0')
        .replace(/\$\{(LEN|ISNULL|EXISTS)\([^()$"]*\)\}/gi, '0')
        .replace(/"[A-Za-z0-9_ ]*"/g, '0');
    }
    if (!/^[0-9 +\-*/%<>=!&|]*$/.test(resto))
      return 'la expresión $[…] solo admite números, variables de Pregón y operadores';
    desde = j + 1;
  }
}

/** Set and Read write only Pregón's variables (or TIMEOUT / CHANNEL(language)), with a value
 * that cannot carry a name: a number, an expression, a language code. */
function problemaDeAsignacion(app: string, args: string): string | undefined {
  const nombre = app.toLowerCase();
  if (nombre === 'read') {
    const variable = args.split(',')[0]!.trim();
    return ASIGNABLES.has(variable)
      ? undefined
      : `Read no puede asignar «${variable.slice(0, 40)}»`;
  }
  if (nombre !== 'set') return undefined;
  const igual = args.indexOf('=');
  if (igual < 0) return 'Set sin «=» no está permitido';
  const destino = args.slice(0, igual).trim();
  const valor = args.slice(igual + 1).trim();
  if (/^TIMEOUT\((absolute|digit|response)\)$/i.test(destino))
    return /^[0-9]{1,9}$/.test(valor) ? undefined : `el valor de ${destino} debe ser un número`;
  if (/^CHANNEL\((language|musicclass)\)$/i.test(destino))
    return /^[A-Za-z_]{1,16}$/.test(valor) ? undefined : `el valor de ${destino} no es válido`;
  if (!ASIGNABLES.has(destino)) return `Set no puede asignar «${destino.slice(0, 40)}»`;
  if (/^-?[0-9]{1,9}$/.test(valor) || /^\$\[[^\]]*\]$/.test(valor)) return undefined;
  return `el valor de ${destino} debe ser un número o una expresión $[…]`;
}

/** For Goto, Gosub and GotoIf: the first target that is computed or leaves Pregón's contexts. */
function destinoFuera(app: string, args: string): string | undefined {
  const nombre = app.toLowerCase();
  let destinos: string[];
  if (nombre === 'goto') destinos = [args];
  else if (nombre === 'gosub') destinos = [args.replace(/\(.*$/s, '')];
  else if (nombre === 'gotoif') {
    const q = args.lastIndexOf('?');
    if (q < 0) return args;
    destinos = args
      .slice(q + 1)
      .split(':')
      .filter((d) => d !== '');
  } else return undefined;
  for (const d of destinos) {
    const partes = d.split(',').map((x) => x.trim());
    if (partes.length > 3 || partes.some((p) => !ETIQUETA.test(p) && !NOMBRE_CONTEXTO.test(p)))
      return d;
    if (partes.length === 3 && !NOMBRE_CONTEXTO.test(partes[0]!)) return d;
  }
  return undefined;
}

/** For Playback, Background and Read: the first sound name that is not a plain name under the
 * sounds folder; for Background, also a 4th argument (a context to jump to) outside Pregón's. */
function problemaDeSonido(app: string, args: string): string | undefined {
  const nombre = app.toLowerCase();
  const partes = args.split(',').map((x) => x.trim());
  let sonidos: string | undefined;
  if (nombre === 'playback' || nombre === 'background') sonidos = partes[0];
  else if (nombre === 'read') sonidos = partes[1];
  else return undefined;
  for (const s of (sonidos ?? '').split('&')) {
    if (s !== '' && !SONIDO.test(s))
      return `el audio «${s.slice(0, 80)}» no es un nombre de la carpeta de sonidos`;
  }
  const contexto = nombre === 'background' ? partes[3] : undefined;
  if (contexto && !NOMBRE_CONTEXTO.test(contexto))
    return `el salto a «${contexto.slice(0, 80)}» sale de los contextos de Pregón`;
  return undefined;
}

/** Checks an application line's arguments; the first problem wins. */
function problemaDeArgumentos(app: string, args: string): string | undefined {
  // Gosub's label may carry arguments, `label(args)`: the label is not a function; its target
  // is checked as a jump and its arguments as any others.
  const gosub = app.toLowerCase() === 'gosub' ? /^([^()$]*)\((.*)\)$/s.exec(args) : null;
  const destino = destinoFuera(app, args);
  return (
    problemaDeNombres(gosub ? gosub[2]! : args) ??
    problemaDeExpresiones(args) ??
    problemaDeAsignacion(app, args) ??
    problemaDeSonido(app, args) ??
    (destino === undefined
      ? undefined
      : `el salto a «${destino.slice(0, 80)}» sale de los contextos de Pregón`)
  );
}

/** Checks a whole include file; the first problem wins. */
export function validarDialplan(texto: string): VeredictoDialplan {
  const lineas = texto.split(/\r?\n/);
  let contexto: string | undefined;
  for (let i = 0; i < lineas.length; i++) {
    const n = i + 1;
    const cruda = lineas[i]!;
    const mal = (motivo: string): VeredictoDialplan => ({ ok: false, linea: n, motivo });
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(cruda))
      return mal('contiene caracteres de control');
    // A backslash would let `\;` hide code inside what looks like a comment; block comments
    // (;-- … --;) let code follow them on the same line.
    if (cruda.includes('\\')) return mal('contiene caracteres no permitidos');
    if (cruda.includes(';--') || cruda.includes('--;'))
      return mal('los comentarios de bloque ;-- --; no se permiten');
    if (cruda.length > LARGO_MAXIMO) return mal(`la línea supera ${LARGO_MAXIMO} caracteres`);
    const comentario = cruda.indexOf(';');
    const linea = (comentario < 0 ? cruda : cruda.slice(0, comentario)).trim();
    if (linea === '') continue;
    // Only plain ASCII outside comments: no look-alike letters, no invisible characters.
    if (/[^\x20-\x7e]/.test(linea) || linea.includes('`'))
      return mal('contiene caracteres no permitidos');
    if (linea.startsWith('#'))
      return mal(
        DIRECTIVAS.test(linea)
          ? 'las directivas #exec, #include y #tryinclude no se permiten'
          : 'las directivas # no se permiten',
      );
    if (linea.startsWith('[')) {
      const c = CONTEXTO.exec(linea);
      const nombre = c?.[1] ?? linea;
      if (!c || !NOMBRE_CONTEXTO.test(nombre))
        return mal(
          `el contexto «${nombre.slice(0, 80)}» no es válido: solo se permiten los contextos de Pregón (pregon-llamada-N, pregon-quiz-N)`,
        );
      contexto = nombre;
      continue;
    }
    if (OTRAS.test(linea)) return mal('include, switch e ignorepat no se permiten');
    const e = EXTEN.exec(linea);
    if (!e) return mal('la línea no es exten => ni same =>');
    if (!contexto) return mal('la extensión está fuera de un contexto');
    const a = aplicacion(e[2]!, e[1]!.toLowerCase() === 'same');
    if (!a) return mal('no se reconoce la aplicación de la línea');
    if (!PERMITIDAS.has(a.app.toLowerCase()))
      return mal(`la aplicación ${a.app} no está permitida`);
    const problema = problemaDeArgumentos(a.app, a.args);
    if (problema) return mal(problema);
  }
  return { ok: true };
}
