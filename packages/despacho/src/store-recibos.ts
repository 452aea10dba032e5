import type { Db } from '@pregon/db/database';
import type { Recibo } from './canal.ts';

// Issue 48.6: receipts that found no row yet (recibos_en_espera, migration 0070). A receipt is
// answered to its gateway only once it is durable; one that matches no row is stored here and
// answered, then matched again by the dispatchers (despachador.ts repasarRecibos) until a row
// takes it or ESPERA_RECIBOS_MS passes. Both engines, through Kysely: off the hot path (only
// receipts that raced their row's write, or outlived the dispatcher that sent it, come here).

/** A stored receipt: its id in the table, the receipt and when it came. */
export interface ReciboEnEspera {
  id_recibo: number;
  r: Recibo;
  recibido: number;
}

/** Whether two numbers name one phone: the same digits, or one ending with the other's (a
 * gateway writes the international form, 52…, the directory the national one) when the shorter
 * has at least 8 digits. */
export function mismoTelefono(a: string, b: string): boolean {
  const x = a.replace(/\D/g, '');
  const y = b.replace(/\D/g, '');
  if (!x || !y) return false;
  if (x === y) return true;
  const [corto, largo] = x.length < y.length ? [x, y] : [y, x];
  return corto.length >= 8 && largo.endsWith(corto);
}

/** Stores receipts that matched no row. */
export async function guardarRecibos(db: Db, rs: readonly Recibo[], ahora: number): Promise<void> {
  if (!rs.length) return;
  await db.kysely
    .insertInto('recibos_en_espera')
    .values(
      rs.map((r) => ({
        id_equipo: r.id_equipo,
        id_gateway: r.id_gateway.slice(0, 80),
        entregado: r.entregado ? 1 : 0,
        motivo: r.motivo?.slice(0, 500) ?? null,
        telefono: r.telefono?.slice(0, 40) ?? null,
        recibido: ahora,
      })),
    )
    .execute();
}

/** Stored receipts, the newest first, at most `max`; with `antes`, only those that came before
 * it (the ones past their time). */
export async function recibosEnEspera(
  db: Db,
  max: number,
  antes?: number,
): Promise<ReciboEnEspera[]> {
  let q = db.kysely.selectFrom('recibos_en_espera').selectAll();
  if (antes !== undefined) q = q.where('recibido', '<', antes);
  const filas = await q.orderBy('id_recibo', 'desc').limit(max).execute();
  return filas.map((f) => ({
    id_recibo: Number(f.id_recibo),
    recibido: Number(f.recibido),
    r: {
      id_equipo: f.id_equipo,
      id_gateway: f.id_gateway,
      entregado: f.entregado === 1,
      ...(f.motivo !== null ? { motivo: f.motivo } : {}),
      ...(f.telefono !== null ? { telefono: f.telefono } : {}),
    },
  }));
}

/** Removes stored receipts (applied, or past their time). */
export async function borrarRecibosEnEspera(db: Db, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await db.kysely.deleteFrom('recibos_en_espera').where('id_recibo', 'in', ids).execute();
}

/**
 * Receipts whose row lost its gateway id: a dispatcher killed after the submit's answer and
 * before its write left the row sent without an id, and the sweep made it 'incierto'. Such a
 * receipt names its recipient (SMPP source_addr): it is applied to the one 'incierto' row of its
 * device, sent (salio 1), without id or receipt, in an exercise started since `desde`, whose
 * phone is that recipient. Two such rows for one recipient: neither (which one the message was
 * cannot be told). The row takes the receipt's id, its state, and loses the uncertainty's
 * reason when delivered. Returns the ids (id_recibo) applied.
 */
export async function aplicarPorTelefono(
  db: Db,
  rs: readonly ReciboEnEspera[],
  ahora: number,
  desde: number,
): Promise<Set<number>> {
  const hechos = new Set<number>();
  const conTelefono = rs.filter((x) => x.r.telefono);
  if (!conTelefono.length) return hechos;
  const equipos = [...new Set(conTelefono.map((x) => x.r.id_equipo))];
  const candidatas = await db.kysely
    .selectFrom('ejercicio_detalle as d')
    .innerJoin('ejercicios as j', 'j.id_ejercicio', 'd.id_ejercicio')
    .select(['d.id_detalle', 'd.telefono', 'j.id_equipo'])
    .where('j.id_equipo', 'in', equipos)
    .where('j.iniciado', '>=', desde)
    .where('d.estatus', '=', 'incierto')
    .where('d.salio', '=', 1)
    .where('d.recibida', '=', 0)
    .where('d.id_gateway', 'is', null)
    .execute();
  const tomadas = new Set<number>();
  for (const x of conTelefono) {
    const suyas = candidatas.filter(
      (c) =>
        c.id_equipo === x.r.id_equipo &&
        !tomadas.has(Number(c.id_detalle)) &&
        mismoTelefono(c.telefono, x.r.telefono!),
    );
    if (suyas.length !== 1) continue;
    const id_detalle = Number(suyas[0]!.id_detalle);
    const r = await db.kysely
      .updateTable('ejercicio_detalle')
      .set({
        estatus: x.r.entregado ? 'entregado' : 'fallido',
        recibida: 1,
        id_gateway: x.r.id_gateway,
        motivo: x.r.entregado ? null : (x.r.motivo ?? null),
        actualizado: ahora,
      })
      .where('id_detalle', '=', id_detalle)
      .where('estatus', '=', 'incierto')
      .where('id_gateway', 'is', null)
      .executeTakeFirst();
    tomadas.add(id_detalle);
    if (Number(r.numUpdatedRows) > 0) hechos.add(x.id_recibo);
  }
  return hechos;
}

/** The stored receipts' operations of the Store, bound to a database. */
export function storeRecibos(db: Db) {
  return {
    guardarRecibos: (rs: readonly Recibo[], ahora: number) => guardarRecibos(db, rs, ahora),
    recibosEnEspera: (max: number, antes?: number) => recibosEnEspera(db, max, antes),
    borrarRecibosEnEspera: (ids: readonly number[]) => borrarRecibosEnEspera(db, ids),
    aplicarPorTelefono: (rs: readonly ReciboEnEspera[], ahora: number, desde: number) =>
      aplicarPorTelefono(db, rs, ahora, desde),
  };
}
