import { sql, type Kysely } from 'kysely';
import { analizarSms } from '@pregon/contract/rules/sms';
import { canalDeBaja } from '@pregon/contract/rules/bajas';
import type { Db } from '@pregon/db/database';
import type { DB } from '@pregon/db/schema';
import type { OpcionEncuesta } from '@pregon/contract/rules/respuestas';
import { motivoParte, type Recibo } from './canal.ts';

// The one-off messages' queue (issue 46.2 and 46.4, migration 0040 mensajes_sueltos): what the
// reply matching enqueues (an option's acknowledgement, a BAJA or ALTA confirmation) and what
// the dispatcher's sender (sueltos.ts) claims, announces, writes and applies receipts to. The same
// SQL on both engines; the queue is small (what waits or is in flight), read through its partial
// index mensajes_sueltos_cola.

/** WhatsApp's customer service window a reply opens: free text only within it. */
export const VENTANA_WHATSAPP_MS = 24 * 3_600_000;

/** What the sender needs of a device. */
export interface EquipoSueltos {
  id_equipo: number;
  alias: string;
  url: string;
  protocolo: string;
  credenciales: string | null;
  /** Sends per second per port, and ports: the device's pace is their product. */
  tasa: number;
  puertos: number;
}

/** A one-off message claimed for sending; `intentos` is the attempt this send will be. */
export interface SueltoReclamado {
  id_suelto: number;
  id_equipo: number;
  canal: string;
  telefono: string;
  texto: string;
  intentos: number;
  id_gateway: string | null;
  lease_hasta: number;
  vence: number | null;
}

/** The outcome of one attempt (only a message still 'en_curso' changes). */
export interface DesenlaceSuelto {
  id_suelto: number;
  estado: 'pendiente' | 'enviado' | 'entregado' | 'fallido' | 'invalido' | 'incierto';
  id_gateway: string | null;
  error: string | null;
  siguiente_intento: number | null;
  /** The attempt count to write instead of the current one (an attempt undone). */
  intentos?: number | null;
  /** Every part id the gateway gave (a long SMS), or the one id. */
  partes?: readonly string[] | null;
}

/** Everything the sender asks of the database. */
export interface StoreSueltos {
  /** Devices with messages due (pendiente, siguiente_intento passed). */
  equiposConPendientes(ahora: number): Promise<EquipoSueltos[]>;
  /** Claims up to `max` due messages of a device, oldest first: en_curso, leased, salio 0. */
  reclamar(
    id_equipo: number,
    max: number,
    ahora: number,
    hasta: number,
  ): Promise<SueltoReclamado[]>;
  /** Counts the attempt right before the send leaves (intentos + 1, salio 1, the new lease and
   * the id the gateway will know it by), only while the claim's lease holds; true when it did. */
  anunciar(
    f: Pick<SueltoReclamado, 'id_suelto' | 'lease_hasta' | 'id_gateway'>,
    hasta: number,
    ahora: number,
  ): Promise<boolean>;
  /** Writes an outcome, its part ids, and for a BAJA confirmation that left, bajas.confirmada_en. */
  escribir(d: DesenlaceSuelto, ahora: number): Promise<void>;
  /** Claimed but unsent messages go back to 'pendiente' as they were. */
  liberar(ids: readonly number[], ahora: number): Promise<void>;
  /** Messages en_curso past their lease: never sent (salio 0) or of an idempotent protocol →
   * 'pendiente'; sent otherwise → 'incierto' with `motivo` (never resent). Returns how many. */
  recuperarVencidos(
    ahora: number,
    idempotentes: readonly string[],
    motivo: string,
  ): Promise<number>;
  /** Applies receipts to one-off messages' parts; returns the gateway ids matched. */
  aplicarRecibos(recibos: readonly Recibo[], ahora: number): Promise<Set<string>>;
  /** Devices with one-off messages sent since `desde` still awaiting a receipt, with their ids. */
  esperandoAcuses(desde: number): Promise<{ equipo: EquipoSueltos; ids: string[] }[]>;
}

type K = Kysely<DB>;

const ENVIADOS = ['enviado', 'entregado'];

/** The SMS parts a text costs on an SMS channel (1 on WhatsApp: one message). */
const partesDe = (canal: string, texto: string) =>
  canalDeBaja(canal) === 'sms' ? analizarSms(texto).partes : 1;

/** What enqueueing is told: the reply it answers and its device, the text and why. */
export interface NuevoSuelto {
  id_equipo: number;
  canal: string;
  telefono: string;
  texto: string;
  motivo: 'acuse' | 'baja' | 'alta';
  id_respuesta: number;
  id_ejercicio?: number | null;
  id_detalle?: number | null;
  /** When the reply was received (WhatsApp's window runs from it). */
  recibida: number;
}

/** Queues a one-off message in the caller's transaction; false when it was already queued (one
 * acknowledgement per person and exercise, one confirmation per reply: the unique partial
 * indexes make a repeat a no-op on both engines). */
export async function encolarSuelto(k: K, m: NuevoSuelto, ahora = Date.now()): Promise<boolean> {
  const r = await k
    .insertInto('mensajes_sueltos')
    .values({
      id_equipo: m.id_equipo,
      canal: m.canal,
      telefono: m.telefono,
      texto: m.texto,
      partes: partesDe(m.canal, m.texto),
      motivo: m.motivo,
      id_respuesta: m.id_respuesta,
      id_ejercicio: m.id_ejercicio ?? null,
      id_detalle: m.id_detalle ?? null,
      vence: m.canal === 'whatsapp' ? m.recibida + VENTANA_WHATSAPP_MS : null,
      creado: ahora,
      lease_hasta: null,
      siguiente_intento: null,
      id_gateway: null,
      enviado: null,
      actualizado: ahora,
      error: null,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Whether a number is on a channel's opt-out list (no acknowledgement goes to it). */
export async function dadoDeBaja(k: K, canal: string, telefono: string): Promise<boolean> {
  const lista = canalDeBaja(canal);
  if (!lista) return false;
  const b = await k
    .selectFrom('bajas')
    .select('id_baja')
    .where('canal', '=', lista)
    .where('telefono', '=', telefono)
    .executeTakeFirst();
  return b !== undefined;
}

/** An answer to a poll, as its acknowledgement is queued (the device and number it came from). */
export interface AcusePorRespuesta {
  id_respuesta: number;
  id_equipo: number;
  canal: string;
  telefono: string | null;
  id_ejercicio: number;
  id_detalle: number;
  opcion: OpcionEncuesta | undefined;
  recibida: number;
}

/** Issue 46.2: the chosen option's automatic acknowledgement, once per person and exercise (the
 * unique index mensajes_sueltos_acuse), in the caller's transaction; none without a text, to a
 * sender that is not a phone, or to a phone on the channel's opt-out list. The one path of the
 * automatic matching (services/leer-respuestas.ts) and an operator's manual classification
 * (services/respuestas.ts clasificarManual). True when it was queued now. */
export async function encolarAcuse(k: K, a: AcusePorRespuesta): Promise<boolean> {
  const texto = a.opcion?.acuse?.trim();
  if (!texto || !a.telefono || (await dadoDeBaja(k, a.canal, a.telefono))) return false;
  return encolarSuelto(k, {
    id_equipo: a.id_equipo,
    canal: a.canal,
    telefono: a.telefono,
    texto,
    motivo: 'acuse',
    id_respuesta: a.id_respuesta,
    id_ejercicio: a.id_ejercicio,
    id_detalle: a.id_detalle,
    recibida: a.recibida,
  });
}

/** The queue's predicate, named whole so each engine can use the partial index
 * mensajes_sueltos_cola. */
const EN_COLA = sql<boolean>`estado in ('pendiente', 'en_curso')`;

const equipoDe = (f: {
  id_equipo: number;
  alias: string;
  url: string;
  protocolo: string;
  credenciales: string | null;
  tasa: number | string;
  puertos: number | string;
}): EquipoSueltos => ({
  id_equipo: Number(f.id_equipo),
  alias: f.alias,
  url: f.url,
  protocolo: f.protocolo,
  credenciales: f.credenciales,
  tasa: Number(f.tasa),
  puertos: Number(f.puertos),
});

/** The store of one-off messages over a database. */
export function storeSueltos(db: Db): StoreSueltos {
  const k = db.kysely;
  const pg = db.engine === 'postgres';
  const equipos = () =>
    k
      .selectFrom('equipos as e')
      .select([
        'e.id_equipo',
        'e.alias',
        'e.url',
        'e.protocolo',
        'e.credenciales',
        'e.tasa',
        'e.puertos',
      ]);
  return {
    async equiposConPendientes(ahora) {
      const filas = await equipos()
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('mensajes_sueltos as m')
              .select('m.id_suelto')
              .whereRef('m.id_equipo', '=', 'e.id_equipo')
              .where(sql<boolean>`m.estado in ('pendiente', 'en_curso')`)
              .where('m.estado', '=', 'pendiente')
              .where((w) =>
                w.or([w('m.siguiente_intento', 'is', null), w('m.siguiente_intento', '<=', ahora)]),
              ),
          ),
        )
        .execute();
      return filas.map(equipoDe);
    },

    async reclamar(id_equipo, max, ahora, hasta) {
      // PostgreSQL: two dispatchers claiming at once skip each other's rows, and the outer
      // `estado = 'pendiente'` is read again on a row another transaction changed meanwhile.
      const r = await sql<SueltoReclamado>`update mensajes_sueltos
        set estado = 'en_curso', lease_hasta = ${hasta}, salio = 0, actualizado = ${ahora}
        where id_suelto in (select id_suelto from mensajes_sueltos
            where id_equipo = ${id_equipo} and ${EN_COLA} and estado = 'pendiente'
              and (siguiente_intento is null or siguiente_intento <= ${ahora})
            order by id_suelto limit ${max} ${pg ? sql`for update skip locked` : sql``})
          and estado = 'pendiente'
        returning id_suelto, id_equipo, canal, telefono, texto, intentos, id_gateway, lease_hasta, vence`.execute(
        k,
      );
      return r.rows
        .map((f) => ({
          ...f,
          id_suelto: Number(f.id_suelto),
          intentos: Number(f.intentos) + 1,
          lease_hasta: Number(f.lease_hasta),
          vence: f.vence === null ? null : Number(f.vence),
        }))
        .sort((a, b) => a.id_suelto - b.id_suelto);
    },

    async anunciar(f, hasta, ahora) {
      const r = await k
        .updateTable('mensajes_sueltos')
        .set((eb) => ({
          salio: 1,
          intentos: eb('intentos', '+', 1),
          lease_hasta: hasta,
          id_gateway: eb.fn.coalesce(eb.val(f.id_gateway), 'id_gateway'),
          actualizado: ahora,
        }))
        .where('id_suelto', '=', f.id_suelto)
        .where('estado', '=', 'en_curso')
        .where('salio', '=', 0)
        .where('lease_hasta', '=', f.lease_hasta)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async escribir(d, ahora) {
      await k.transaction().execute(async (trx) => {
        const salio = ENVIADOS.includes(d.estado);
        const r = await trx
          .updateTable('mensajes_sueltos')
          .set((eb) => ({
            estado: d.estado,
            id_gateway: eb.fn.coalesce(eb.val(d.id_gateway), 'id_gateway'),
            error: d.error,
            siguiente_intento: d.siguiente_intento,
            lease_hasta: null,
            actualizado: ahora,
            ...(salio ? { enviado: ahora } : {}),
            ...(d.intentos != null ? { intentos: d.intentos } : {}),
          }))
          .where('id_suelto', '=', d.id_suelto)
          .where('estado', '=', 'en_curso')
          .returning(['id_equipo', 'motivo', 'id_respuesta'])
          .executeTakeFirst();
        if (!r) return;
        const ids = d.partes?.length ? d.partes : d.id_gateway && salio ? [d.id_gateway] : [];
        if (ids.length)
          await trx
            .insertInto('mensajes_sueltos_partes')
            .values(
              ids.map((id_parte, i) => ({
                id_equipo: r.id_equipo,
                id_parte,
                id_suelto: d.id_suelto,
                parte: i + 1,
                total: ids.length,
                estado: d.estado === 'entregado' ? 'entregado' : null,
              })),
            )
            .onConflict((oc) => oc.doNothing())
            .execute();
        // The list entry's confirmation left (bajas.confirmada_en, migration 0038).
        if (salio && r.motivo === 'baja' && r.id_respuesta !== null)
          await trx
            .updateTable('bajas')
            .set({ confirmada_en: ahora })
            .where('id_respuesta', '=', r.id_respuesta)
            .where('confirmada_en', 'is', null)
            .execute();
      });
    },

    async liberar(ids, ahora) {
      if (!ids.length) return;
      await k
        .updateTable('mensajes_sueltos')
        .set((eb) => ({
          estado: 'pendiente',
          lease_hasta: null,
          intentos: eb('intentos', '-', eb.ref('salio')),
          salio: 0,
          actualizado: ahora,
        }))
        .where('id_suelto', 'in', ids)
        .where('estado', '=', 'en_curso')
        .execute();
    },

    async recuperarVencidos(ahora, idempotentes, motivo) {
      const reenviables = sql.join(['', ...idempotentes].map((p) => sql`${p}`));
      const r = await sql`update mensajes_sueltos
        set estado = case when salio = 0 or canal in (${reenviables}) then 'pendiente' else 'incierto' end,
          error = case when salio = 0 or canal in (${reenviables}) then error else ${motivo} end,
          lease_hasta = null, actualizado = ${ahora}
        where ${EN_COLA} and estado = 'en_curso' and lease_hasta < ${ahora}`.execute(k);
      return Number(r.numAffectedRows ?? 0);
    },

    async aplicarRecibos(recibos, ahora) {
      const hechos = new Set<string>();
      if (!recibos.length) return hechos;
      // One look-up for the batch: most receipts are the exercises' (matched before this).
      const porEquipo = new Map<number, string[]>();
      for (const r of recibos)
        porEquipo.set(r.id_equipo, [...(porEquipo.get(r.id_equipo) ?? []), r.id_gateway]);
      const partes = (
        await Promise.all(
          [...porEquipo].map(([id_equipo, ids]) =>
            k
              .selectFrom('mensajes_sueltos_partes')
              .select(['id_equipo', 'id_parte', 'id_suelto', 'parte', 'total'])
              .where('id_equipo', '=', id_equipo)
              .where('id_parte', 'in', ids)
              .execute(),
          ),
        )
      ).flat();
      if (!partes.length) return hechos;
      const de = new Map(partes.map((p) => [`${p.id_equipo}:${p.id_parte}`, p]));
      await k.transaction().execute(async (trx) => {
        for (const r of recibos) {
          const p = de.get(`${r.id_equipo}:${r.id_gateway}`);
          if (!p) continue;
          hechos.add(r.id_gateway);
          const id_suelto = Number(p.id_suelto);
          // The message's row first: two receipts of one message's parts apply one after the
          // other (PostgreSQL), so the last part's sees the others.
          await trx
            .updateTable('mensajes_sueltos')
            .set({ actualizado: ahora })
            .where('id_suelto', '=', id_suelto)
            .execute();
          await trx
            .updateTable('mensajes_sueltos_partes')
            .set({ estado: r.entregado ? 'entregado' : 'fallido' })
            .where('id_equipo', '=', r.id_equipo)
            .where('id_parte', '=', r.id_gateway)
            .where('estado', 'is', null)
            .execute();
          if (!r.entregado) {
            await trx
              .updateTable('mensajes_sueltos')
              .set({
                estado: 'fallido',
                error:
                  p.total > 1
                    ? motivoParte(r.motivo, { parte: p.parte, total: p.total })
                    : (r.motivo ?? null),
              })
              .where('id_suelto', '=', id_suelto)
              .where('estado', '=', 'enviado')
              .execute();
            continue;
          }
          const entregadas = await trx
            .selectFrom('mensajes_sueltos_partes')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('id_suelto', '=', id_suelto)
            .where('estado', '=', 'entregado')
            .executeTakeFirstOrThrow();
          if (Number(entregadas.n) >= p.total)
            await trx
              .updateTable('mensajes_sueltos')
              .set({ estado: 'entregado' })
              .where('id_suelto', '=', id_suelto)
              .where('estado', '=', 'enviado')
              .execute();
        }
      });
      return hechos;
    },

    async esperandoAcuses(desde) {
      const filas = await k
        .selectFrom('mensajes_sueltos_partes as p')
        .innerJoin('mensajes_sueltos as m', 'm.id_suelto', 'p.id_suelto')
        .select(['p.id_equipo', 'p.id_parte'])
        .where('m.estado', '=', 'enviado')
        .where('p.estado', 'is', null)
        .where('m.enviado', '>=', desde)
        .execute();
      if (!filas.length) return [];
      const ids = new Map<number, string[]>();
      for (const f of filas) ids.set(f.id_equipo, [...(ids.get(f.id_equipo) ?? []), f.id_parte]);
      const es = await equipos()
        .where('e.id_equipo', 'in', [...ids.keys()])
        .execute();
      return es.map((e) => ({ equipo: equipoDe(e), ids: ids.get(e.id_equipo) ?? [] }));
    },
  };
}
