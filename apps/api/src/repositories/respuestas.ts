import { sql, type Kysely } from 'kysely';
import type { Engine } from '@pregon/db/database';
import type { DB } from '@pregon/db/schema';
import { encolarEventos } from './webhooks.ts';

// The SQL of the reply matching (services/respuestas.ts procesarPendientes, issue 46.2 and 46.5):
// a batch of unread replies taken at once, the poll sends of all their senders in one query, the
// earlier answers of those who chose an option requiring attention in one, the classifications
// written in one statement and the cases opened (and audited) in one. The same SQL on both
// engines, except PostgreSQL's FOR UPDATE SKIP LOCKED (two dispatchers never take one reply).

type K = Kysely<DB>;

/** Most rows one multi-row statement writes (parameters stay far below both engines' limits). */
const POR_SENTENCIA = 500;

/** An unread reply as the matching needs it. */
export interface SinLeer {
  id_respuesta: number;
  id_equipo: number;
  canal: string;
  telefono: string | null;
  id_telefono: number | null;
  texto: string;
  fecha_recibida: number;
}

/**
 * Takes up to `lote` unread replies (clasificacion null), oldest first: those after `desde`, or
 * only `ids` when given. On PostgreSQL they stay locked until the caller's transaction ends, and
 * rows another transaction holds are skipped (FOR UPDATE SKIP LOCKED): of two dispatchers, each
 * reply is taken by one. SQLite writes one transaction at a time.
 */
export async function tomarSinLeer(
  k: K,
  engine: Engine,
  o: { desde?: number; ids?: readonly number[]; lote: number },
): Promise<SinLeer[]> {
  if (o.ids && o.ids.length === 0) return [];
  let q = k
    .selectFrom('respuestas_recibidas')
    .select([
      'id_respuesta',
      'id_equipo',
      'canal',
      'telefono',
      'id_telefono',
      'texto',
      'fecha_recibida',
    ])
    .where('clasificacion', 'is', null);
  if (o.ids) q = q.where('id_respuesta', 'in', [...o.ids]);
  else q = q.where('id_respuesta', '>', o.desde ?? 0);
  q = q.orderBy('id_respuesta').limit(o.lote);
  if (engine === 'postgres') q = q.forUpdate().skipLocked();
  const filas = await q.execute();
  return filas.map((f) => ({
    ...f,
    id_respuesta: Number(f.id_respuesta),
    fecha_recibida: Number(f.fecha_recibida),
  }));
}

/** The ids of unread replies after `desde` (no lock): the one-by-one retry of a failed batch. */
export async function idsSinLeer(k: K, desde: number, lote: number): Promise<number[]> {
  const filas = await k
    .selectFrom('respuestas_recibidas')
    .select('id_respuesta')
    .where('clasificacion', 'is', null)
    .where('id_respuesta', '>', desde)
    .orderBy('id_respuesta')
    .limit(lote)
    .execute();
  return filas.map((f) => Number(f.id_respuesta));
}

/** A row of a poll exercise sent to a number, with what the matching needs to pick it. */
export interface EnvioEncuestaFila {
  id_detalle: number;
  id_ejercicio: number;
  id_equipo: number;
  id_telefono: number | null;
  telefono: string;
  fecha_envio: string;
  hora_envio: string;
  terminado: number | null;
  opciones: string;
}

/**
 * The rows of started poll exercises of these devices, sent (fecha_envio and hora_envio written)
 * to these directory ids or, for senders the directory does not hold, to these numbers; of
 * exercises not ended before `desde`. Two statements (by id through ejercicio_detalle's
 * (id_telefono, id_ejercicio) index; by number only for senders without an id), whatever the
 * batch's size.
 */
export async function enviosEncuesta(
  k: K,
  o: {
    equipos: readonly number[];
    idsTelefono: readonly number[];
    telefonos: readonly string[];
    desde: number;
  },
): Promise<EnvioEncuestaFila[]> {
  if (o.equipos.length === 0) return [];
  const base = () =>
    k
      .selectFrom('ejercicio_detalle as d')
      .innerJoin('ejercicios as e', 'e.id_ejercicio', 'd.id_ejercicio')
      .innerJoin('encuestas_ejercicio as p', 'p.id_ejercicio', 'e.id_ejercicio')
      .select([
        'd.id_detalle',
        'd.id_ejercicio',
        'e.id_equipo',
        'd.id_telefono',
        'd.telefono',
        'd.fecha_envio',
        'd.hora_envio',
        'e.terminado',
        'p.opciones',
      ])
      .where('e.id_equipo', 'in', [...o.equipos])
      .where('d.fecha_envio', 'is not', null)
      .where('d.hora_envio', 'is not', null)
      .where('e.iniciado', 'is not', null)
      .where((eb) => eb.or([eb('e.terminado', 'is', null), eb('e.terminado', '>=', o.desde)]));
  const filas = [];
  for (const ids of trozos(o.idsTelefono))
    filas.push(...(await base().where('d.id_telefono', 'in', ids).execute()));
  for (const tels of trozos(o.telefonos))
    filas.push(...(await base().where('d.telefono', 'in', tels).execute()));
  return filas.map((f) => ({
    id_detalle: Number(f.id_detalle),
    id_ejercicio: f.id_ejercicio,
    id_equipo: f.id_equipo,
    id_telefono: f.id_telefono,
    telefono: f.telefono,
    fecha_envio: f.fecha_envio!,
    hora_envio: f.hora_envio!,
    terminado: f.terminado === null ? null : Number(f.terminado),
    opciones: f.opciones,
  }));
}

/** A reply already read as an option, of a person in a poll. */
export interface RespuestaOpcion {
  id_respuesta: number;
  id_ejercicio: number;
  id_detalle: number;
  fecha_recibida: number;
  clasificacion: string;
}

/** The replies read as an option ('opcion:…') of these persons (id_detalle) in these exercises,
 * oldest first. */
export async function respuestasOpcion(
  k: K,
  ejercicios: readonly number[],
  detalles: readonly number[],
): Promise<RespuestaOpcion[]> {
  if (ejercicios.length === 0 || detalles.length === 0) return [];
  const filas = [];
  for (const ds of trozos(detalles))
    filas.push(
      ...(await k
        .selectFrom('respuestas_recibidas')
        .select(['id_respuesta', 'id_ejercicio', 'id_detalle', 'fecha_recibida', 'clasificacion'])
        .where('id_ejercicio', 'in', [...ejercicios])
        .where('id_detalle', 'in', ds)
        .where('clasificacion', 'like', 'opcion:%')
        .execute()),
    );
  return filas
    .map((f) => ({
      id_respuesta: Number(f.id_respuesta),
      id_ejercicio: f.id_ejercicio!,
      id_detalle: Number(f.id_detalle),
      fecha_recibida: Number(f.fecha_recibida),
      clasificacion: f.clasificacion!,
    }))
    .sort((a, b) => a.id_respuesta - b.id_respuesta);
}

/** A reply's classification and poll, as written. */
export interface Lectura {
  id_respuesta: number;
  clasificacion: string;
  id_ejercicio: number | null;
  id_detalle: number | null;
}

/** Writes the classifications of replies still unread, one statement per POR_SENTENCIA rows
 * (WITH v AS (VALUES …) UPDATE … FROM v WHERE clasificacion IS NULL); returns the ids written (a reply read
 * meanwhile by someone else is left as it is, and is not among them). */
export async function escribirLecturas(k: K, ls: readonly Lectura[]): Promise<Set<number>> {
  const hechas = new Set<number>();
  for (const parte of trozos(ls)) {
    const valores = sql.join(
      parte.map(
        (l) =>
          sql`(cast(${l.id_respuesta} as bigint), cast(${l.clasificacion} as varchar(40)), cast(${l.id_ejercicio} as integer), cast(${l.id_detalle} as bigint))`,
      ),
    );
    const r = await sql<{ id_respuesta: number | string }>`
      with v(id, c, e, d) as (values ${valores})
      update respuestas_recibidas
      set clasificacion = v.c, id_ejercicio = v.e, id_detalle = v.d
      from v
      where respuestas_recibidas.id_respuesta = v.id
        and respuestas_recibidas.clasificacion is null
      returning respuestas_recibidas.id_respuesta`.execute(k);
    for (const f of r.rows) hechas.add(Number(f.id_respuesta));
  }
  // Issue 47.4: each reply read is told to the webhooks subscribed, in this transaction, with
  // what a receiver needs without calling back (read only when someone subscribed).
  const leidas = ls.filter((l) => hechas.has(l.id_respuesta));
  await encolarEventos(k, 'respuesta.recibida', {
    n: leidas.length,
    leer: async () => {
      const d = await datosRespuestas(
        k,
        leidas.map((l) => l.id_respuesta),
      );
      return leidas.map((l) => ({
        id_respuesta: l.id_respuesta,
        id_ejercicio: l.id_ejercicio,
        clasificacion: l.clasificacion,
        ...d.get(l.id_respuesta),
      }));
    },
  });
  return hechas;
}

/** What a webhook event says of a reply besides its ids: the channel and number it came from,
 * the person's name in the directory, its text and when it was received (ISO 8601, UTC). */
async function datosRespuestas(k: K, ids: readonly number[]) {
  const r = new Map<number, Record<string, unknown>>();
  for (const parte of trozos(ids)) {
    const filas = await k
      .selectFrom('respuestas_recibidas as r')
      .leftJoin('telefonos as t', 't.id_telefono', 'r.id_telefono')
      .select([
        'r.id_respuesta',
        'r.canal',
        'r.telefono',
        'r.texto',
        'r.fecha_recibida',
        't.nombre',
      ])
      .where('r.id_respuesta', 'in', parte)
      .execute();
    for (const f of filas)
      r.set(Number(f.id_respuesta), {
        canal: f.canal,
        telefono: f.telefono,
        nombre: f.nombre ?? null,
        texto: f.texto,
        recibida: new Date(Number(f.fecha_recibida)).toISOString(),
      });
  }
  return r;
}

/** A case to open. */
export interface CasoNuevo {
  id_ejercicio: number;
  id_detalle: number;
  id_respuesta: number;
  digito: number;
}

/**
 * Opens these cases (none for a person with another case of the exercise not attended: the
 * partial unique index, ON CONFLICT DO NOTHING; of two for one person here, the first) and
 * writes each opened one's audit row ('crear' 'caso', by `quien` or the system), in two statements per
 * POR_SENTENCIA; returns the case id by reply.
 */
export async function abrirCasos(
  k: K,
  cs: readonly CasoNuevo[],
  quien: { id_usuario: number; usuario: string } | null = null,
): Promise<Map<number, number>> {
  const abiertos = new Map<number, number>();
  for (const parte of trozos(cs)) {
    const ahora = Date.now();
    const filas = await k
      .insertInto('casos')
      .values(parte.map((c) => ({ ...c, abierto: ahora })))
      .onConflict((oc) => oc.doNothing())
      .returning(['id_caso', 'id_respuesta'])
      .execute();
    const porRespuesta = new Map(parte.map((c) => [c.id_respuesta, c]));
    const auditoria = [];
    for (const f of filas) {
      const c = porRespuesta.get(Number(f.id_respuesta))!;
      abiertos.set(c.id_respuesta, Number(f.id_caso));
      auditoria.push({
        id_usuario: quien && quien.id_usuario > 0 ? quien.id_usuario : null,
        usuario: quien?.usuario || null,
        accion: 'crear',
        entidad: 'caso',
        id_entidad: String(f.id_caso),
        detalle: JSON.stringify(c),
        fecha: ahora,
      });
    }
    if (auditoria.length) await k.insertInto('auditoria').values(auditoria).execute();
    // Issue 47.4: each case opened is told to the webhooks subscribed, in this transaction,
    // with the reply that opened it (read only when someone subscribed).
    await encolarEventos(k, 'caso.abierto', {
      n: filas.length,
      leer: async () => {
        const d = await datosRespuestas(
          k,
          filas.map((f) => Number(f.id_respuesta)),
        );
        return filas.map((f) => ({
          id_caso: Number(f.id_caso),
          ...porRespuesta.get(Number(f.id_respuesta)),
          ...d.get(Number(f.id_respuesta)),
        }));
      },
    });
  }
  return abiertos;
}

/** A list in pieces of POR_SENTENCIA. */
function trozos<T>(xs: readonly T[]): T[][] {
  const r: T[][] = [];
  for (let i = 0; i < xs.length; i += POR_SENTENCIA) r.push(xs.slice(i, i + POR_SENTENCIA));
  return r;
}
