import type { Contexto } from '../contexto.ts';

/** A running dispatcher; stop() lets in-flight sends finish. */
export interface DespachadorEnMarcha {
  detener(): Promise<void>;
}

/** Starts the in-process dispatcher (ARCHITECTURE section 5). Placeholder until the dispatcher issue lands. */
export async function iniciarDespachador(_ctx: Contexto): Promise<DespachadorEnMarcha> {
  return { detener: async () => {} };
}
