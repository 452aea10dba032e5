import { plegar } from '@pregon/contract/rules/busqueda';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '@pregon/db/schema';

// SQL of the demo phone list that `npm start` seeds with the simulators on.

type K = Kysely<DB> | Transaction<DB>;

/** Rows per INSERT of the demo list (4 parameters each, well under either engine's limit). */
const LOTE = 500;

/** Whether the directory has any phone. */
export async function hayTelefonos(k: K): Promise<boolean> {
  return (
    (await k.selectFrom('telefonos').select('id_telefono').limit(1).executeTakeFirst()) !==
    undefined
  );
}

/** The id of a category by name, or undefined. */
export async function idCategoria(k: K, categoria: string): Promise<number | undefined> {
  return (
    await k
      .selectFrom('categorias')
      .select('id_categoria')
      .where('categoria', '=', categoria)
      .executeTakeFirst()
  )?.id_categoria;
}

/** Inserts phones with their category links, in batches; returns how many were inserted. */
export async function insertarConCategorias(
  k: K,
  filas: readonly { telefono: string; nombre: string; id_estado: number; categorias: number[] }[],
  creado: number,
): Promise<number> {
  for (let i = 0; i < filas.length; i += LOTE) {
    const lote = filas.slice(i, i + LOTE);
    const ids = await k
      .insertInto('telefonos')
      .values(
        lote.map(({ telefono, nombre, id_estado }) => ({
          telefono,
          nombre,
          nombre_busqueda: plegar(nombre),
          id_estado,
          creado,
        })),
      )
      .returning(['id_telefono', 'telefono'])
      .execute();
    const porNumero = new Map(ids.map((r) => [r.telefono, r.id_telefono]));
    await k
      .insertInto('telefono_categoria')
      .values(
        lote.flatMap((f) =>
          f.categorias.map((id_categoria) => ({
            id_telefono: porNumero.get(f.telefono)!,
            id_categoria,
          })),
        ),
      )
      .execute();
  }
  return filas.length;
}
