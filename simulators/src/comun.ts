/** Behaviour knobs every simulator shares; all can change while it runs. */
export interface Comportamiento {
  /** Milliseconds before answering each request. */
  latenciaMs: number;
  /** Share (0..1) of requests answered with a transient gateway error (nothing is sent). */
  tasaFallo: number;
  /** Milliseconds from acceptance to the delivery receipt. */
  retrasoReciboMs: number;
  /** Outage switch: while true the gateway is unreachable or answers 503. */
  caido: boolean;
}

/** The defaults: answer at once, never fail, receipt after 200 ms. */
export const COMPORTAMIENTO_DEFECTO: Comportamiento = {
  latenciaMs: 0,
  tasaFallo: 0,
  retrasoReciboMs: 200,
  caido: false,
};

/** The behaviour fields of a simulator's options (never its credentials). */
export function comportamientoDe(o: Partial<Comportamiento>): Comportamiento {
  const c = { ...COMPORTAMIENTO_DEFECTO };
  for (const k of Object.keys(c) as (keyof Comportamiento)[]) {
    if (o[k] !== undefined) (c as Record<string, unknown>)[k] = o[k];
  }
  return c;
}

/** One message the simulated gateway took for delivery (its record checks exactly-once delivery). */
export interface MensajeRecibido {
  id: string;
  telefono: string;
  texto: string;
  /** Epoch ms of acceptance. */
  t: number;
  /** Which client connection sent it (SMPP: the session's remote port). */
  origen?: string;
  /** SMPP: how many submit_sm carried it (a concatenated text is recorded once, when complete). */
  partes?: number;
}

/** Numbers a simulator accepts: optional '+', 8 to 15 digits. */
export const NUMERO_VALIDO = /^\+?\d{8,15}$/;

/** Resolves after `ms` (immediately for 0). */
export const esperar = (ms: number) =>
  ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve();

/** Counts how many times each phone number was received; the entries above 1 are duplicates. */
export function duplicados(registro: readonly MensajeRecibido[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const m of registro) n.set(m.telefono, (n.get(m.telefono) ?? 0) + 1);
  for (const [k, v] of n) if (v < 2) n.delete(k);
  return n;
}
