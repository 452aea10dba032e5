import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Replies from Android and WhatsApp (issue 46.1).
//  - webhooks_android: one row per Android device whose 'sms:received' webhook Pregón registers
//    on the phone (services/webhook-android.ts). `clave` is the signing key Pregón set on the
//    phone (its Settings → Webhooks → Signing Key, PATCH /settings), encrypted like the device's
//    credentials (db/credenciales.ts); `url` is the webhook URL the phone was given; `registrado`
//    when the phone last accepted the registration, `error` why the last attempt failed (null when
//    it did not), `intentado` when it was last tried. A device deleted takes its row with it.
//  - ventanas_whatsapp: the 24-hour customer-service window a user's message opens, per device
//    and phone (the number as the directory writes it, else as WhatsApp gave it): `ultima` is the
//    time Meta gave for the user's latest message, `abierta_hasta` 24 h after it (epoch ms).

/** Creates webhooks_android and ventanas_whatsapp. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('webhooks_android')
    .addColumn('id_equipo', 'integer', (c) =>
      c.primaryKey().references('equipos.id_equipo').onDelete('cascade'),
    )
    .addColumn('clave', 'text', (c) => c.notNull())
    .addColumn('url', 'varchar(500)', (c) => c.notNull())
    .addColumn('registrado', big)
    .addColumn('error', 'text')
    .addColumn('intentado', big, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('ventanas_whatsapp')
    .addColumn('id_equipo', 'integer', (c) =>
      c.notNull().references('equipos.id_equipo').onDelete('cascade'),
    )
    .addColumn('telefono', 'varchar(64)', (c) => c.notNull())
    .addColumn('ultima', big, (c) => c.notNull())
    .addColumn('abierta_hasta', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('ventanas_whatsapp_pk', ['id_equipo', 'telefono'])
    .execute();
}
