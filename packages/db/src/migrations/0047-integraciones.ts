import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 47.4: other systems in and out.
//  - claves_api: service accounts' API keys. The key itself is never stored: id_publico (its
//    public part, 'pregon_<id_publico>_<secret>') finds the row and hash is the SHA-256 of the
//    whole key (256 random bits: no dictionary to try, so a slow hash like argon2 adds ~50 ms per
//    request and no safety). alcances: comma-separated scopes; revocada: epoch ms, then refused;
//    ultimo_uso: epoch ms, written at most once a minute.
//  - webhooks: an administrator's subscription of a URL to events; secreto signs each delivery
//    (HMAC-SHA256 needs it in clear, like a device's credentials it never leaves the server).
//  - webhook_entregas: the durable queue and the delivery log. One row per event and
//    subscription, written in the transaction of the event (the audit row), so a restart loses
//    none; retried with backoff until 24 h after creada; lease_hasta keeps two api processes
//    from sending the same one at once.
// Times are epoch ms; the same SQL on both engines (identity columns aside).

/** Creates claves_api, webhooks and webhook_entregas. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? 'bigserial' : 'integer';
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  const pk = (c: any) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('claves_api')
    .addColumn('id_clave', id, pk)
    .addColumn('nombre', 'varchar(100)', (c) => c.notNull())
    .addColumn('id_publico', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('alcances', 'varchar(200)', (c) => c.notNull())
    .addColumn('creada', big, (c) => c.notNull())
    .addColumn('creada_por', 'varchar(100)')
    .addColumn('ultimo_uso', big)
    .addColumn('revocada', big)
    .execute();
  await db.schema
    .createTable('webhooks')
    .addColumn('id_webhook', id, pk)
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('eventos', 'varchar(500)', (c) => c.notNull())
    .addColumn('secreto', 'varchar(100)', (c) => c.notNull())
    .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('creado', big, (c) => c.notNull())
    .addColumn('creado_por', 'varchar(100)')
    .execute();
  await db.schema
    .createTable('webhook_entregas')
    .addColumn('id_entrega', id, pk)
    .addColumn('id_webhook', 'integer', (c) =>
      c.notNull().references('webhooks.id_webhook').onDelete('cascade'),
    )
    .addColumn('evento', 'varchar(50)', (c) => c.notNull())
    .addColumn('cuerpo', 'text', (c) => c.notNull())
    .addColumn('estado', 'varchar(20)', (c) =>
      c
        .notNull()
        .defaultTo('pendiente')
        .check(sql`estado in ('pendiente', 'entregado', 'fallido')`),
    )
    .addColumn('intentos', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('creada', big, (c) => c.notNull())
    .addColumn('siguiente_intento', big)
    .addColumn('lease_hasta', big)
    .addColumn('ultimo_intento', big)
    .addColumn('estado_http', 'integer')
    .addColumn('respuesta', 'text')
    .addColumn('duracion_ms', 'integer')
    .addColumn('error', 'text')
    .execute();
  await sql`create index webhook_entregas_cola on webhook_entregas (siguiente_intento)
    where estado = 'pendiente'`.execute(db);
  await sql`create index webhook_entregas_webhook on webhook_entregas (id_webhook, id_entrega)`.execute(
    db,
  );
}
