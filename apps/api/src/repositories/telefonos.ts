import {
  PostgresAdapter,
  sql,
  type Expression,
  type Kysely,
  type SqlBool,
  type Transaction,
} from 'kysely';
import { plegar, terminosPlegados } from '@pregon/contract/rules/busqueda';

import { jsonArrayFrom as jsonArrayFromPg } from 'kysely/helpers/postgres';
import { jsonArrayFrom as jsonArrayFromSqlite } from 'kysely/helpers/sqlite';
import type { Db } from '@pregon/db/database';
import { leerFila } from '../db/lectura.ts';
import { ejecutarPlantilla } from '@pregon/db/plantilla';
import type { DB } from '@pregon/db/schema';

// SQL of the phone directory (one row at a time and searches). The bulk import path lives in
// telefonos-masivo.ts.

type K = Kysely<DB> | Transaction<DB>;

const esPostgres = (k: K) => k.getExecutor().adapter instanceof PostgresAdapter;

/** Whether `col` (a folded column: lower case, no accents) contains `palabra`. Written as a
 * position test, not LIKE '%…%':
 * PostgreSQL estimates such a LIKE as matching almost nothing, so for `ORDER BY id LIMIT n` it
 * reads and sorts every row (seconds with a million phones) instead of walking the primary key
 * until n rows match (milliseconds); a function's result gets the default estimate, and the walk
 * wins. It also needs no escaping of % and _. */
const contiene = (k: K, col: Expression<unknown>, palabra: string): Expression<SqlBool> =>
  esPostgres(k)
    ? sql<SqlBool>`strpos(${col}, ${palabra}) > 0`
    : sql<SqlBool>`instr(${col}, ${palabra}) > 0`;

/** Splits a search into folded words (every word must match some field): the number, the name's
 * folded form (nombre_busqueda) and the state's (clave) are compared, so case and accents are
 * ignored both ways (contract rules/busqueda.ts). */
export const palabras = (q: string | undefined) => terminosPlegados(q).slice(0, 10);

/** One phone or undefined. */
export const leerTelefono = (k: K, id: number) =>
  k
    .selectFrom('telefonos')
    .select(['id_telefono', 'telefono', 'nombre', 'id_estado'])
    .where('id_telefono', '=', id)
    .executeTakeFirst();

/** Inserts a phone and returns its id (a duplicate number throws a unique violation). */
export const insertarTelefono = async (
  k: K,
  t: { telefono: string; nombre: string | null; id_estado: number; creado: number },
) =>
  (
    await k
      .insertInto('telefonos')
      .values({ ...t, nombre_busqueda: t.nombre === null ? null : plegar(t.nombre) })
      .returning('id_telefono')
      .executeTakeFirstOrThrow()
  ).id_telefono;

/** Changes a phone (a new name rewrites its folded form too). */
export const actualizarTelefono = (
  k: K,
  id: number,
  t: { telefono?: string; nombre?: string | null; id_estado?: number },
) =>
  k
    .updateTable('telefonos')
    .set(
      t.nombre === undefined
        ? t
        : { ...t, nombre_busqueda: t.nombre === null ? null : plegar(t.nombre) },
    )
    .where('id_telefono', '=', id)
    .execute();

/** Deletes a phone (its category links go with it). */
export const borrarTelefono = (k: K, id: number) =>
  k.deleteFrom('telefonos').where('id_telefono', '=', id).execute();

/** Links a phone to categories; links that exist are left alone. */
export async function vincular(k: K, id_telefono: number, categorias: number[]) {
  if (categorias.length === 0) return;
  await k
    .insertInto('telefono_categoria')
    .values(categorias.map((id_categoria) => ({ id_telefono, id_categoria })))
    .onConflict((oc) => oc.columns(['id_telefono', 'id_categoria']).doNothing())
    .execute();
}

/** Removes every category link of a phone. */
export const desvincularTodas = (k: K, id_telefono: number) =>
  k.deleteFrom('telefono_categoria').where('id_telefono', '=', id_telefono).execute();

/** Filters of the directory searches. */
export interface FiltroTelefonos {
  estado?: number;
  /** Issue 48.1: the phones whose state is one of this country's ('Todo México'). */
  pais?: number;
  /** Any of these states (issue 24.5: a drill's preview over several states). */
  estados?: number[];
  /** Any of these categories (an empty list matches nothing). */
  categorias?: number[];
  q?: string;
}

/** The phones (with their state) that pass the filter; `ps` are the search's words. */
function base(k: K, f: Omit<FiltroTelefonos, 'q'>, ps: readonly string[]) {
  let q = k.selectFrom('telefonos as t').leftJoin('estados as e', 'e.id_estado', 't.id_estado');
  if (f.estado !== undefined) q = q.where('t.id_estado', '=', f.estado);
  if (f.pais !== undefined) q = q.where('e.id_pais', '=', f.pais);
  if (f.estados?.length) q = q.where('t.id_estado', 'in', f.estados);
  if (f.categorias !== undefined) {
    const cats = f.categorias;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('telefono_categoria as tc')
          .select(sql`1`.as('uno'))
          .whereRef('tc.id_telefono', '=', 't.id_telefono')
          .where('tc.id_categoria', 'in', cats.length > 0 ? cats : [0]),
      ),
    );
  }
  for (const palabra of ps) {
    q = q.where((eb) =>
      eb.or([
        contiene(k, eb.ref('t.telefono'), palabra),
        contiene(k, eb.ref('t.nombre_busqueda'), palabra),
        contiene(k, eb.ref('e.clave'), palabra),
      ]),
    );
  }
  return q;
}

/** The statement counting the phones that match. */
const consultaContar = (k: K, f: FiltroTelefonos) =>
  base(k, f, palabras(f.q)).select((eb) => eb.fn.countAll().as('n'));

/** How many phones match. */
export async function contar(k: K, f: FiltroTelefonos): Promise<number> {
  return Number((await consultaContar(k, f).executeTakeFirstOrThrow()).n);
}

/** How many phones match per country of their state (issue 48.1: a selection not saved yet);
 * phones without a state are left out, as the exercise's own count per country does. */
export async function contarPorPais(k: K, f: FiltroTelefonos) {
  const filas = await base(k, f, palabras(f.q))
    .innerJoin('paises as p', 'p.id_pais', 'e.id_pais')
    .select((eb) => ['p.id_pais', 'p.pais', eb.fn.countAll<number | string>().as('n')])
    .groupBy(['p.id_pais', 'p.pais'])
    .execute();
  return filas.map((r) => ({ id_pais: r.id_pais, pais: r.pais, n: Number(r.n) }));
}

/** How many phones match, read off the api's thread on SQLite (db/lectura.ts): the exact count
 * scans every match, and a search every phone. */
export async function contarAparte(db: Db, f: FiltroTelefonos): Promise<number> {
  const fila = await leerFila(db, consultaContar(db.kysely, f).compile());
  return Number(fila?.n ?? 0);
}

/** How many phones match, counting no further than `tope` (reads at most `tope` rows). */
export async function contarHasta(k: K, f: FiltroTelefonos, tope: number): Promise<number> {
  const r = await k
    .selectFrom(
      base(k, f, palabras(f.q))
        .select(sql`1`.as('uno'))
        .limit(tope)
        .as('m'),
    )
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** One page of matching phones, by id, with their state's name. */
export function buscar(k: K, f: FiltroTelefonos, limit: number, offset: number) {
  return base(k, f, palabras(f.q))
    .select(['t.id_telefono', 't.telefono', 't.nombre', 't.id_estado', 'e.estado', 't.version'])
    .orderBy('t.id_telefono')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The next `limit` matching phones after id `despuesDe`, by id (keyset: each batch reads only
 * its rows, however deep into the directory). */
export function siguientes(k: K, f: FiltroTelefonos, despuesDe: number, limit: number) {
  return base(k, f, palabras(f.q))
    .select(['t.id_telefono', 't.telefono', 't.nombre', 'e.estado'])
    .where('t.id_telefono', '>', despuesDe)
    .orderBy('t.id_telefono')
    .limit(limit)
    .execute();
}

/** Where a keyset page starts and which way it reads: after or before a phone id (or from an end
 * of the list when no id), ascending or descending by id. */
export interface Tramo {
  despues?: number;
  antes?: number;
  orden: 'asc' | 'desc';
}

/** What a keyset page may also answer in the same statement: the bounded count of the filter's
 * matches, and whether some match lies on the other side of the cursor. */
export interface ExtrasPagina {
  /** Count the matches up to this many (reads at most that many rows). */
  contarHasta?: number;
  /** Whether some match has an id `lado` `id`. */
  vecino?: { lado: '<=' | '>='; id: number };
}

/** One keyset page: the first `limit` matching phones of the stretch, by id in the stretch's order,
 * with their state's name and their categories (by name). Reads only those rows (and the ones the filter skips), however deep.
 * The extras ride along as uncorrelated subqueries (each evaluated once, on both engines), so a
 * page is one statement; an empty page has no row to carry them and asks them on their own. */
export async function pagina(
  k: K,
  f: FiltroTelefonos,
  tramo: Tramo,
  limit: number,
  extras: ExtrasPagina = {},
) {
  const { contarHasta: tope, vecino } = extras;
  const json = esPostgres(k) ? jsonArrayFromPg : jsonArrayFromSqlite;
  // Built and compiled once per shape (see db/plantilla.ts): a page is the directory's hottest
  // query, and building it cost as much as running it.
  const leidas = await ejecutarPlantilla(
    k,
    `telefonos.pagina:${tramo.orden}:${vecino?.lado ?? ''}`,
    {
      estado: f.estado,
      pais: f.pais,
      categorias: f.categorias,
      palabras: palabras(f.q),
      despues: tramo.despues,
      antes: tramo.antes,
      limit,
      tope,
      vecino: vecino?.id,
    },
    (v) => {
      const filtro = { estado: v.estado, pais: v.pais, categorias: v.categorias };
      let q = base(k, filtro, v.palabras)
        .select(['t.id_telefono', 't.telefono', 't.nombre', 't.id_estado', 'e.estado', 't.version'])
        .select((eb) =>
          json(
            eb
              .selectFrom('telefono_categoria as tc')
              .innerJoin('categorias as c', 'c.id_categoria', 'tc.id_categoria')
              .select(['c.id_categoria', 'c.categoria'])
              .whereRef('tc.id_telefono', '=', 't.id_telefono')
              .orderBy('c.categoria'),
          ).as('categorias'),
        )
        .$if(v.tope !== undefined, (qb) =>
          qb.select((eb) =>
            eb
              .selectFrom(
                base(k, filtro, v.palabras)
                  .select(sql`1`.as('uno'))
                  .limit(v.tope!)
                  .as('m'),
              )
              .select(eb.fn.countAll().as('n'))
              .as('contadas'),
          ),
        )
        .$if(v.vecino !== undefined, (qb) =>
          qb.select((eb) =>
            eb
              .exists(
                base(k, filtro, v.palabras)
                  .select('t.id_telefono')
                  .where('t.id_telefono', vecino!.lado, v.vecino!),
              )
              .as('hay_vecino'),
          ),
        );
      if (v.despues !== undefined) q = q.where('t.id_telefono', '>', v.despues);
      if (v.antes !== undefined) q = q.where('t.id_telefono', '<', v.antes);
      return q.orderBy('t.id_telefono', tramo.orden).limit(v.limit);
    },
  );
  const primera = leidas[0];
  const [contadas, hayVecino] = primera
    ? [
        tope !== undefined ? Number(primera.contadas) : undefined,
        vecino !== undefined ? Boolean(primera.hay_vecino) : undefined,
      ]
    : await Promise.all([
        tope !== undefined ? contarHasta(k, f, tope) : undefined,
        vecino !== undefined ? hayAlguno(k, f, vecino.lado, vecino.id) : undefined,
      ]);
  const filas = leidas.map((r) => ({
    id_telefono: r.id_telefono,
    telefono: r.telefono,
    nombre: r.nombre,
    id_estado: r.id_estado,
    estado: r.estado,
    version: Number(r.version),
    // PostgreSQL hands the JSON parsed; SQLite as text.
    categorias: (typeof r.categorias === 'string' ? JSON.parse(r.categorias) : r.categorias) as {
      id_categoria: number;
      categoria: string;
    }[],
  }));
  return { filas, contadas, hayVecino };
}

/** Whether some matching phone has an id `lado` `id` ('<=' or '>='): are there pages beyond? */
export async function hayAlguno(k: K, f: FiltroTelefonos, lado: '<=' | '>=', id: number) {
  const r = await base(k, f, palabras(f.q))
    .select('t.id_telefono')
    .where('t.id_telefono', lado, id)
    .orderBy('t.id_telefono', lado === '<=' ? 'desc' : 'asc')
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

/** The categories of each of the given phones. */
export async function categoriasDe(k: K, ids: number[]) {
  if (ids.length === 0) return new Map<number, { id_categoria: number; categoria: string }[]>();
  const filas = await k
    .selectFrom('telefono_categoria as tc')
    .innerJoin('categorias as c', 'c.id_categoria', 'tc.id_categoria')
    .select(['tc.id_telefono', 'c.id_categoria', 'c.categoria'])
    .where('tc.id_telefono', 'in', ids)
    .orderBy('c.categoria')
    .execute();
  const por = new Map<number, { id_categoria: number; categoria: string }[]>();
  for (const f of filas) {
    const lista = por.get(f.id_telefono) ?? [];
    lista.push({ id_categoria: f.id_categoria, categoria: f.categoria });
    por.set(f.id_telefono, lista);
  }
  return por;
}
