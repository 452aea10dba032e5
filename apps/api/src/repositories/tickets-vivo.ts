import type { Kysely } from 'kysely';
import type { DB } from '@pregon/db/schema';

// SQL of single-use live-stream tickets (issue 49.4, migration 0035).

/** Marks a ticket used; true the first time (on any api process), false when it was used
 * before. */
export async function usarTicket(k: Kysely<DB>, jti: string, expira: number): Promise<boolean> {
  const r = await k
    .insertInto('tickets_vivo_usados')
    .values({ jti, expira })
    .onConflict((oc) => oc.column('jti').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Forgets the tickets expired before `antes` (epoch ms): a refused signature already stops them. */
export async function purgarTickets(k: Kysely<DB>, antes: number): Promise<void> {
  await k.deleteFrom('tickets_vivo_usados').where('expira', '<', antes).execute();
}
