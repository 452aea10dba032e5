import { sql } from 'kysely';
import { protocolosDonde } from '@pregon/contract/protocolos';
import type { CanalBaja } from '@pregon/contract/rules/bajas';
import type { BajasTable } from '@pregon/db/schema';
import type { Insertable } from 'kysely';
import type { Consultor } from './ejercicios.ts';

// Every query of the opt-out lists (bajas, issue 46.4) and of the drill rows they hold back.

/** Adds a phone to a list; returns its new id, or undefined when it was already there (the
 * unique (canal, telefono) makes a second BAJA a no-op on both engines). */
export async function insertarBaja(k: Consultor, fila: Insertable<BajasTable>) {
  const r = await k
    .insertInto('bajas')
    .values(fila)
    .onConflict((oc) => oc.columns(['canal', 'telefono']).doNothing())
    .returning('id_baja')
    .executeTakeFirst();
  return r ? Number(r.id_baja) : undefined;
}

/** Takes a phone off a list; returns the row it removed, or undefined when it was not there. */
export async function borrarBaja(k: Consultor, canal: CanalBaja, telefono: string) {
  return k
    .deleteFrom('bajas')
    .where('canal', '=', canal)
    .where('telefono', '=', telefono)
    .returningAll()
    .executeTakeFirst();
}

/** The directory's id of a number in its stored form, if the directory has it. */
export async function idTelefono(k: Consultor, telefono: string) {
  const r = await k
    .selectFrom('telefonos')
    .select('id_telefono')
    .where('telefono', '=', telefono)
    .executeTakeFirst();
  return r?.id_telefono;
}

/** Marks that the confirmation of a list entry left (confirmada_en). */
export async function marcarConfirmada(k: Consultor, id_baja: number, ahora: number) {
  await k
    .updateTable('bajas')
    .set({ confirmada_en: ahora })
    .where('id_baja', '=', id_baja)
    .execute();
}

/** One page of a list (both lists when `canal` is absent), newest first, with the total. */
export async function listarBajas(
  k: Consultor,
  filtro: { canal?: CanalBaja; q?: string },
  limit: number,
  offset: number,
) {
  let base = k.selectFrom('bajas');
  if (filtro.canal) base = base.where('canal', '=', filtro.canal);
  if (filtro.q) base = base.where('telefono', 'like', `%${filtro.q.replace(/[%_]/g, '')}%`);
  const [filas, total] = await Promise.all([
    base
      .selectAll()
      .orderBy('fecha', 'desc')
      .orderBy('id_baja', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { filas, total: Number(total.n) };
}

/** Every entry of a list (both when `canal` is absent), in batches of `lote`, by id (the CSV). */
export async function* lotesBajas(k: Consultor, canal: CanalBaja | undefined, lote: number) {
  let desde = 0;
  for (;;) {
    let q = k.selectFrom('bajas').selectAll().where('id_baja', '>', desde);
    if (canal) q = q.where('canal', '=', canal);
    const filas = await q.orderBy('id_baja').limit(lote).execute();
    if (!filas.length) return;
    yield filas;
    desde = Number(filas[filas.length - 1]!.id_baja);
  }
}

/** The rows of a drill's recipients still waiting whose phone is on `canal`'s list. Driven by
 * the list (small) through telefonos' unique number and detalle_historial (id_telefono,
 * id_ejercicio): it reads no other recipient of the drill, however many it has. */
// CROSS JOIN keeps SQLite in this order (its planner, without statistics of bajas, would
// otherwise walk the drill's pending index and probe the list per row: 3 times slower at 100,000
// recipients); PostgreSQL plans it as the inner join it is.
const retenidos = (id: number, canal: CanalBaja) => sql`select d.id_detalle
  from bajas b
  cross join telefonos t
  cross join ejercicio_detalle d
  where b.canal = ${canal} and t.telefono = b.telefono
    and d.id_telefono = t.id_telefono and d.id_ejercicio = ${id} and d.estatus = 'pendiente'`;

/** How many of a drill's waiting recipients are on `canal`'s list (the start confirmation). */
export async function contarRetenidos(k: Consultor, id: number, canal: CanalBaja) {
  const r = await sql<{ n: number | string }>`select count(*) as n
    from (${retenidos(id, canal)}) x`.execute(k);
  return Number(r.rows[0]?.n ?? 0);
}

/** At a start: a drill's waiting recipients on `canal`'s list become 'cancelado' with `motivo`
 * ('Dado de baja'), an outcome with no attempt (intentos stays 0); returns how many. */
export async function retenerBajas(
  k: Consultor,
  id: number,
  canal: CanalBaja,
  motivo: string,
  ahora: number,
) {
  const r = await sql`update ejercicio_detalle
    set estatus = 'cancelado', motivo = ${motivo}, actualizado = ${ahora}
    where id_detalle in (${retenidos(id, canal)})`.execute(k);
  return Number(r.numAffectedRows ?? 0);
}

/** The protocols whose drills a list covers (their records' capacidades.bajas). */
const protocolosDe = (canal: CanalBaja) => protocolosDonde((d) => d.capacidades.bajas === canal);

/** When a phone opts out while drills of the channel are running or paused: its rows still
 * waiting in them become 'cancelado' with `motivo` (a drill not yet started holds it back at its
 * start instead; a real alert keeps it). By detalle_historial (id_telefono). Returns how many. */
export async function retenerEnCurso(
  k: Consultor,
  id_telefono: number,
  canal: CanalBaja,
  motivo: string,
  ahora: number,
) {
  const r = await sql`update ejercicio_detalle
    set estatus = 'cancelado', motivo = ${motivo}, actualizado = ${ahora}
    where id_telefono = ${id_telefono} and estatus = 'pendiente'
      and id_ejercicio in (select e.id_ejercicio from ejercicios e
        join equipos q on q.id_equipo = e.id_equipo
        where e.iniciado is not null and e.completado = 0 and e.ignora_bajas = 0
          and q.protocolo in (${sql.join(protocolosDe(canal))}))`.execute(k);
  return Number(r.numAffectedRows ?? 0);
}
