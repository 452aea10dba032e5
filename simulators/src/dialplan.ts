import fs from 'node:fs';
import path from 'node:path';

// An interpreter for the part of Asterisk's `extensions.conf` that Pregón generates and the PBX
// agent allows (docs/telefonia.md): contexts, `exten =>` / `same =>` lines with priority labels,
// `${VAR}` and `$[…]` expressions, and the allow-listed applications. Anything else is an error
// (thrown, so the simulator hangs the call up and records it), never skipped.

/** One priority of an extension. */
export interface Prioridad {
  numero: number;
  etiqueta?: string;
  app: string;
  args: string;
  /** Where it came from, for errors. */
  origen: string;
}

/** The loaded dialplan: context → extension → priorities in order. */
export type PlanMarcado = Map<string, Map<string, Prioridad[]>>;

/** Reads every `*.conf` of a folder (missing folder: empty plan). Throws on a line it cannot read. */
export function cargarPlan(dir: string): PlanMarcado {
  const plan: PlanMarcado = new Map();
  if (!fs.existsSync(dir)) return plan;
  for (const f of fs
    .readdirSync(dir)
    .filter((x) => x.endsWith('.conf'))
    .sort())
    leerArchivo(fs.readFileSync(path.join(dir, f), 'utf8'), f, plan);
  return plan;
}

/** Parses one file into the plan. */
export function leerArchivo(
  texto: string,
  nombre: string,
  plan: PlanMarcado = new Map(),
): PlanMarcado {
  let contexto: Map<string, Prioridad[]> | undefined;
  let ultima: string | undefined;
  texto.split(/\r?\n/).forEach((cruda, i) => {
    const origen = `${nombre}:${i + 1}`;
    const linea = sinComentario(cruda).trim();
    if (!linea) return;
    const c = /^\[([^\]]+)\]$/.exec(linea);
    if (c) {
      contexto = plan.get(c[1]!) ?? new Map();
      plan.set(c[1]!, contexto);
      ultima = undefined;
      return;
    }
    const m = /^(exten|same)\s*=>\s*(.*)$/i.exec(linea);
    if (!m || !contexto) throw new Error(`${origen}: línea no reconocida`);
    let resto = m[2]!;
    let exten: string;
    if (m[1]!.toLowerCase() === 'exten') {
      const coma = resto.indexOf(',');
      exten = resto.slice(0, coma).trim();
      resto = resto.slice(coma + 1);
    } else {
      if (!ultima) throw new Error(`${origen}: same => sin exten previo`);
      exten = ultima;
    }
    ultima = exten;
    const p =
      /^\s*(\d+|n)(?:\(([A-Za-z0-9_-]+)\))?\s*,\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$/s.exec(
        resto,
      );
    if (!p) throw new Error(`${origen}: prioridad no reconocida`);
    const lista = contexto.get(exten) ?? [];
    contexto.set(exten, lista);
    const numero = p[1] === 'n' ? (lista.at(-1)?.numero ?? 0) + 1 : Number(p[1]);
    lista.push({ numero, etiqueta: p[2], app: p[3]!, args: p[4] ?? '', origen });
  });
  return plan;
}

function sinComentario(l: string): string {
  for (let i = 0; i < l.length; i++) if (l[i] === ';' && l[i - 1] !== '\\') return l.slice(0, i);
  return l;
}

/** Replaces `${VAR}` (and `${VAR:offset}`), then evaluates `$[…]`, innermost first. */
export function sustituir(texto: string, vars: ReadonlyMap<string, string>): string {
  let s = texto;
  for (let guard = 0; guard < 100; guard++) {
    const i = masInterno(s);
    if (!i) return s;
    const dentro = s.slice(i.inicio + 2, i.fin);
    let valor: string;
    if (i.tipo === '{') {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?::(-?\d+)(?::(\d+))?)?$/.exec(dentro);
      if (!m) throw new Error(`expresión \${${dentro}} no soportada`);
      valor = vars.get(m[1]!) ?? '';
      if (m[2] !== undefined) {
        const off = Number(m[2]);
        valor = off < 0 ? valor.slice(off) : valor.slice(off);
        if (m[3] !== undefined) valor = valor.slice(0, Number(m[3]));
      }
    } else valor = String(evaluar(dentro));
    s = s.slice(0, i.inicio) + valor + s.slice(i.fin + 1);
  }
  throw new Error('expresión demasiado anidada');
}

function masInterno(s: string): { inicio: number; fin: number; tipo: '{' | '[' } | undefined {
  let ultimo: { inicio: number; tipo: '{' | '[' } | undefined;
  for (let i = 0; i < s.length - 1; i++) {
    if (s[i] === '$' && (s[i + 1] === '{' || s[i + 1] === '['))
      ultimo = { inicio: i, tipo: s[i + 1] as '{' | '[' };
  }
  if (!ultimo) return undefined;
  const cierre = ultimo.tipo === '{' ? '}' : ']';
  const fin = s.indexOf(cierre, ultimo.inicio + 2);
  if (fin < 0) throw new Error('expresión sin cerrar');
  return { ...ultimo, fin };
}

/** Evaluates an Asterisk `$[…]` expression: | & = != < > <= >= + - * / and parentheses; quoted
 * strings; numbers compare as numbers, anything else as text. */
export function evaluar(expr: string): string | number {
  const tokens = (expr.match(/"[^"]*"|<=|>=|!=|[()|&=<>+\-*/]|[^\s()|&=<>+\-*/"]+/g) ?? []).map(
    (t) => t,
  );
  let i = 0;
  const ver = () => tokens[i];
  const tomar = () => tokens[i++];
  const num = (v: string | number) =>
    typeof v === 'number' ? v : /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : NaN;
  const verdad = (v: string | number) => !(v === '' || v === 0 || v === '0');
  const primario = (): string | number => {
    const t = tomar();
    if (t === undefined) return '';
    if (t === '(') {
      const v = o();
      if (tomar() !== ')') throw new Error(`falta ) en $[${expr}]`);
      return v;
    }
    if (t === '-') return -num(primario());
    if (t === '+') return num(primario());
    if (t.startsWith('"')) return t.slice(1, -1);
    return /^-?\d+$/.test(t) ? Number(t) : t;
  };
  const mult = (): string | number => {
    let v = primario();
    while (ver() === '*' || ver() === '/') {
      const op = tomar();
      const b = num(primario());
      v = op === '*' ? num(v) * b : Math.trunc(num(v) / b);
    }
    return v;
  };
  const suma = (): string | number => {
    let v = mult();
    while (ver() === '+' || ver() === '-') {
      const op = tomar();
      const b = num(mult());
      v = op === '+' ? num(v) + b : num(v) - b;
    }
    return v;
  };
  const comp = (): string | number => {
    let v = suma();
    while (['=', '!=', '<', '>', '<=', '>='].includes(ver() ?? '')) {
      const op = tomar()!;
      const b = suma();
      const na = num(v);
      const nb = num(b);
      const c =
        !Number.isNaN(na) && !Number.isNaN(nb) ? na - nb : String(v).localeCompare(String(b));
      v = { '=': c === 0, '!=': c !== 0, '<': c < 0, '>': c > 0, '<=': c <= 0, '>=': c >= 0 }[op]
        ? 1
        : 0;
    }
    return v;
  };
  const y = (): string | number => {
    let v = comp();
    while (ver() === '&') {
      tomar();
      const b = comp();
      v = verdad(v) && verdad(b) ? v : 0;
    }
    return v;
  };
  const o = (): string | number => {
    let v = y();
    while (ver() === '|') {
      tomar();
      const b = y();
      v = verdad(v) ? v : b;
    }
    return v;
  };
  const r = o();
  if (i < tokens.length) throw new Error(`expresión no soportada: $[${expr}]`);
  return r;
}

/** Splits application arguments as AST_STANDARD_APP_ARGS does: on commas outside parentheses,
 * brackets and quotes; the quotes are removed and a backslash makes the next character literal. */
export function partirArgs(args: string): string[] {
  const out: string[] = [];
  let parentesis = 0;
  let corchetes = 0;
  let actual = '';
  let comillas = false;
  for (let i = 0; i < args.length; i++) {
    const ch = args[i]!;
    if (ch === '"') {
      comillas = !comillas;
      continue;
    }
    if (ch === '\\') {
      actual += args[++i] ?? '';
      continue;
    }
    if (ch === '(') parentesis++;
    else if (ch === ')') parentesis = Math.max(0, parentesis - 1);
    else if (ch === '[') corchetes++;
    else if (ch === ']') corchetes = Math.max(0, corchetes - 1);
    else if (ch === ',' && !parentesis && !corchetes && !comillas) {
      out.push(actual);
      actual = '';
      continue;
    }
    actual += ch;
  }
  out.push(actual);
  return out;
}

/** An application's arguments as Asterisk shows them (substituted), or as written when they
 * cannot be substituted (the application itself then reports the error). */
function mostrar(args: string, vars: ReadonlyMap<string, string>): string {
  try {
    return sustituir(args, vars);
  } catch {
    return args;
  }
}

/** What a channel does when the dialplan asks it to (the simulator implements it). */
export interface Canal {
  vars: Map<string, string>;
  /** Plays a file (interruptible: resolves early with the digit pressed, if any). */
  reproducir(archivo: string, interrumpible: boolean): Promise<string | undefined>;
  /** Whether a sound file exists (Asterisk's ast_streamfile fails on a missing one). */
  existe(archivo: string): boolean;
  /** Waits up to `ms` for a digit; '' when none. */
  esperarDigito(ms: number): Promise<string>;
  esperar(ms: number): Promise<void>;
  contestar(): void;
  evento(nombre: string, campos: [string, string][]): void;
  /** Absolute timeout, seconds. */
  limite(segundos: number): void;
  /** True once the channel hung up (callee, Hangup action or timeout). */
  colgado(): boolean;
  /** The priority about to run (the channel's Context/Exten/Priority/Application in events). */
  paso?(contexto: string, exten: string, prioridad: number, app: string, datos: string): void;
  /** A warning Asterisk would log (a missing sound file) while the call goes on. */
  aviso?(texto: string): void;
}

/** Read's first-digit timeout when its argument is empty or not positive (pbx rtimeoutms). */
const READ_TIMEOUT_MS = 10_000;

const APPS = new Set([
  'answer',
  'wait',
  'playback',
  'background',
  'read',
  'waitexten',
  'set',
  'gotoif',
  'goto',
  'gosub',
  'return',
  'userevent',
  'noop',
  'verbose',
  'hangup',
  'progress',
  'ringing',
]);

/** The index of `prioridad` (a number or a label) in an extension's priorities, or -1. */
export function buscarPrioridad(lista: Prioridad[], prioridad: string | number): number {
  const p = String(prioridad).trim();
  return /^\d+$/.test(p)
    ? lista.findIndex((x) => x.numero === Number(p))
    : lista.findIndex((x) => x.etiqueta === p);
}

/** Runs a channel through `contexto`, extension `s` (or `exten`), from `prioridad` (1), until it
 * hangs up or the dialplan ends. Resolves with the cause of a `Hangup()` (16 unless given), or
 * undefined when the dialplan ran out (Asterisk then hangs up with no cause: 0).
 * Throws on anything it cannot execute. */
export async function ejecutar(
  plan: PlanMarcado,
  contexto: string,
  canal: Canal,
  exten = 's',
  prioridad: string | number = 1,
): Promise<number | undefined> {
  let ctx = contexto;
  let ext = exten;
  let lista = plan.get(ctx)?.get(ext);
  if (!lista) throw new Error(`no existe ${ext}@${ctx}`);
  let pc = buscarPrioridad(lista, prioridad);
  if (pc < 0) throw new Error(`no existe la prioridad ${prioridad} en ${ext}@${ctx}`);
  const pila: { ctx: string; ext: string; pc: number }[] = [];
  const saltar = (destino: string) => {
    const partes = destino.split(',').map((x) => x.trim());
    const [c, e, p] =
      partes.length === 3 ? partes : partes.length === 2 ? [ctx, ...partes] : [ctx, ext, partes[0]];
    const l = plan.get(c!)?.get(e!);
    if (!l) throw new Error(`no existe ${e}@${c}`);
    const idx = buscarPrioridad(l, p!);
    if (idx < 0) throw new Error(`no existe la prioridad ${p} en ${e}@${c}`);
    ctx = c!;
    ext = e!;
    lista = l;
    pc = idx;
  };
  for (let pasos = 0; pasos < 10_000 && !canal.colgado(); pasos++) {
    const p = lista[pc];
    if (!p) return undefined;
    pc++;
    const app = p.app.toLowerCase();
    if (!APPS.has(app)) throw new Error(`${p.origen}: la aplicación ${p.app} no está soportada`);
    canal.vars.set('EXTEN', ext);
    const args = app === 'gotoif' || app === 'set' ? p.args : sustituir(p.args, canal.vars);
    canal.paso?.(ctx, ext, p.numero, p.app, args === p.args ? mostrar(p.args, canal.vars) : args);
    switch (app) {
      case 'answer':
        canal.contestar();
        break;
      case 'wait':
        await canal.esperar(Number(args || 0) * 1000);
        break;
      case 'playback':
      case 'background': {
        // As app_playback / pbx_builtin_background: a missing file is a logged warning and a
        // FAILED status, and the dialplan goes on (Background stops at the first missing file).
        let fallo = false;
        for (const f of args
          .split(',')[0]!
          .split('&')
          .map((x) => x.trim())) {
          if (canal.colgado()) break;
          if (!canal.existe(f)) {
            fallo = true;
            canal.aviso?.(`${p.origen}: ${p.app} failed for ${f} (no existe el audio)`);
            if (app === 'background') break;
            continue;
          }
          const d = await canal.reproducir(f, app === 'background');
          if (d) break;
        }
        canal.vars.set(
          app === 'playback' ? 'PLAYBACKSTATUS' : 'BACKGROUNDSTATUS',
          fallo ? 'FAILED' : 'SUCCESS',
        );
        break;
      }
      case 'read': {
        const [variable, archivo, maxd, , intentos, timeout] = partirArgs(args);
        if (!variable) throw new Error(`${p.origen}: Read sin variable`);
        if (maxd && maxd !== '1')
          throw new Error(`${p.origen}: Read con más de un dígito no soportado`);
        const ms = Number(timeout) > 0 ? Number(timeout) * 1000 : READ_TIMEOUT_MS;
        const prompt = archivo?.trim() ?? '';
        let digito = '';
        let estado = 'TIMEOUT';
        if (prompt && !canal.existe(prompt)) {
          // app_read: ast_app_getdata fails on the missing prompt; the variable is left empty,
          // nothing is waited for, READSTATUS=ERROR, and the dialplan goes on.
          canal.aviso?.(`${p.origen}: Read failed for ${prompt} (no existe el audio)`);
          estado = 'ERROR';
        } else
          for (
            let n = 0;
            n < Math.max(1, Math.trunc(Number(intentos)) || 1) && !digito && !canal.colgado();
            n++
          ) {
            if (prompt) digito = (await canal.reproducir(prompt, true)) ?? '';
            if (!digito) digito = await canal.esperarDigito(ms);
          }
        if (digito) estado = 'OK';
        if (canal.colgado()) estado = 'HANGUP';
        canal.vars.set(variable, digito);
        canal.vars.set('READSTATUS', estado);
        break;
      }
      case 'waitexten':
        await canal.esperarDigito(Number(args || 0) * 1000);
        break;
      case 'set': {
        const eq = p.args.indexOf('=');
        const nombre = p.args.slice(0, eq).trim();
        const valor = sustituir(p.args.slice(eq + 1), canal.vars);
        if (/^TIMEOUT\(absolute\)$/i.test(nombre)) canal.limite(Number(valor));
        else if (/^CHANNEL\(language\)$/i.test(nombre)) canal.vars.set('CHANNEL_LANGUAGE', valor);
        else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(nombre)) canal.vars.set(nombre, valor);
        else throw new Error(`${p.origen}: Set(${nombre}) no soportado`);
        break;
      }
      case 'gotoif': {
        const q = p.args.lastIndexOf('?');
        const cond = sustituir(p.args.slice(0, q), canal.vars);
        const [si, no] = p.args.slice(q + 1).split(':');
        const v = cond.trim();
        const cierto = !(v === '' || v === '0');
        const destino = cierto ? si : no;
        if (destino) saltar(destino);
        break;
      }
      case 'goto':
        saltar(args);
        break;
      case 'gosub':
        pila.push({ ctx, ext, pc });
        saltar(args.replace(/\(.*\)$/s, ''));
        break;
      case 'return': {
        const r = pila.pop();
        if (!r) throw new Error(`${p.origen}: Return sin Gosub`);
        ctx = r.ctx;
        ext = r.ext;
        lista = plan.get(ctx)!.get(ext)!;
        pc = r.pc;
        break;
      }
      case 'userevent': {
        // As app_userevent: the name, then `Key: value` pairs (the key as written, the value
        // trimmed); a pair without ':' is dropped; no name at all fails the application.
        const [nombre, ...cuerpo] = partirArgs(args);
        if (!nombre?.trim()) throw new Error(`${p.origen}: UserEvent sin nombre`);
        canal.evento(
          nombre,
          cuerpo.flatMap((c) => {
            const dos = c.indexOf(':');
            return dos < 0 ? [] : [[c.slice(0, dos), c.slice(dos + 1).trim()] as [string, string]];
          }),
        );
        break;
      }
      case 'hangup': {
        // pbx_builtin_hangup: the cause given (1..127), else Normal Clearing (16).
        const causa = Number(args.trim());
        return args.trim() && Number.isInteger(causa) && causa > 0 && causa < 128 ? causa : 16;
      }
      default:
        // NoOp, Verbose, Progress, Ringing: nothing observable on a simulated channel.
        break;
    }
  }
  return undefined;
}
