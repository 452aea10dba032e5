import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// Issue 47.4: CAP feeds.
//  - fuentes_cap: a subscribed Atom/RSS feed, its matching rule (event words, the least
//    severity, state ids; empty: any), the device its drafts use (null: as POST /cap/ chooses),
//    when it is next due (proxima_consulta) and who reads it now (lease_hasta: one api process at
//    a time, also across processes on PostgreSQL), and how its last read ended.
//  - fuentes_cap_registro: what the feed did with each alert it brought, once per alert identity
//    (sender, identifier): a refused or unmatched alert is not reconsidered at every read, and a
//    linked alert (enlace) is not fetched again.
// Times are epoch ms.

/** Creates fuentes_cap and fuentes_cap_registro. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? 'bigserial' : 'integer';
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  const pk = (c: any) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('fuentes_cap')
    .addColumn('id_fuente', id, pk)
    .addColumn('nombre', 'varchar(100)', (c) => c.notNull())
    .addColumn('url', 'varchar(2000)', (c) => c.notNull())
    .addColumn('intervalo_min', 'integer', (c) => c.notNull())
    .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('eventos', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
    .addColumn('severidad_minima', 'varchar(10)')
    .addColumn('estados', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
    .addColumn('id_equipo', 'integer', (c) =>
      c.references('equipos.id_equipo').onDelete('set null'),
    )
    .addColumn('creado', big, (c) => c.notNull())
    .addColumn('creado_por', 'varchar(100)')
    .addColumn('proxima_consulta', big, (c) => c.notNull())
    .addColumn('lease_hasta', big)
    .addColumn('ultima_consulta', big)
    .addColumn('ultimo_error', 'varchar(1000)')
    .execute();
  await db.schema
    .createTable('fuentes_cap_registro')
    .addColumn('id_registro', id, pk)
    .addColumn('id_fuente', 'integer', (c) =>
      c.notNull().references('fuentes_cap.id_fuente').onDelete('cascade'),
    )
    .addColumn('remitente', 'varchar(255)', (c) => c.notNull())
    .addColumn('identificador', 'varchar(255)', (c) => c.notNull())
    .addColumn('enviado', 'varchar(40)', (c) => c.notNull())
    .addColumn('tipo_mensaje', 'varchar(10)', (c) => c.notNull())
    .addColumn('evento', 'varchar(500)')
    .addColumn('enlace', 'varchar(2000)')
    .addColumn('resultado', 'varchar(20)', (c) => c.notNull())
    .addColumn('mensaje', 'varchar(1000)', (c) => c.notNull())
    .addColumn('id_ejercicio', 'integer', (c) =>
      c.references('ejercicios.id_ejercicio').onDelete('set null'),
    )
    .addColumn('visto', big, (c) => c.notNull())
    .addUniqueConstraint('fuentes_cap_registro_identidad', [
      'id_fuente',
      'remitente',
      'identificador',
    ])
    .execute();
}
