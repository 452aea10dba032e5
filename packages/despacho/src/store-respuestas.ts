import { sql, type Kysely } from 'kysely';
import { msg } from '@pregon/contract/messages';
import type { Db } from '@pregon/db/database';
import type { Selectable } from 'kysely';
import type { DB } from '@pregon/db/schema';
import type { RespuestaEntrante } from './canal.ts';
import {
  claveRespuesta,
  decodificarMo,
  PLAZO_PARTES_MO_MS,
  unirContenidos,
  VENTANA_DUPLICADO_MS,
} from './canales/smpp/mo.ts';

// The dispatcher's writes of replies (issue 46), the same SQL on both engines: each reply once
// (insert … on conflict (clave) do nothing), the parts of a long reply kept until the set is
// complete, and sets that stay incomplete stored as what came.

/** What storing a reply did: stored now, already stored (a resend), or a part kept for the rest. */
export type ResultadoRespuesta = 'nueva' | 'duplicada' | 'parcial';

/** The longest sender kept (an alphanumeric or a number: SMPP allows 21 octets). */
const MAX_REMITENTE = 64;

/** A reply to insert: what came, when, and its place in a long reply. */
interface AInsertar {
  r: RespuestaEntrante;
  ahora: number;
  extra?: { partes?: number; incompleta?: number };
}

/** Most replies one statement inserts. */
const MAX_GRUPO = 500;

/**
 * Inserts replies, each unless its key (or, without the gateway's id or time, the same key in the
 * previous window) is stored, in one statement (WITH v AS (VALUES …, or on PostgreSQL SELECT *
 * FROM unnest(one array per column)) INSERT … SELECT … WHERE NOT EXISTS … ON CONFLICT (clave) DO
 * NOTHING RETURNING clave, each sender's directory id read in it), in their order; true for each
 * one inserted (of the same key twice, the first). `pg`: the database is PostgreSQL.
 */
async function insertarVarias(
  k: Kysely<DB>,
  pg: boolean,
  xs: readonly AInsertar[],
): Promise<boolean[]> {
  const filas = xs.map(({ r, ahora, extra = {} }) => {
    const remitente = r.remitente.slice(0, MAX_REMITENTE);
    const base = {
      id_equipo: r.id_equipo,
      remitente,
      texto_crudo: r.texto_crudo,
      id_gateway: r.id_gateway ?? null,
      fecha_gateway: r.fecha_gateway ?? null,
    };
    const ventana = Math.floor(ahora / VENTANA_DUPLICADO_MS);
    const sinClave = !base.id_gateway && base.fecha_gateway == null;
    return {
      r,
      ahora,
      remitente,
      base,
      clave: claveRespuesta({ ...base, ventana }),
      previa: sinClave ? claveRespuesta({ ...base, ventana: ventana - 1 }) : null,
      partes: extra.partes ?? 1,
      incompleta: extra.incompleta ?? 0,
    };
  });
  // PostgreSQL takes the rows as one array per column (16 parameters whatever the group's size:
  // a short statement to build, send and parse); SQLite, which has no arrays, as VALUES rows.
  const col = <T>(f: (x: (typeof filas)[number], i: number) => T) => filas.map(f);
  const valores = pg
    ? sql`select * from unnest(cast(${col((_, i) => i)} as integer[]),
        cast(${col((f) => f.r.id_equipo)} as integer[]),
        cast(${col((f) => f.r.canal)} as varchar(20)[]),
        cast(${col((f) => f.remitente)} as varchar(64)[]),
        cast(${col((f) => f.r.telefono)} as varchar(32)[]),
        cast(${col((f) => f.r.texto)} as text[]),
        cast(${col((f) => f.r.texto_crudo)} as text[]),
        cast(${col((f) => f.r.codificacion)} as varchar(20)[]),
        cast(${col((f) => f.r.nota ?? null)} as text[]),
        cast(${col((f) => f.base.id_gateway)} as varchar(200)[]),
        cast(${col((f) => f.base.fecha_gateway)} as bigint[]),
        cast(${col((f) => f.ahora)} as bigint[]),
        cast(${col((f) => f.clave)} as varchar(200)[]),
        cast(${col((f) => f.previa)} as varchar(200)[]),
        cast(${col((f) => f.partes)} as integer[]),
        cast(${col((f) => f.incompleta)} as integer[]))`
    : sql`values ${sql.join(
        filas.map(
          (f, i) => sql`(cast(${i} as integer), cast(${f.r.id_equipo} as integer),
        cast(${f.r.canal} as varchar(20)), cast(${f.remitente} as varchar(64)),
        cast(${f.r.telefono} as varchar(32)), cast(${f.r.texto} as text),
        cast(${f.r.texto_crudo} as text), cast(${f.r.codificacion} as varchar(20)),
        cast(${f.r.nota ?? null} as text), cast(${f.base.id_gateway} as varchar(200)),
        cast(${f.base.fecha_gateway} as bigint), cast(${f.ahora} as bigint),
        cast(${f.clave} as varchar(200)), cast(${f.previa} as varchar(200)),
        cast(${f.partes} as integer), cast(${f.incompleta} as integer))`,
        ),
      )}`;
  const r = await sql<{ clave: string }>`with v(orden, id_equipo, canal, remitente, telefono,
      texto, texto_crudo, codificacion, nota, id_gateway, fecha_gateway, fecha_recibida, clave,
      previa, partes, incompleta) as (${valores})
    insert into respuestas_recibidas (id_equipo, canal, remitente, telefono, id_telefono, texto,
      texto_crudo, codificacion, nota, id_gateway, fecha_gateway, fecha_recibida, clave, partes,
      incompleta, id_ejercicio, id_detalle, clasificacion)
    select v.id_equipo, v.canal, v.remitente, v.telefono,
      (select t.id_telefono from telefonos t where t.telefono = v.telefono), v.texto,
      v.texto_crudo, v.codificacion, v.nota, v.id_gateway, v.fecha_gateway, v.fecha_recibida,
      v.clave, v.partes, v.incompleta, null, null, null
    from v
    where v.previa is null
      or not exists (select 1 from respuestas_recibidas x where x.clave = v.previa)
    order by v.orden
    on conflict (clave) do nothing
    returning clave`.execute(k);
  const nuevas = new Set(r.rows.map((f) => f.clave));
  return filas.map((f) => nuevas.delete(f.clave));
}

/** Inserts one reply (insertarVarias); true when it was inserted. */
async function insertar(
  k: Kysely<DB>,
  pg: boolean,
  r: RespuestaEntrante,
  ahora: number,
  extra: { partes?: number; incompleta?: number } = {},
): Promise<boolean> {
  return (await insertarVarias(k, pg, [{ r, ahora, extra }]))[0]!;
}

/** Replies waiting for the next group insert of a database, and how many inserts are under way. */
interface Grupo {
  espera: { x: AInsertar; listo: (v: boolean) => void; fallo: (e: unknown) => void }[];
  activos: number;
}

/** Group inserts of one database in flight at once: while one waits for its commit, the next
 * takes the replies that came meanwhile, so the SMSC's window (100 outstanding) is not held by
 * one commit's round trip (issue 46.5). A resend racing its first copy in the other insert is
 * kept once all the same: the key's unique index makes the later one wait and do nothing. */
const EN_VUELO = 2;
const grupos = new WeakMap<Db, Grupo>();

/**
 * Group commit of whole replies (issue 46.5): the replies that come while a group is being
 * inserted go together in the next statement (up to MAX_GRUPO, EN_VUELO statements at once), one
 * commit for all; each caller resolves once its own row is committed, so the gateway's
 * acknowledgement still follows the durable store. A group that fails is tried again one reply at a time, so one bad reply never
 * refuses the others.
 */
function insertarAgrupada(db: Db, x: AInsertar): Promise<boolean> {
  let g = grupos.get(db);
  if (!g) grupos.set(db, (g = { espera: [], activos: 0 }));
  const grupo = g;
  return new Promise<boolean>((listo, fallo) => {
    grupo.espera.push({ x, listo, fallo });
    if (grupo.activos >= EN_VUELO || (grupo.activos > 0 && grupo.espera.length > 1)) return;
    grupo.activos++;
    setImmediate(() => void vaciarGrupo(db, grupo));
  });
}

async function vaciarGrupo(db: Db, g: Grupo): Promise<void> {
  while (g.espera.length) {
    const lote = g.espera.splice(0, MAX_GRUPO);
    try {
      const hechas = await insertarVarias(
        db.kysely,
        db.engine === 'postgres',
        lote.map((p) => p.x),
      );
      lote.forEach((p, i) => p.listo(hechas[i]!));
    } catch (err) {
      if (lote.length === 1) lote[0]!.fallo(err);
      else
        for (const p of lote)
          await insertarVarias(db.kysely, db.engine === 'postgres', [p.x]).then(
            ([v]) => p.listo(v!),
            p.fallo,
          );
    }
  }
  g.activos--;
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
  pg: boolean,
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
    pg,
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
  if (!p) return (await insertarAgrupada(db, { r, ahora })) ? 'nueva' : 'duplicada';
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
      const nueva = await unir(trx, db.engine === 'postgres', [tarde], ahora);
      await marcarUnido(trx, c);
      return nueva ? 'nueva' : 'duplicada';
    }
    if (filas.length < p.total) return 'parcial';
    const nueva = await unir(trx, db.engine === 'postgres', filas, ahora);
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
      const r = await unir(
        trx,
        db.engine === 'postgres',
        filas,
        Math.max(...filas.map((f) => f.recibida)),
      );
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
