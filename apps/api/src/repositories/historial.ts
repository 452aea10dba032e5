import { sql, type Kysely } from 'kysely';
import { CANALES_BAJA } from '@pregon/contract/rules/bajas';
import type { DB } from '@pregon/db/schema';

// SQL of a phone's history (issue 25.4): its recipient rows across every exercise, read through
// the (id_telefono, id_ejercicio) index, newest exercise first.

/** Recipient rows of phone `id`, newest exercise first, one page. */
export function paginaHistorial(k: Kysely<DB>, id: number, limit: number, offset: number) {
  return (
    k
      .selectFrom('ejercicio_detalle as d')
      .innerJoin('ejercicios as e', 'e.id_ejercicio', 'd.id_ejercicio')
      // A drill's fallback SMS (issue 25.2) lives in a hidden companion: named by its drill.
      .leftJoin('ejercicios as o', 'o.id_ejercicio', 'e.respaldo_de')
      .select([
        'd.id_detalle',
        'd.id_ejercicio',
        'e.respaldo_de',
        (eb) => eb.fn.coalesce('o.titulo', 'e.titulo').as('titulo'),
        'e.id_tipo_ejercicio',
        'e.tiempo',
        'd.fecha_envio',
        'd.hora_envio',
        'd.estatus',
        'd.alcance',
        'd.intentos',
        'd.duracion',
        'd.respondidas',
        (eb) =>
          eb
            .selectFrom('preguntas as p')
            .innerJoin('cuestionarios as c', 'c.id_cuestionario', 'p.id_cuestionario')
            .select((x) => x.fn.countAll<number>().as('n'))
            .whereRef('c.id_ejercicio', '=', 'd.id_ejercicio')
            .as('preguntas'),
      ])
      .where('d.id_telefono', '=', id)
      .orderBy('d.id_ejercicio', 'desc')
      .orderBy('d.id_detalle', 'desc')
      .limit(limit)
      .offset(offset)
      .execute()
  );
}

/** How many recipient rows phone `id` has (an index-only count). */
export async function contarHistorial(k: Kysely<DB>, id: number): Promise<number> {
  const r = await k
    .selectFrom('ejercicio_detalle')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id_telefono', '=', id)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The quiz answers of these recipient rows: question number, digit and the answer's text. */
export function respuestasDe(k: Kysely<DB>, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return k
    .selectFrom('quiz_respuestas as q')
    .leftJoin('cuestionarios as c', 'c.id_ejercicio', 'q.id_ejercicio')
    .leftJoin('preguntas as p', (j) =>
      j.onRef('p.id_cuestionario', '=', 'c.id_cuestionario').onRef('p.numero', '=', 'q.numero'),
    )
    .leftJoin('respuestas as r', (j) =>
      j.onRef('r.id_pregunta', '=', 'p.id_pregunta').onRef('r.digito', '=', 'q.digito'),
    )
    .select(['q.id_detalle', 'q.numero', 'q.digito', 'r.respuesta'])
    .where('q.id_detalle', 'in', [...ids])
    .orderBy('q.id_detalle')
    .orderBy('q.numero')
    .execute();
}

/** The earliest send ('YYYY-MM-DD HH:MM:SS' in the product's time zone) among phone `id`'s first
 * `n` recipient rows in the history's order, or null when none of them was sent: where a page of
 * the history begins in time, so its replies can be laid beside its sends. */
export async function primerEnvio(k: Kysely<DB>, id: number, n: number): Promise<string | null> {
  if (n <= 0) return null;
  const r = await k
    .selectFrom(
      k
        .selectFrom('ejercicio_detalle as d')
        .select(['d.fecha_envio', 'd.hora_envio'])
        .where('d.id_telefono', '=', id)
        .orderBy('d.id_ejercicio', 'desc')
        .orderBy('d.id_detalle', 'desc')
        .limit(n)
        .as('p'),
    )
    .select(sql<string | null>`min(p.fecha_envio || ' ' || p.hora_envio)`.as('m'))
    .executeTakeFirst();
  return r?.m ?? null;
}

/** Replies from phone `id` received in [desde, hasta) (either bound open when null), newest
 * first, at most `limit`, with the title and poll of the exercise each matched. */
export function respuestasRecibidas(
  k: Kysely<DB>,
  id: number,
  desde: number | null,
  hasta: number | null,
  limit: number,
) {
  let q = k
    .selectFrom('respuestas_recibidas as r')
    .leftJoin('ejercicios as e', 'e.id_ejercicio', 'r.id_ejercicio')
    .leftJoin('encuestas_ejercicio as p', 'p.id_ejercicio', 'r.id_ejercicio')
    .select([
      'r.id_respuesta',
      'r.fecha_recibida',
      'r.canal',
      'r.texto',
      'r.clasificacion',
      'r.id_ejercicio',
      'e.titulo',
      'p.opciones',
    ])
    .where('r.id_telefono', '=', id);
  if (desde !== null) q = q.where('r.fecha_recibida', '>=', desde);
  if (hasta !== null) q = q.where('r.fecha_recibida', '<', hasta);
  return q
    .orderBy('r.fecha_recibida', 'desc')
    .orderBy('r.id_respuesta', 'desc')
    .limit(limit)
    .execute();
}

/** The opt-out lists number `telefono` is on (read by the lists' unique (canal, telefono)). */
export function bajasDe(k: Kysely<DB>, telefono: string) {
  return k
    .selectFrom('bajas')
    .select(['canal', 'fecha', 'origen', 'texto', 'usuario'])
    .where('canal', 'in', [...CANALES_BAJA])
    .where('telefono', '=', telefono)
    .orderBy('canal')
    .execute();
}
