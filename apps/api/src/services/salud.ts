import type { z } from 'zod';
import type { health, ParteSaludSchema } from '@pregon/contract/api/auth';
import { msg } from '@pregon/contract/messages';
import type { Contexto } from '../contexto.ts';
import { ping } from '@pregon/db/database';

// GET /health: the database, the dispatcher of this process, the telephony agent and the
// simulators, each with its state, so a monitor sees a dead part. Only a database that does not
// answer makes the api unhealthy (503): without the others it still serves.

type Parte = z.infer<typeof ParteSaludSchema>;
/** The body of GET /health. */
export type Salud = z.input<(typeof health)['respuesta']>;

/** How long a part may take to answer its health check before it counts as down. */
const ESPERA_MS = 1500;

/** Asks `url` with a short timeout: activo when it answers 2xx, caido otherwise. */
async function sondear(url: string): Promise<Parte> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(ESPERA_MS) });
    await r.body?.cancel();
    if (r.ok) return { estado: 'activo' };
  } catch {
    // Refused, reset or timed out: the same for a monitor.
  }
  return { estado: 'caido', detalle: msg('saludParteNoResponde', { url }) };
}

/** The state of the database, answered within ESPERA_MS. */
async function base(ctx: Contexto): Promise<Parte> {
  let temporizador: NodeJS.Timeout | undefined;
  const plazo = new Promise<never>((_, rechazar) => {
    temporizador = setTimeout(
      () => rechazar(new Error(`sin respuesta en ${ESPERA_MS} ms`)),
      ESPERA_MS,
    );
  });
  try {
    await Promise.race([ping(ctx.db), plazo]);
    return { estado: 'activo' };
  } catch (err) {
    const detalle = err instanceof Error ? err.message : String(err);
    return {
      estado: 'caido',
      detalle: msg('saludBaseNoResponde', { detalle: detalle.slice(0, 200) }),
    };
  } finally {
    clearTimeout(temporizador);
  }
}

/** The dispatcher: this process's, or standalone ones when DESPACHO_EN_API=0. */
function despachador(ctx: Contexto): Parte {
  if (process.env.DESPACHO_EN_API === '0')
    return { estado: 'externo', detalle: msg('saludDespachadorExterno') };
  if (!ctx.despachador) return { estado: 'sin_configurar' };
  return ctx.despachador.enMarcha()
    ? { estado: 'activo' }
    : { estado: 'caido', detalle: msg('saludDespachadorDetenido') };
}

/** Checks every part at once; status 503 when the database does not answer. */
export async function salud(ctx: Contexto): Promise<Salud> {
  const { pbxBase, simControl } = ctx.config;
  const [base_de_datos, agente_telefonia, simuladores] = await Promise.all([
    base(ctx),
    pbxBase ? sondear(`${pbxBase}/health`) : ({ estado: 'sin_configurar' } as const),
    simControl ? sondear(`${simControl}/health`) : ({ estado: 'sin_configurar' } as const),
  ]);
  return {
    status: base_de_datos.estado === 'activo' ? 200 : 503,
    db: ctx.db.engine,
    partes: { base_de_datos, despachador: despachador(ctx), agente_telefonia, simuladores },
  };
}
