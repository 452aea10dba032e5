import { sql, type Kysely } from 'kysely';
import { msg } from '@pregon/contract/messages';
import type { Db } from '../db/database.ts';
import type { Selectable } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { RespuestaEntrante } from './canal.ts';
import {
  claveRespuesta,
  decodificarMo,
  PLAZO_PARTES_MO_MS,
  unirContenidos,
  VENTANA_DUPLICADO_MS,
} from './smpp-mo.ts';

// The dispatcher's writes of replies (issue 46), the same SQL on both engines: each reply once
// (insert … on conflict (clave) do nothing), the parts of a long reply kept until the set is
// complete, and sets that stay incomplete stored as what came.

/** What storing a reply did: stored now, already stored (a resend), or a part kept for the rest. */
export type ResultadoRespuesta = 'nueva' | 'duplicada' | 'parcial';

/** The longest sender kept (an alphanumeric or a number: SMPP allows 21 octets). */
const MAX_REMITENTE = 64;

/** Inserts a reply unless its key (or, without the gateway's id or time, the same key in the
 * previous window) is stored; true when it was inserted. */
async function insertar(
  k: Kysely<DB>,
  r: RespuestaEntrante,
  ahora: number,
  extra: { partes?: number; incompleta?: number } = {},
): Promise<boolean> {
  const remitente = r.remitente.slice(0, MAX_REMITENTE);
  const base = {
    id_equipo: r.id_equipo,
    remitente,
    texto_crudo: r.texto_crudo,
    id_gateway: r.id_gateway ?? null,
    fecha_gateway: r.fecha_gateway ?? null,
  };
  const ventana = Math.floor(ahora / VENTANA_DUPLICADO_MS);
  if (!base.id_gateway && base.fecha_gateway == null) {
    const previa = claveRespuesta({ ...base, ventana: ventana - 1 });
    const hay = await k
      .selectFrom('respuestas_recibidas')
      .select('id_respuesta')
      .where('clave', '=', previa)
      .executeTakeFirst();
    if (hay) return false;
  }
  const tel = r.telefono
    ? await k
        .selectFrom('telefonos')
        .select('id_telefono')
        .where('telefono', '=', r.telefono)
        .executeTakeFirst()
    : undefined;
  const res = await k
    .insertInto('respuestas_recibidas')
    .values({
      ...base,
      canal: r.canal,
      telefono: r.telefono,
      id_telefono: tel?.id_telefono ?? null,
      texto: r.texto,
      codificacion: r.codificacion,
      nota: r.nota ?? null,
      fecha_recibida: ahora,
      clave: claveRespuesta({ ...base, ventana }),
      partes: extra.partes ?? 1,
      incompleta: extra.incompleta ?? 0,
      id_ejercicio: null,
      id_detalle: null,
      clasificacion: null,
    })
    .onConflict((oc) => oc.column('clave').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The key of a long reply's set of parts. */
type Conjunto = { id_equipo: number; remitente: string; referencia: number; total: number };

/** Locks a set of parts for this transaction (PostgreSQL: two dispatchers given two parts of one
 * reply at once each see the other's; SQLite writes one transaction at a time). */
async function bloquear(db: Db, k: Kysely<DB>, c: Conjunto): Promise<void> {
  if (db.engine !== 'postgres') return;
  const clave = `${c.id_equipo}|${c.remitente}|${c.referencia}|${c.total}`;
  await sql`select pg_advisory_xact_lock(hashtext(${clave}))`.execute(k);
}

/** Joins a set's parts (those that came, in order) into one reply and stores it. */
async function unir(
  k: Kysely<DB>,
  filas: readonly Selectable<DB['respuestas_partes']>[],
  ahora: number,
): Promise<boolean> {
  const c = filas[0]!;
  const contenido = unirContenidos(filas.map((f) => Buffer.from(f.contenido, 'hex')));
  const d = decodificarMo(c.data_coding, contenido);
  const incompleta = filas.length < c.total;
  const nota = incompleta
    ? msg('respuestaIncompleta', {
        n: filas.length,
        total: c.total,
        minutos: PLAZO_PARTES_MO_MS / 60_000,
      })
    : d.nota;
  return insertar(
    k,
    {
      id_equipo: c.id_equipo,
      canal: c.canal,
      remitente: c.remitente,
      telefono: c.telefono,
      texto: d.texto,
      codificacion: d.codificacion,
      ...(nota ? { nota } : {}),
      texto_crudo: filas.map((f) => f.crudo).join(' '),
    },
    ahora,
    { partes: c.total, incompleta: incompleta ? 1 : 0 },
  );
}

/** Stores a reply once; a part of a long reply is kept until its set is complete, then the set
 * is joined and stored (a part resent after that is a duplicate). */
export async function guardarRespuesta(
  db: Db,
  r: RespuestaEntrante,
  ahora: number,
): Promise<ResultadoRespuesta> {
  const p = r.parte;
  if (!p) return (await insertar(db.kysely, r, ahora)) ? 'nueva' : 'duplicada';
  const c: Conjunto = {
    id_equipo: r.id_equipo,
    remitente: r.remitente.slice(0, MAX_REMITENTE),
    referencia: p.ref,
    total: p.total,
  };
  return db.kysely.transaction().execute(async (trx) => {
    await bloquear(db, trx, c);
    const insertada = await trx
      .insertInto('respuestas_partes')
      .values({
        ...c,
        parte: p.seq,
        canal: r.canal,
        telefono: r.telefono,
        data_coding: p.data_coding,
        contenido: p.contenido,
        crudo: r.texto_crudo,
        recibida: ahora,
      })
      .onConflict((oc) =>
        oc.columns(['id_equipo', 'remitente', 'referencia', 'total', 'parte']).doNothing(),
      )
      .executeTakeFirst();
    const filas = await delConjunto(trx, c);
    if (filas.some((f) => f.unida)) {
      // A resend of a part already joined; or a part that came after its set was stored
      // incomplete: kept as a reply of its own (incomplete), never lost.
      const tarde = filas.find((f) => f.parte === p.seq && !f.unida);
      if (!Number(insertada.numInsertedOrUpdatedRows ?? 0) || !tarde) return 'duplicada';
      const nueva = await unir(trx, [tarde], ahora);
      await marcarUnido(trx, c);
      return nueva ? 'nueva' : 'duplicada';
    }
    if (filas.length < p.total) return 'parcial';
    const nueva = await unir(trx, filas, ahora);
    await marcarUnido(trx, c);
    return nueva ? 'nueva' : 'duplicada';
  });
}

/** The parts stored for a set, in order. */
function delConjunto(k: Kysely<DB>, c: Conjunto) {
  return k
    .selectFrom('respuestas_partes')
    .selectAll()
    .where('id_equipo', '=', c.id_equipo)
    .where('remitente', '=', c.remitente)
    .where('referencia', '=', c.referencia)
    .where('total', '=', c.total)
    .orderBy('parte')
    .execute();
}

/** Marks a set joined: its parts stay (until VENTANA_DUPLICADO_MS) to know a resend. */
async function marcarUnido(k: Kysely<DB>, c: Conjunto): Promise<void> {
  await k
    .updateTable('respuestas_partes')
    .set({ unida: 1 })
    .where('id_equipo', '=', c.id_equipo)
    .where('remitente', '=', c.remitente)
    .where('referencia', '=', c.referencia)
    .where('total', '=', c.total)
    .execute();
}

/** Sets whose first part came more than PLAZO_PARTES_MO_MS before `ahora` and are still missing
 * parts are stored as what came (incompleta 1); joined sets older than VENTANA_DUPLICADO_MS are
 * dropped. Returns how many incomplete replies were stored. */
export async function cerrarPartesVencidas(db: Db, ahora: number): Promise<number> {
  const vencidos = await db.kysely
    .selectFrom('respuestas_partes')
    .select(['id_equipo', 'remitente', 'referencia', 'total'])
    .where('unida', '=', 0)
    .groupBy(['id_equipo', 'remitente', 'referencia', 'total'])
    .having((eb) => eb.fn.min('recibida'), '<', ahora - PLAZO_PARTES_MO_MS)
    .execute();
  let n = 0;
  for (const c of vencidos) {
    const guardada = await db.kysely.transaction().execute(async (trx) => {
      await bloquear(db, trx, c);
      const filas = await delConjunto(trx, c);
      if (!filas.length || filas.some((f) => f.unida)) return false;
      const r = await unir(trx, filas, Math.max(...filas.map((f) => f.recibida)));
      await marcarUnido(trx, c);
      return r;
    });
    if (guardada) n++;
  }
  await db.kysely
    .deleteFrom('respuestas_partes')
    .where('unida', '=', 1)
    .where('recibida', '<', ahora - VENTANA_DUPLICADO_MS)
    .execute();
  return n;
}
