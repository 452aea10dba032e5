import type { Kysely } from 'kysely';

// Issue 47.2/47.3: what a prepared message is for. 'alerta' (every template so far), 'correccion'
// or 'cancelacion': an approved version of the last two sends 'Enviar corrección' / 'Cancelar
// alerta' with no new approval (POST /ejercicio/{id}/correccion/).

/** Adds plantillas_mensaje.uso (default 'alerta'). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('plantillas_mensaje')
    .addColumn('uso', 'varchar(20)', (c) => c.notNull().defaultTo('alerta'))
    .execute();
}
