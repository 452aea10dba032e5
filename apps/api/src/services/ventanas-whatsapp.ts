import type { GrupoSeguimiento } from '@pregon/contract/rules/seguimiento';
import type { Contexto } from '../contexto.ts';
import { error } from '@pregon/servidor/http/errores';
import * as repo from '../repositories/ejercicios.ts';
import { seleccionSeguimiento } from './ejercicios.ts';

/** Issue 48.6, before a WhatsApp free-text follow-up: of the recipients it would copy from
 * `origen` (the same selection 'Reenviar a no alcanzados' copies), how many have no 24-hour
 * window open now on the device. 400 naming `origen` when it does not exist. */
export async function ventanasDeSeguimiento(
  ctx: Pick<Contexto, 'db'>,
  q: { origen: number; resultados: readonly GrupoSeguimiento[]; id_equipo: number },
  ahora = Date.now(),
): Promise<{ destinatarios: number; fuera_de_ventana: number }> {
  const k = ctx.db.kysely;
  const e = await repo.obtenerEjercicio(k, ctx.db.engine, q.origen);
  if (!e)
    throw error(
      400,
      'referenciaInexistente',
      { campo: 'origen', valor: String(q.origen) },
      'origen',
    );
  const { seleccion, otras } = await seleccionSeguimiento(k, e, q.resultados);
  const r = await repo.fueraDeVentana(k, e.id_ejercicio, seleccion, otras, q.id_equipo, ahora);
  return { destinatarios: r.destinatarios, fuera_de_ventana: r.fuera };
}
