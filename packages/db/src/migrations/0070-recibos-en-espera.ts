import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 48.6: a delivery receipt that finds no row is kept, not lost. A receipt is answered to the
// gateway (SMPP deliver_sm_resp) only once it is durable: applied to its row, folded into an
// outcome that was written, or stored here. A receipt stored here is matched again and again
// (dispatcher.ts repasarRecibos): by its id once a dispatcher writes the row's gateway id (a
// receipt may reach one dispatcher before another writes the id its submit got), and by its
// recipient when the id died with a dispatcher killed between the submit's answer and its
// write (the row, sent and left in flight, became 'incierto' with no id). Kept up to 72 h.
//  - recibos_en_espera: the device, the gateway id as the receipt quotes it, delivered or not, the
//    reason, the recipient as the gateway names it (SMPP source_addr; null when the receipt
//    does not say), when it came (epoch ms).

/** Creates recibos_en_espera. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? 'bigserial' : 'integer';
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  const pk = (c: any) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('recibos_en_espera')
    .addColumn('id_recibo', id, pk)
    .addColumn('id_equipo', 'integer', (c) => c.notNull())
    .addColumn('id_gateway', 'varchar(80)', (c) => c.notNull())
    .addColumn('entregado', 'integer', (c) => c.notNull())
    .addColumn('motivo', 'varchar(500)')
    .addColumn('telefono', 'varchar(40)')
    .addColumn('recibido', big, (c) => c.notNull())
    .execute();
}
