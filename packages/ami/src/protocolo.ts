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

/** Caps of one incoming message (a peer past them is not speaking AMI: drop the connection). The
 * largest real message is a command's output (`Output:` lines); these leave it room by far. */
export const LIMITES_AMI = {
  /** Bytes of one line, its CRLF included. */
  bytesLinea: 1024 * 1024,
  /** Lines of one message, its closing empty line excluded. */
  lineasMensaje: 10_000,
  /** Bytes of one message, counted as they arrive (a partial line included). */
  bytesMensaje: 4 * 1024 * 1024,
} as const;

/** Why a reader gave up on its peer: a line or a message past LIMITES_AMI (or its own caps). */
export class ExcesoAmi extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExcesoAmi';
  }
}

/**
 * Reads AMI bytes into messages, across arbitrary chunk boundaries (a UTF-8 character split
 * between chunks included: lines are decoded whole). The first line is the banner when `banner`
 * is set (a client reading a server). Lines without a colon (the output of an old-style
 * `Response: Follows` command) are kept as `Output` fields; `--END COMMAND--` ends that output.
 * A line, or a message, past its cap (LIMITES_AMI unless given) throws ExcesoAmi and forgets what
 * it held: memory stays bounded whatever the peer sends, and the caller drops the connection.
 */
export class LectorAmi {
  /** The current line's bytes so far (not yet ended by a line feed): a buffer that doubles as
   * needed (a peer dripping one byte per chunk costs no more than one sending it at once). */
  private linea = Buffer.alloc(0);
  private bytesTrozos = 0;
  private campos: [string, string][] = [];
  /** Bytes of the current message's complete lines. */
  private bytesMensaje = 0;
  private esperaBanner: boolean;
  private readonly limites: { bytesLinea: number; lineasMensaje: number; bytesMensaje: number };
  /** The banner line, once read (`Asterisk Call Manager/9.0.0`). */
  banner: string | undefined;

  constructor(
    opciones: {
      banner?: boolean;
      limites?: Partial<{ bytesLinea: number; lineasMensaje: number; bytesMensaje: number }>;
    } = {},
  ) {
    this.esperaBanner = opciones.banner ?? false;
    this.limites = { ...LIMITES_AMI, ...opciones.limites };
  }

  /** Feeds a chunk; returns the messages it completed. Throws ExcesoAmi past a cap. */
  leer(trozo: Buffer | string): MensajeAmi[] {
    const b = typeof trozo === 'string' ? Buffer.from(trozo, 'utf8') : trozo;
    const salida: MensajeAmi[] = [];
    let desde = 0;
    let i: number;
    while ((i = b.indexOf(10, desde)) >= 0) {
      const largo = this.bytesTrozos + (i + 1 - desde);
      this.revisar(largo, this.bytesMensaje + largo);
      const bytes = this.bytesTrozos
        ? Buffer.concat([this.linea.subarray(0, this.bytesTrozos), b.subarray(desde, i)])
        : b.subarray(desde, i);
      this.bytesTrozos = 0;
      desde = i + 1;
      let linea = bytes.toString('utf8');
      if (linea.endsWith('\r')) linea = linea.slice(0, -1);
      if (this.esperaBanner) {
        this.esperaBanner = false;
        this.banner = linea;
        continue;
      }
      if (linea === '') {
        if (this.campos.length) salida.push(new MensajeAmi(this.campos));
        this.campos = [];
        this.bytesMensaje = 0;
        continue;
      }
      if (this.campos.length >= this.limites.lineasMensaje)
        this.exceso(`AMI: mensaje de más de ${this.limites.lineasMensaje} líneas`);
      this.bytesMensaje += largo;
      const dos = linea.indexOf(':');
      if (dos <= 0) {
        if (linea !== '--END COMMAND--') this.campos.push(['Output', linea]);
        continue;
      }
      this.campos.push([linea.slice(0, dos).trim(), linea.slice(dos + 1).trimStart()]);
    }
    if (desde < b.length) {
      const resto = b.subarray(desde);
      const total = this.bytesTrozos + resto.length;
      this.revisar(total, this.bytesMensaje + total);
      if (total > this.linea.length) {
        const mayor = Buffer.allocUnsafe(
          Math.max(total, Math.min(2 * this.linea.length, this.limites.bytesLinea), 256),
        );
        this.linea.copy(mayor, 0, 0, this.bytesTrozos);
        this.linea = mayor;
      }
      resto.copy(this.linea, this.bytesTrozos);
      this.bytesTrozos = total;
    }
    return salida;
  }

  private revisar(bytesLinea: number, bytesMensaje: number): void {
    if (bytesLinea > this.limites.bytesLinea)
      this.exceso(`AMI: línea de más de ${this.limites.bytesLinea} bytes`);
    if (bytesMensaje > this.limites.bytesMensaje)
      this.exceso(`AMI: mensaje de más de ${this.limites.bytesMensaje} bytes`);
  }

  /** Forgets everything held (the peer is not speaking AMI) and throws. */
  private exceso(motivo: string): never {
    this.linea = Buffer.alloc(0);
    this.bytesTrozos = 0;
    this.campos = [];
    this.bytesMensaje = 0;
    throw new ExcesoAmi(motivo);
  }
}
