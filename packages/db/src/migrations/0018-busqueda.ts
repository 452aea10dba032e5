import { sql, type Kysely } from 'kysely';
import { claveNombre, plegar } from '@pregon/contract/rules/busqueda';
import type { Engine } from '../database.ts';

// Searching the way Spanish is written and catalogue names that are one whatever their case,
// accents or spaces (issue 26.4, 26.5). Folding (contract rules/busqueda.ts) is JavaScript, the
// same on both engines and in the web's filters, so its result is stored beside the text and kept
// by the repositories on every write: telefonos.nombre_busqueda (searched as the name was, by a
// position test while the primary key is walked) and a `clave` for states, categories and
// countries, unique as their names were.

/** Rows fixed per statement while backfilling. */
const LOTE = 2000;

/** Fills telefonos.nombre_busqueda: in SQL for names in plain ASCII (where lower() is the
 * folding on both engines), in JavaScript for the rest. */
async function rellenarTelefonos(db: Kysely<unknown>, engine: Engine) {
  await sql`update telefonos set nombre_busqueda = lower(nombre) where nombre is not null`.execute(
    db,
  );
  const noAscii = engine === 'postgres' ? sql`nombre ~ '[^ -~]'` : sql`nombre glob ${'*[^ -~]*'}`;
  let desde = 0;
  for (;;) {
    const filas = (
      await sql<{ id_telefono: number; nombre: string }>`select id_telefono, nombre
        from telefonos where id_telefono > ${desde} and nombre is not null and ${noAscii}
        order by id_telefono limit ${LOTE}`.execute(db)
    ).rows;
    if (filas.length === 0) return;
    // One statement per batch (UPDATE … FROM a VALUES list: both engines name its columns
    // column1, column2).
    const valores = sql.join(
      filas.map((f) => sql`(cast(${f.id_telefono} as integer), ${plegar(f.nombre)})`),
    );
    await sql`update telefonos set nombre_busqueda = v.column2
      from (values ${valores}) as v where telefonos.id_telefono = v.column1`.execute(db);
    desde = filas[filas.length - 1]!.id_telefono;
  }
}

/** Fills `clave` of a catalogue. Names that already share a key (typed twice before this
 * version) keep their rows, the later ones with '#id' after the key, so nothing is merged
 * behind the operator's back and new duplicates are refused. */
async function rellenarClaves(
  db: Kysely<unknown>,
  tabla: string,
  id: string,
  nombre: string,
  ambito?: string,
) {
  const filas = (
    await sql<
      Record<string, string | number>
    >`select ${sql.ref(id)} as id, ${sql.ref(nombre)} as nombre,
      ${ambito ? sql.ref(ambito) : sql.lit(0)} as ambito from ${sql.table(tabla)} order by ${sql.ref(id)}`.execute(
      db,
    )
  ).rows;
  const vistas = new Set<string>();
  for (const f of filas) {
    const base = `${f.ambito}|${claveNombre(String(f.nombre))}`;
    const clave = vistas.has(base)
      ? `${claveNombre(String(f.nombre))}#${f.id}`
      : claveNombre(String(f.nombre));
    vistas.add(base);
    await sql`update ${sql.table(tabla)} set clave = ${clave} where ${sql.ref(id)} = ${f.id}`.execute(
      db,
    );
  }
}

/** Adds and fills the folded columns and their unique indexes. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema.alterTable('telefonos').addColumn('nombre_busqueda', 'varchar(200)').execute();
  await rellenarTelefonos(db, engine);
  for (const [tabla, id, nombre, ambito] of [
    ['paises', 'id_pais', 'pais'],
    ['estados', 'id_estado', 'estado', 'id_pais'],
    ['categorias', 'id_categoria', 'categoria'],
  ] as const) {
    await db.schema
      .alterTable(tabla)
      .addColumn('clave', 'varchar(120)', (c) => c.notNull().defaultTo(''))
      .execute();
    await rellenarClaves(db, tabla, id, nombre, ambito);
    await db.schema
      .createIndex(`${tabla}_clave`)
      .on(tabla)
      .columns(ambito ? [ambito, 'clave'] : ['clave'])
      .unique()
      .execute();
  }
}
