/**
 * The Asterisk Manager Interface wire format (docs.asterisk.org, "AMI v2 Specification"): after
 * a one-line banner (`Asterisk Call Manager/9.0.0`), every message is `Key: Value` lines ended by
 * CRLF and closed by an empty line. Actions carry `Action:`, responses `Response:`, events
 * `Event:`; keys may repeat (`Variable:`, `Output:`). Shared by the PBX agent, the dispatcher's
 * channel and the AMI simulator, so the three frame messages the same way.
 */

/** One AMI message: its fields in order (keys may repeat), read case-insensitively. */
export class MensajeAmi {
  constructor(readonly campos: readonly (readonly [string, string])[]) {}

  /** The first value of a key (keys compare without case, as Asterisk does), or undefined. */
  valor(clave: string): string | undefined {
    const k = clave.toLowerCase();
    for (const [c, v] of this.campos) if (c.toLowerCase() === k) return v;
    return undefined;
  }

  /** Every value of a repeated key, in order. */
  valores(clave: string): string[] {
    const k = clave.toLowerCase();
    return this.campos.filter(([c]) => c.toLowerCase() === k).map(([, v]) => v);
  }

  /** Whether this is an action, a response or an event. */
  get tipo(): 'accion' | 'respuesta' | 'evento' | 'otro' {
    const [c] = this.campos[0] ?? [''];
    const k = c.toLowerCase();
    if (k === 'action') return 'accion';
    if (k === 'response') return 'respuesta';
    if (k === 'event') return 'evento';
    // Some fields may precede the type key (an ActionID first): look for it anywhere.
    if (this.valor('Event') !== undefined) return 'evento';
    if (this.valor('Response') !== undefined) return 'respuesta';
    if (this.valor('Action') !== undefined) return 'accion';
    return 'otro';
  }

  /** The fields as a plain object (last value wins), for logs and tests. */
  objeto(): Record<string, string> {
    return Object.fromEntries(this.campos);
  }
}

/** Fields to send: an ordered list, or an object whose array values become repeated keys. */
export type CamposAmi =
  | readonly (readonly [string, string])[]
  | Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

/** A value that could break the framing (a line break would start a new field). */
function limpio(clave: string, v: string): string {
  if (/[\r\n]/.test(v) || /[\r\n:]/.test(clave)) {
    throw new Error(`AMI: el campo ${clave} no puede contener saltos de línea`);
  }
  return v;
}

/** The fields as an ordered list of pairs (array values become repeated keys). */
export function paresAmi(campos: CamposAmi): [string, string][] {
  const pares: [string, string][] = [];
  if (Array.isArray(campos)) {
    for (const [k, v] of campos as readonly (readonly [string, string])[]) pares.push([k, v]);
  } else {
    for (const [k, v] of Object.entries(campos)) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const x of v) pares.push([k, String(x)]);
      else pares.push([k, String(v)]);
    }
  }
  return pares;
}

/** Serialises one message: `Key: Value` CRLF lines and the closing empty line. Refuses values
 * with line breaks, which would let text become extra fields. */
export function serializarAmi(campos: CamposAmi): string {
  let s = '';
  for (const [k, v] of paresAmi(campos)) s += `${k}: ${limpio(k, v)}\r\n`;
  return `${s}\r\n`;
}

/**
 * Reads AMI bytes into messages, across arbitrary chunk boundaries. The first line is the
 * banner when `banner` is set (a client reading a server). Lines without a colon (the output of
 * an old-style `Response: Follows` command) are kept as `Output` fields; `--END COMMAND--` ends
 * that output.
 */
export class LectorAmi {
  private resto = '';
  private campos: [string, string][] = [];
  private esperaBanner: boolean;
  /** The banner line, once read (`Asterisk Call Manager/9.0.0`). */
  banner: string | undefined;

  constructor(opciones: { banner?: boolean } = {}) {
    this.esperaBanner = opciones.banner ?? false;
  }

  /** Feeds a chunk; returns the messages it completed. */
  leer(trozo: Buffer | string): MensajeAmi[] {
    this.resto += typeof trozo === 'string' ? trozo : trozo.toString('utf8');
    const salida: MensajeAmi[] = [];
    let i: number;
    while ((i = this.resto.indexOf('\n')) >= 0) {
      let linea = this.resto.slice(0, i);
      this.resto = this.resto.slice(i + 1);
      if (linea.endsWith('\r')) linea = linea.slice(0, -1);
      if (this.esperaBanner) {
        this.esperaBanner = false;
        this.banner = linea;
        continue;
      }
      if (linea === '') {
        if (this.campos.length) salida.push(new MensajeAmi(this.campos));
        this.campos = [];
        continue;
      }
      const dos = linea.indexOf(':');
      if (dos <= 0) {
        if (linea !== '--END COMMAND--') this.campos.push(['Output', linea]);
        continue;
      }
      this.campos.push([linea.slice(0, dos).trim(), linea.slice(dos + 1).trimStart()]);
    }
    if (this.resto.length > 1_000_000) {
      // A peer that never ends a line is not speaking AMI: drop what cannot become a message.
      this.resto = '';
      throw new Error('AMI: línea de más de 1 MB');
    }
    return salida;
  }
}
