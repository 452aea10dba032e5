import { esperar } from './comun.ts';
import type { MoSimulado, SimuladorSmpp } from './smpp.ts';

// The simulated phones of a drill with a poll (issue 46.1 and 46.5): who answers, what, and when.
// A plan is made once from the numbers a drill reached and a mix of kinds of reply with
// configurable shares ('1', '2', words, typos, emoji, 'BAJA', texts nobody can read, silence),
// seeded so a bench, a test or the demo get the same plan each run; a share of those who answered
// answer again later with the other option (a situation that changes). `responder` then hands the
// plan to the SMPP simulator as mobile-originated deliver_sm, at the plan's times or as fast as a
// window of outstanding replies allows, each person's replies in order. The texts are what people
// write to 'Responda 1 si está a salvo, 2 si necesita ayuda'; which option each one means is the
// contract's rule to say (rules/respuestas.ts clasificarRespuesta), not this file's.

/** The kinds of reply a simulated phone sends. */
export type TipoRespuesta =
  'uno' | 'dos' | 'palabras' | 'erratas' | 'emoji' | 'baja' | 'ilegible' | 'silencio';

/** The share of the phones that reply each kind (normalised: they need not add up to 1). */
export type Mezcla = Record<TipoRespuesta, number>;

/** 60 % answer (issue 46.5): mostly digits, some words, typos and emoji, a few opt-outs and texts
 * no rule can read; 40 % stay silent. */
export const MEZCLA_DEFECTO: Mezcla = {
  uno: 0.3,
  dos: 0.1,
  palabras: 0.1,
  erratas: 0.04,
  emoji: 0.03,
  baja: 0.01,
  ilegible: 0.02,
  silencio: 0.4,
};

/** Texts of each kind, as handsets send them (GSM-7 and, with emoji or other characters,
 * UCS-2). */
export const TEXTOS: Record<Exclude<TipoRespuesta, 'silencio'>, readonly string[]> = {
  uno: ['1', '1 ', ' 1', '1.', 'uno', 'Uno', '1!'],
  dos: ['2', '2 ', '2.', 'dos', 'Dos', '2!!'],
  palabras: [
    'Estoy a salvo',
    'estoy a salvo',
    'ESTOY A SALVO',
    'Necesito ayuda',
    'necesito ayuda',
    'Necesito ayuda!!',
    'a salvo',
  ],
  erratas: ['estoy a slavo', 'Estoy a salbo', 'nesesito ayuda', 'necesito ayduda'],
  emoji: ['1️⃣', '2️⃣', '1 👍', '2 🙏'],
  baja: ['BAJA', 'Baja', 'baja', 'STOP'],
  ilegible: ['quien es?', '¿Qué es esto?', 'hola', 'jajaja', '3', '1 y 2'],
};

/** The second reply of one who changes their answer (after their first). */
export const SEGUNDAS = ['2', 'ahora necesito ayuda', 'Ya estoy bien, 1'];

/** One reply of the plan. */
export interface RespuestaSimulada {
  /** The sender as the SMSC gives it (international digits). */
  de: string;
  texto: string;
  tipo: Exclude<TipoRespuesta, 'silencio'> | 'segunda';
  /** When it is sent, in ms from the plan's start. */
  enMs: number;
  /** The index in the plan of this person's earlier reply, which goes first. */
  tras?: number;
}

/** A small seeded generator (mulberry32): the same plan for the same seed. */
export function azar(semilla: number): () => number {
  let a = semilla >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Who answers what and when: each number draws a kind by the mix's shares (silence sends
 * nothing), a text of that kind and a time within `duracionMs` (uniform); a share `cambian` of
 * those who answered an option send a second reply later (SEGUNDAS). Sorted by time.
 */
export function planRespuestas(
  numeros: readonly string[],
  o: { mezcla?: Partial<Mezcla>; duracionMs: number; semilla?: number; cambian?: number },
): RespuestaSimulada[] {
  const mezcla = { ...MEZCLA_DEFECTO, ...o.mezcla };
  const tipos = Object.keys(mezcla) as TipoRespuesta[];
  const total = tipos.reduce((a, t) => a + Math.max(0, mezcla[t]), 0);
  const r = azar(o.semilla ?? 46);
  const cambian = o.cambian ?? 0.02;
  const elegir = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const primeras: RespuestaSimulada[] = [];
  const segundas: { de: string; enMs: number; primera: RespuestaSimulada }[] = [];
  for (const de of numeros) {
    let x = r() * total;
    let tipo: TipoRespuesta = 'silencio';
    for (const t of tipos) {
      x -= Math.max(0, mezcla[t]);
      if (x < 0) {
        tipo = t;
        break;
      }
    }
    if (tipo === 'silencio') continue;
    const p: RespuestaSimulada = {
      de,
      texto: elegir(TEXTOS[tipo]),
      tipo,
      enMs: r() * o.duracionMs,
    };
    primeras.push(p);
    if (tipo !== 'baja' && tipo !== 'ilegible' && r() < cambian)
      segundas.push({ de, enMs: p.enMs + r() * (o.duracionMs - p.enMs), primera: p });
  }
  const plan = [...primeras].sort((a, b) => a.enMs - b.enMs);
  const indice = new Map(plan.map((p, i) => [p, i]));
  for (const s of segundas)
    plan.push({
      de: s.de,
      texto: elegir(SEGUNDAS.filter((t) => t !== s.primera.texto)),
      tipo: 'segunda',
      enMs: s.enMs,
      tras: indice.get(s.primera)!,
    });
  // Sorted by time again; `tras` is re-pointed to the first reply's new place.
  const orden = plan.map((p, i) => ({ p, i })).sort((a, b) => a.p.enMs - b.p.enMs);
  const nuevo = new Map(orden.map(({ i }, j) => [i, j]));
  return orden.map(({ p }) => (p.tras === undefined ? p : { ...p, tras: nuevo.get(p.tras)! }));
}

/** How many replies of each kind a plan holds, and how many phones stay silent. */
export function resumenPlan(plan: readonly RespuestaSimulada[], numeros: number) {
  const porTipo: Record<string, number> = {};
  for (const p of plan) porTipo[p.tipo] = (porTipo[p.tipo] ?? 0) + 1;
  const responden = new Set(plan.map((p) => p.de)).size;
  return { respuestas: plan.length, responden, silencio: numeros - responden, porTipo };
}

/**
 * Sends a plan through the SMPP simulator as MO deliver_sm (SimuladorSmpp.enviarMo: held while
 * no session is bound, resent while unanswered), at most `ventana` outstanding at once (an SMSC's
 * window), each at its time (`ritmo` 'plan') or as soon as the window allows ('maximo'); a second
 * reply waits until its person's first was taken. Resolves when every reply was taken, with when
 * the last one was (ms since the start) and each reply's taking time.
 */
export async function responder(
  sim: Pick<SimuladorSmpp, 'enviarMo'>,
  plan: readonly RespuestaSimulada[],
  o: { ventana?: number; ritmo?: 'plan' | 'maximo'; cuenta?: string; inicio?: number } = {},
): Promise<{ ultimaMs: number; tomadas: number[] }> {
  const ventana = Math.max(1, o.ventana ?? 50);
  const inicio = o.inicio ?? performance.now();
  const tomadas = new Array<number>(plan.length).fill(NaN);
  const hechas = plan.map(() => {
    let listo!: () => void;
    const p = new Promise<void>((r) => (listo = r));
    return { p, listo };
  });
  let siguiente = 0;
  const trabajador = async () => {
    while (siguiente < plan.length) {
      const i = siguiente++;
      const x = plan[i]!;
      if (o.ritmo !== 'maximo') {
        const falta = inicio + x.enMs - performance.now();
        if (falta > 0) await esperar(falta);
      }
      if (x.tras !== undefined) await hechas[x.tras]!.p;
      const mo: MoSimulado = {
        de: x.de,
        texto: x.texto,
        ...(o.cuenta ? { cuenta: o.cuenta } : {}),
      };
      await sim.enviarMo(mo);
      tomadas[i] = performance.now() - inicio;
      hechas[i]!.listo();
    }
  };
  await Promise.all(Array.from({ length: Math.min(ventana, plan.length) }, trabajador));
  const ultimaMs = tomadas.reduce((a, t) => (Number.isNaN(t) ? a : Math.max(a, t)), 0);
  return { ultimaMs, tomadas };
}
