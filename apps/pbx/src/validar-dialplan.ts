/**
 * Checks dialplan before the agent writes it where Asterisk reads it (ARCHITECTURE 6 and 8):
 * `extensions.conf` syntax, contexts named `pregon-…` only, only the allow-listed applications,
 * no dangerous function or directive anywhere. A pure function: text in, verdict out. The check
 * is deliberately narrower than what Asterisk accepts: what Pregón generates passes, anything
 * that could run a program, dial out, read or write files, or pull other files in does not.
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

/** Dialplan functions that run programs, touch files or databases: refused anywhere in a line. */
const FUNCIONES_PROHIBIDAS =
  /\b(SHELL|FILE|FILE_COUNT_LINE|FILE_FORMAT|ODBC_[A-Z0-9_]*|ODBC|CURL|CURLOPT|SYSINFO|STAT|ENV|DB|DB_DELETE|DB_KEYS|EVAL|EXEC)\s*\(/i;

/** Dialplan functions the generated dialplan may read or set; any other `NAME(` in an
 * application's arguments is refused (Asterisk also evaluates functions inside `$[…]`, so the
 * check looks at the whole argument text, not only at `${…}`). */
export const FUNCIONES_PERMITIDAS = [
  'TIMEOUT',
  'CHANNEL',
  'LEN',
  'ISNULL',
  'EXISTS',
  'IF',
  'RAND',
  'STRFTIME',
  'CUT',
  'FIELDQTY',
  'REGEX',
  'TOUPPER',
  'TOLOWER',
  'MATH',
  'SPRINTF',
  'QUOTE',
  'FILTER',
  'CALLERID',
] as const;

const FUNCIONES = new Set<string>(FUNCIONES_PERMITIDAS);

/** CHANNEL() items that only read or set the prompt language and music class; others such as
 * hangup_handler_push would run dialplan outside the checked contexts when the call ends. */
const CHANNEL_PERMITIDO = /^(language|musicclass|name|uniqueid|linkedid|state|channeltype)$/i;

/** A sound name as Playback, Background and Read take it: relative to Asterisk's sounds folder,
 * no extension, no absolute path, no `..`; several joined with `&`. */
const SONIDO = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/** The verdict: fine, or the 1-based line and the Spanish reason. */
export type VeredictoDialplan = { ok: true } | { ok: false; linea: number; motivo: string };

const CONTEXTO = /^\[(pregon-[A-Za-z0-9_-]{1,80})\]$/;
const CONTEXTO_CUALQUIERA = /^\[([^\]]*)\]/;
const EXTEN = /^(exten|same)\s*=>\s*(.*)$/i;
const DIRECTIVAS = /^#\s*(exec|include|tryinclude)\b/i;
const OTRAS = /^(include|switch|eswitch|lswitch|ignorepat)\s*=>/i;

/** Splits `exten => s,1,App(args)` (or `same => n(label),App(args)`) into its application and
 * arguments; null when the line has no application part. */
function aplicacion(resto: string, esSame: boolean): { app: string; args: string } | null {
  // exten => pattern,priority[(label)],App(args) ; same => priority[(label)],App(args)
  const partes = esSame
    ? /^\s*([0-9]+|n|hint)(\([A-Za-z0-9_-]+\))?\s*,\s*(.*)$/i.exec(resto)
    : /^\s*([^,]+),\s*([0-9]+|n|hint)(\([A-Za-z0-9_-]+\))?\s*,\s*(.*)$/i.exec(resto);
  if (!partes) return null;
  const llamada = (esSame ? partes[3] : partes[4])!.trim();
  const m = /^([A-Za-z][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$/s.exec(llamada);
  if (!m) return null;
  return { app: m[1]!, args: m[2] ?? '' };
}

/** For Goto, Gosub and GotoIf: the first target whose context is not a `pregon-` one (or is
 * computed from a variable), so no jump can reach a system context that dials out. */
function destinoFuera(app: string, args: string): string | undefined {
  const nombre = app.toLowerCase();
  let destinos: string[];
  if (nombre === 'goto' || nombre === 'gosub') destinos = [args.replace(/\(.*$/s, '')];
  else if (nombre === 'gotoif') {
    const q = args.lastIndexOf('?');
    if (q < 0) return undefined;
    destinos = args.slice(q + 1).split(':');
  } else return undefined;
  for (const d of destinos) {
    const partes = d.split(',').map((x) => x.trim());
    if (partes.length >= 3 && !/^pregon-[A-Za-z0-9_-]+$/.test(partes[0]!)) return d;
  }
  return undefined;
}

/** The first function call in `args` that is not allowed (its name as written), or, for CHANNEL,
 * an item that is not allowed (`CHANNEL(item)`); undefined when all are allowed. */
function funcionNoPermitida(args: string): string | undefined {
  for (const m of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*([^)]*)/g)) {
    const nombre = m[1]!.toUpperCase();
    if (!FUNCIONES.has(nombre)) return nombre;
    if (nombre === 'CHANNEL' && !CHANNEL_PERMITIDO.test(m[2]!.trim()))
      return `CHANNEL(${m[2]!.trim().slice(0, 40)})`;
  }
  return undefined;
}

/** For Playback, Background and Read: the first sound name that is not a plain name under the
 * sounds folder; for Background, also a 4th argument (a context to jump to) outside `pregon-`. */
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
  if (contexto && !/^pregon-[A-Za-z0-9_-]+$/.test(contexto))
    return `el salto a «${contexto.slice(0, 80)}» sale de los contextos pregon-…`;
  return undefined;
}

/** Removes a `;` comment (Asterisk allows `\;` as a literal semicolon). */
function sinComentario(linea: string): string {
  for (let i = 0; i < linea.length; i++) {
    if (linea[i] === ';' && linea[i - 1] !== '\\') return linea.slice(0, i);
  }
  return linea;
}

/** Checks a whole include file; the first problem wins. */
export function validarDialplan(texto: string): VeredictoDialplan {
  const lineas = texto.split(/\r?\n/);
  let contexto: string | undefined;
  for (let i = 0; i < lineas.length; i++) {
    const n = i + 1;
    const cruda = lineas[i]!;
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(cruda))
      return { ok: false, linea: n, motivo: 'contiene caracteres de control' };
    const linea = sinComentario(cruda).trim();
    if (linea === '') continue;
    if (DIRECTIVAS.test(linea))
      return {
        ok: false,
        linea: n,
        motivo: 'las directivas #exec, #include y #tryinclude no se permiten',
      };
    if (linea.startsWith('[')) {
      const c = CONTEXTO.exec(linea);
      if (!c) {
        const nombre = CONTEXTO_CUALQUIERA.exec(linea)?.[1] ?? linea;
        return {
          ok: false,
          linea: n,
          motivo: `el contexto «${nombre.slice(0, 80)}» no es válido: solo se permiten contextos pregon-…`,
        };
      }
      contexto = c[1];
      continue;
    }
    if (OTRAS.test(linea))
      return { ok: false, linea: n, motivo: 'include, switch e ignorepat no se permiten' };
    const e = EXTEN.exec(linea);
    if (!e) return { ok: false, linea: n, motivo: 'la línea no es exten => ni same =>' };
    if (!contexto) return { ok: false, linea: n, motivo: 'la extensión está fuera de un contexto' };
    const a = aplicacion(e[2]!, e[1]!.toLowerCase() === 'same');
    if (!a) return { ok: false, linea: n, motivo: 'no se reconoce la aplicación de la línea' };
    if (!PERMITIDAS.has(a.app.toLowerCase()))
      return { ok: false, linea: n, motivo: `la aplicación ${a.app} no está permitida` };
    const f = FUNCIONES_PROHIBIDAS.exec(a.args);
    if (f)
      return {
        ok: false,
        linea: n,
        motivo: `la función ${f[1]!.toUpperCase()}() no está permitida`,
      };
    // Gosub's label may carry arguments, `label(args)`: the label is not a function.
    const noPermitida = funcionNoPermitida(
      a.app.toLowerCase() === 'gosub'
        ? a.args.replace(/^([^$(]*?)[A-Za-z_][A-Za-z0-9_-]*\(/, '$1(')
        : a.args,
    );
    if (noPermitida)
      return {
        ok: false,
        linea: n,
        motivo: noPermitida.startsWith('CHANNEL(')
          ? `${noPermitida} no está permitido`
          : `la función ${noPermitida}() no está permitida`,
      };
    if (/`/.test(a.args))
      return { ok: false, linea: n, motivo: 'contiene caracteres no permitidos' };
    const sonido = problemaDeSonido(a.app, a.args);
    if (sonido) return { ok: false, linea: n, motivo: sonido };
    const destino = destinoFuera(a.app, a.args);
    if (destino)
      return {
        ok: false,
        linea: n,
        motivo: `el salto a «${destino.slice(0, 80)}» sale de los contextos pregon-…`,
      };
  }
  return { ok: true };
}
