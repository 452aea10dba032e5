import type { Kysely, Transaction } from 'kysely';
import type { EventoWebhook } from '@pregon/contract/api/integraciones';
import type { DB } from '@pregon/db/schema';

// Issue 47.4: an event's deliveries are queued in the transaction that records it
// (services/webhooks-salida.ts sends them).

type K = Kysely<DB> | Transaction<DB>;

/** The event an audited action on an exercise is (others are not told). */
const EVENTO_DE_ACCION: Record<string, EventoWebhook> = {
  crear: 'ejercicio.creado',
  iniciar: 'ejercicio.iniciado',
  pausar: 'ejercicio.pausado',
  detener: 'ejercicio.detenido',
  completar: 'ejercicio.completado',
  solicitar_aprobacion: 'aprobacion.solicitada',
  aprobar: 'aprobacion.aprobada',
  rechazar: 'aprobacion.rechazada',
};

/** The webhook event of an audit row, if any (called by auditar in the same transaction). */
export function eventoDeAuditoria(accion: string, entidad: string): EventoWebhook | undefined {
  return entidad === 'ejercicio' ? EVENTO_DE_ACCION[accion] : undefined;
}

/** Queues `evento` for every active subscription to it, in the caller's transaction. */
export async function encolarEvento(
  k: K,
  evento: EventoWebhook,
  datos: Record<string, unknown>,
): Promise<void> {
  await encolarEventos(k, evento, [datos]);
}

/** Queues one `evento` per item of `lista` for every active subscription to it (one query when
 * nobody subscribed: the reply intake calls this per batch). `lista` may be a function that
 * reads the events' data: it runs only when someone subscribed. */
export async function encolarEventos(
  k: K,
  evento: EventoWebhook,
  datos:
    | readonly Record<string, unknown>[]
    | { n: number; leer: () => Promise<readonly Record<string, unknown>[]> },
): Promise<void> {
  if (!('leer' in datos ? datos.n : datos.length)) return;
  const subs = await k
    .selectFrom('webhooks')
    .select(['id_webhook', 'eventos'])
    .where('activo', '=', 1)
    .execute();
  const destino = subs.filter((s) => s.eventos.split(',').includes(evento));
  if (!destino.length) return;
  const lista = 'leer' in datos ? await datos.leer() : datos;
  const ahora = Date.now();
  const fecha = new Date(ahora).toISOString();
  const filas = destino.flatMap((s) =>
    lista.map((datos) => ({
      id_webhook: Number(s.id_webhook),
      evento,
      cuerpo: JSON.stringify({ evento, fecha, datos }),
      creada: ahora,
      siguiente_intento: ahora,
    })),
  );
  for (let i = 0; i < filas.length; i += 200)
    await k
      .insertInto('webhook_entregas')
      .values(filas.slice(i, i + 200))
      .execute();
}
