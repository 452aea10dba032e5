import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 46.1: what Pregón needs to remove the 'sms:received' webhook it registered on an Android
// gateway (DELETE {gateway}/webhooks/{id}) when the device is deleted or moved to another gateway
// or other credentials: `id_webhook` is the id the gateway answered to POST /webhooks, `gateway`
// the device's url it was registered on, `acceso` the credentials it was registered with
// (encrypted like the device's own, db/credenciales.ts). Null until a registration succeeds (and
// on rows from before this step: the device's current url and credentials, and the id Pregón
// sends, idWebhookAndroid, stand in).

/** Adds webhooks_android.id_webhook, gateway and acceso. */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('webhooks_android').addColumn('id_webhook', 'varchar(200)').execute();
  await db.schema.alterTable('webhooks_android').addColumn('gateway', 'varchar(500)').execute();
  await db.schema.alterTable('webhooks_android').addColumn('acceso', 'text').execute();
}
