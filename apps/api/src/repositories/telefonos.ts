import { sql, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';

// SQL of the phone directory (one row at a time and searches). The bulk import path lives in
// telefonos-masivo.ts.

type K = Kysely<DB> | Transaction<DB>;

/** Escapes LIKE wildcards of a search word and wraps it in %…%. */
const patron = (palabra: string) => `%${palabra.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Splits a search into lower-case words (every word must match some field). */
export const palabras = (q: string | undefined) =>
  (q ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 10);

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
  (await k.insertInto('telefonos').values(t).returning('id_telefono').executeTakeFirstOrThrow())
    .id_telefono;

/** Changes a phone. */
export const actualizarTelefono = (
  k: K,
  id: number,
  t: { telefono?: string; nombre?: string | null; id_estado?: number },
) => k.updateTable('telefonos').set(t).where('id_telefono', '=', id).execute();

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
  /** Any of these categories (an empty list matches nothing). */
  categorias?: number[];
  q?: string;
}

function base(k: K, f: FiltroTelefonos) {
  let q = k.selectFrom('telefonos as t').leftJoin('estados as e', 'e.id_estado', 't.id_estado');
  if (f.estado !== undefined) q = q.where('t.id_estado', '=', f.estado);
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
  for (const palabra of palabras(f.q)) {
    const p = patron(palabra);
    const como = (col: Expression<unknown>): Expression<SqlBool> =>
      sql<SqlBool>`lower(${col}) like ${p} escape '\\'`;
    q = q.where((eb) =>
      eb.or([como(eb.ref('t.telefono')), como(eb.ref('t.nombre')), como(eb.ref('e.estado'))]),
    );
  }
  return q;
}

/** How many phones match. */
export async function contar(k: K, f: FiltroTelefonos): Promise<number> {
  const r = await base(k, f)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** How many phones match, counting no further than `tope` (reads at most `tope` rows). */
export async function contarHasta(k: K, f: FiltroTelefonos, tope: number): Promise<number> {
  const r = await k
    .selectFrom(
      base(k, f)
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
  return base(k, f)
    .select(['t.id_telefono', 't.telefono', 't.nombre', 't.id_estado', 'e.estado'])
    .orderBy('t.id_telefono')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The next `limit` matching phones after id `despuesDe`, by id (keyset: each batch reads only
 * its rows, however deep into the directory). */
export function siguientes(k: K, f: FiltroTelefonos, despuesDe: number, limit: number) {
  return base(k, f)
    .select(['t.id_telefono', 't.telefono', 't.nombre', 'e.estado'])
    .where('t.id_telefono', '>', despuesDe)
    .orderBy('t.id_telefono')
    .limit(limit)
    .execute();
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
