import { msg } from '@pregon/contract/messages';
import { claveNombre } from '@pregon/contract/rules/busqueda';
import { ahora, type Db } from '@pregon/db/database';
import { CATEGORIAS_EJEMPLO } from '../db/seed.ts';
import * as repo from '../repositories/telefonos-demo.ts';

// The demo phone list of `npm start` (issue 13 item 5): with the simulators on, a fresh install
// gets a few thousand fictitious numbers so a newcomer's first drill reaches someone at once.

/** Phones of the demo list. */
export const TELEFONOS_DEMO = 3000;
/** States the demo list is spread over (by name; missing ones are skipped). */
export const ESTADOS_DEMO = ['Ciudad de México', 'Jalisco', 'Nuevo León', 'Puebla', 'Yucatán'];
/** First demo number: 555 is the prefix fiction uses, and 555-0xxx-xxx is not handed out. */
const PRIMER_NUMERO = 5_550_000_000;

/**
 * Seeds the demo list once: only with the simulators on (SIM_DEMO=1, never SIMULADORES=0), only
 * into an empty directory and only while the 'Demostración' category does not exist (so deleting
 * the demo phones and keeping that category never brings them back). Every phone is in
 * 'Demostración' and in one of the sample categories. Returns how many phones it inserted.
 */
export async function sembrarTelefonosDemo(
  db: Db,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  if (env.SIM_DEMO !== '1' || env.SIMULADORES === '0') return 0;
  const categoria = msg('categoriaDemo');
  return db.kysely.transaction().execute(async (trx) => {
    if ((await repo.idCategoria(trx, categoria)) !== undefined) return 0;
    if (await repo.hayTelefonos(trx)) return 0;
    const estados = await trx
      .selectFrom('estados')
      .select(['id_estado', 'estado'])
      .where('estado', 'in', ESTADOS_DEMO)
      .orderBy('id_estado')
      .execute();
    const muestras = await trx
      .selectFrom('categorias')
      .select('id_categoria')
      .where('categoria', 'in', [...CATEGORIAS_EJEMPLO])
      .orderBy('id_categoria')
      .execute();
    if (estados.length === 0) return 0;
    const demo = (
      await trx
        .insertInto('categorias')
        .values({ categoria, clave: claveNombre(categoria) })
        .returning('id_categoria')
        .executeTakeFirstOrThrow()
    ).id_categoria;
    const filas = Array.from({ length: TELEFONOS_DEMO }, (_, i) => ({
      telefono: String(PRIMER_NUMERO + i),
      nombre: msg('nombreDemo', { n: i + 1 }),
      id_estado: estados[i % estados.length]!.id_estado,
      categorias: [
        demo,
        ...(muestras.length > 0 ? [muestras[i % muestras.length]!.id_categoria] : []),
      ],
    }));
    return repo.insertarConCategorias(trx, filas, ahora());
  });
}
