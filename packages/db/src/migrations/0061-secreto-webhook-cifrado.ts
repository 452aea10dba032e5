import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 47.4: a webhook's signing secret is stored encrypted like a device's credentials
// (db/credenciales.ts: `v1:<clave>:<iv>:<tag>:<cifrado>`, about 110 characters for the 38 of
// `whsec_…`). PostgreSQL's varchar(100) would refuse it; SQLite does not enforce a length.
// The api encrypts the secrets stored in plain text when it starts (cifrarCredencialesHeredadas).

/** Widens webhooks.secreto on PostgreSQL. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`alter table webhooks alter column secreto type varchar(255)`.execute(db);
}
