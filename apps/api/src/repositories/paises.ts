import { sql, type Kysely, type Transaction } from 'kysely';
import { claveNombre } from '@pregon/contract/rules/busqueda';
import type { DB } from '@pregon/db/schema';

// SQL of countries, states and categories. Every write of a name writes its `clave` (the name
// folded: contract rules/busqueda.ts), unique as the name is, so 'Bomberos' and 'bomberos ' are one.

type K = Kysely<DB> | Transaction<DB>;

/** Every country, by name. */
export const listarPaises = (k: K) =>
  k
    .selectFrom('paises')
    .select(['id_pais', 'pais', 'codigo_iso', 'prefijo', 'version'])
    .orderBy('pais')
    .execute();

/** One country or undefined. */
export const leerPais = (k: K, id: number) =>
  k
    .selectFrom('paises')
    .select(['id_pais', 'pais', 'codigo_iso', 'prefijo', 'version'])
    .where('id_pais', '=', id)
    .executeTakeFirst();

/** Inserts a country and returns its id. */
export const insertarPais = async (
  k: K,
  p: { pais: string; codigo_iso: string; prefijo: string },
) =>
  (
    await k
      .insertInto('paises')
      .values({ ...p, clave: claveNombre(p.pais) })
      .returning('id_pais')
      .executeTakeFirstOrThrow()
  ).id_pais;

/** Changes a country; returns how many rows changed. */
export const actualizarPais = async (
  k: K,
  id: number,
  p: { pais: string; codigo_iso: string; prefijo: string },
) =>
  Number(
    (
      await k
        .updateTable('paises')
        .set({ ...p, clave: claveNombre(p.pais) })
        .where('id_pais', '=', id)
        .executeTakeFirst()
    ).numUpdatedRows,
  );

/** Deletes a country. */
export const borrarPais = (k: K, id: number) =>
  k.deleteFrom('paises').where('id_pais', '=', id).execute();

/** States, optionally of one country, by name, with their country's name. */
export const listarEstados = (k: K, idPais?: number) => {
  let q = k
    .selectFrom('estados')
    .innerJoin('paises', 'paises.id_pais', 'estados.id_pais')
    .select([
      'estados.id_estado',
      'estados.estado',
      'estados.id_pais',
      'paises.pais',
      'estados.zona_horaria',
    ])
    .orderBy('estados.estado');
  if (idPais !== undefined) q = q.where('estados.id_pais', '=', idPais);
  return q.execute();
};

/** One state or undefined. */
export const leerEstado = (k: K, id: number) =>
  k
    .selectFrom('estados')
    .select(['id_estado', 'estado', 'id_pais', 'zona_horaria'])
    .where('id_estado', '=', id)
    .executeTakeFirst();

/** Inserts a state and returns its id. */
export const insertarEstado = async (
  k: K,
  e: { estado: string; id_pais: number; zona_horaria?: string | null },
) =>
  (
    await k
      .insertInto('estados')
      .values({ ...e, clave: claveNombre(e.estado) })
      .returning('id_estado')
      .executeTakeFirstOrThrow()
  ).id_estado;

/** Changes a state; returns how many rows changed. */
export const actualizarEstado = async (
  k: K,
  id: number,
  e: { estado: string; id_pais: number; zona_horaria?: string | null },
) =>
  Number(
    (
      await k
        .updateTable('estados')
        .set({ ...e, clave: claveNombre(e.estado) })
        .where('id_estado', '=', id)
        .executeTakeFirst()
    ).numUpdatedRows,
  );

/** Deletes a state. */
export const borrarEstado = (k: K, id: number) =>
  k.deleteFrom('estados').where('id_estado', '=', id).execute();

/** How many states a country has. */
export const contarEstadosDePais = async (k: K, idPais: number) =>
  Number(
    (
      await k
        .selectFrom('estados')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('id_pais', '=', idPais)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** How many phones and exercises use a state. */
export async function usoDeEstado(
  k: K,
  id: number,
): Promise<{ telefonos: number; ejercicios: number }> {
  const [t, e] = await Promise.all([
    k
      .selectFrom('telefonos')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('id_estado', '=', id)
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('ejercicios')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('id_estado', '=', id)
      .executeTakeFirstOrThrow(),
  ]);
  return { telefonos: Number(t.n), ejercicios: Number(e.n) };
}

/** Categories by name with how many phones hold each (one scan of the category index). */
export async function listarCategorias(k: K) {
  const filas = await k
    .selectFrom('categorias')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('telefono_categoria')
          .select(['id_categoria', (x) => x.fn.countAll().as('n')])
          .groupBy('id_categoria')
          .as('c'),
      (j) => j.onRef('c.id_categoria', '=', 'categorias.id_categoria'),
    )
    .select(['categorias.id_categoria', 'categorias.categoria', 'c.n'])
    .orderBy('categorias.categoria')
    .execute();
  return filas.map((f) => ({
    id_categoria: f.id_categoria,
    categoria: f.categoria,
    telefonos: Number(f.n ?? 0),
  }));
}

/** One category or undefined. */
export const leerCategoria = (k: K, id: number) =>
  k
    .selectFrom('categorias')
    .select(['id_categoria', 'categoria'])
    .where('id_categoria', '=', id)
    .executeTakeFirst();

/** Inserts a category and returns its id. */
export const insertarCategoria = async (k: K, categoria: string) =>
  (
    await k
      .insertInto('categorias')
      .values({ categoria, clave: claveNombre(categoria) })
      .returning('id_categoria')
      .executeTakeFirstOrThrow()
  ).id_categoria;

/** Renames a category; returns how many rows changed. */
export const actualizarCategoria = async (k: K, id: number, categoria: string) =>
  Number(
    (
      await k
        .updateTable('categorias')
        .set({ categoria, clave: claveNombre(categoria) })
        .where('id_categoria', '=', id)
        .executeTakeFirst()
    ).numUpdatedRows,
  );

/** Deletes a category. */
export const borrarCategoria = (k: K, id: number) =>
  k.deleteFrom('categorias').where('id_categoria', '=', id).execute();

/** How many phones and exercises use a category (exercises keep categories as '1,2,3' text). */
export async function usoDeCategoria(
  k: K,
  id: number,
): Promise<{ telefonos: number; ejercicios: number }> {
  const t = await k
    .selectFrom('telefono_categoria')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('id_categoria', '=', id)
    .executeTakeFirstOrThrow();
  const patron = `%,${id},%`;
  const e = await k
    .selectFrom('ejercicios')
    .select((eb) => eb.fn.countAll().as('n'))
    .where(sql<string>`',' || replace(categorias, ' ', '') || ','`, 'like', patron)
    .executeTakeFirstOrThrow();
  return { telefonos: Number(t.n), ejercicios: Number(e.n) };
}

/** Existing ids among `ids` in estados. */
export async function estadosExistentes(k: K, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const filas = await k
    .selectFrom('estados')
    .select('id_estado')
    .where('id_estado', 'in', ids)
    .execute();
  return new Set(filas.map((f) => f.id_estado));
}

/** Existing ids among `ids` in categorias. */
export async function categoriasExistentes(k: K, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const filas = await k
    .selectFrom('categorias')
    .select('id_categoria')
    .where('id_categoria', 'in', ids)
    .execute();
  return new Set(filas.map((f) => f.id_categoria));
}

/** The ISO code of a state's country, or undefined when the state does not exist. */
export const codigoPaisDeEstado = async (k: K, idEstado: number) =>
  (
    await k
      .selectFrom('estados')
      .innerJoin('paises', 'paises.id_pais', 'estados.id_pais')
      .select('paises.codigo_iso')
      .where('estados.id_estado', '=', idEstado)
      .executeTakeFirst()
  )?.codigo_iso;

/** Every state (id, name and its country's ISO code) and category (id and name), for the
 * import's name lookups and each row's numbering rules. */
export async function catalogoImportacion(k: K) {
  const [estados, categorias] = await Promise.all([
    k
      .selectFrom('estados')
      .innerJoin('paises', 'paises.id_pais', 'estados.id_pais')
      .select(['estados.id_estado', 'estados.estado', 'paises.codigo_iso'])
      .execute(),
    k.selectFrom('categorias').select(['id_categoria', 'categoria']).execute(),
  ]);
  return { estados, categorias };
}

/** The country whose name folds like `pais`, or undefined (who a duplicate collides with). */
export const paisPorClave = (k: K, pais: string) =>
  k
    .selectFrom('paises')
    .select(['id_pais', 'pais'])
    .where('clave', '=', claveNombre(pais))
    .executeTakeFirst();

/** The state of a country whose name folds like `estado`, or undefined. */
export const estadoPorClave = (k: K, idPais: number, estado: string) =>
  k
    .selectFrom('estados')
    .select(['id_estado', 'estado'])
    .where('id_pais', '=', idPais)
    .where('clave', '=', claveNombre(estado))
    .executeTakeFirst();

/** The category whose name folds like `categoria`, or undefined. */
export const categoriaPorClave = (k: K, categoria: string) =>
  k
    .selectFrom('categorias')
    .select(['id_categoria', 'categoria'])
    .where('clave', '=', claveNombre(categoria))
    .executeTakeFirst();
