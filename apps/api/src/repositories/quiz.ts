import type pg from 'pg';
import { deCopia, enteroCopia, lotesCopia } from '@pregon/db/copia-pg';
import type { Consultor } from './ejercicios.ts';

// Every query of questionnaires (cuestionarios, preguntas, respuestas) and of the digits
// recipients pressed (quiz_respuestas).

/** The questionnaire of an exercise, or undefined. */
export async function cuestionarioDeEjercicio(k: Consultor, id_ejercicio: number) {
  return k
    .selectFrom('cuestionarios')
    .selectAll()
    .where('id_ejercicio', '=', id_ejercicio)
    .executeTakeFirst();
}

/** A questionnaire by id, or undefined. */
export async function obtenerCuestionario(k: Consultor, id_cuestionario: number) {
  return k
    .selectFrom('cuestionarios')
    .selectAll()
    .where('id_cuestionario', '=', id_cuestionario)
    .executeTakeFirst();
}

/** Creates an empty questionnaire for the exercise; returns its id. */
export async function crearCuestionario(k: Consultor, id_ejercicio: number, ahora: number) {
  const fila = await k
    .insertInto('cuestionarios')
    .values({ id_ejercicio, creado: ahora })
    .returning('id_cuestionario')
    .executeTakeFirstOrThrow();
  return fila.id_cuestionario;
}

/** Deletes the questions (and, by cascade, their answers) of a questionnaire. */
export async function borrarPreguntas(k: Consultor, id_cuestionario: number) {
  const ids = k
    .selectFrom('preguntas')
    .select('id_pregunta')
    .where('id_cuestionario', '=', id_cuestionario);
  await k.deleteFrom('respuestas').where('id_pregunta', 'in', ids).execute();
  await k.deleteFrom('preguntas').where('id_cuestionario', '=', id_cuestionario).execute();
}

/** Inserts questions {numero, reactivo, archivo}. */
export async function insertarPreguntas(
  k: Consultor,
  id_cuestionario: number,
  preguntas: readonly { numero: number; reactivo: string; archivo: string }[],
) {
  if (preguntas.length === 0) return;
  await k
    .insertInto('preguntas')
    .values(preguntas.map((p) => ({ id_cuestionario, ...p })))
    .execute();
}

/** The questions of a questionnaire in slot order. */
export async function preguntasDe(k: Consultor, id_cuestionario: number) {
  return k
    .selectFrom('preguntas')
    .selectAll()
    .where('id_cuestionario', '=', id_cuestionario)
    .orderBy('numero')
    .execute();
}

/** The answers of every question of a questionnaire, by question then digit. */
export async function respuestasDe(k: Consultor, id_cuestionario: number) {
  return k
    .selectFrom('respuestas as r')
    .innerJoin('preguntas as p', 'p.id_pregunta', 'r.id_pregunta')
    .select(['r.id_respuesta', 'r.id_pregunta', 'p.numero', 'r.respuesta', 'r.digito'])
    .where('p.id_cuestionario', '=', id_cuestionario)
    .orderBy('p.numero')
    .orderBy('r.digito')
    .execute();
}

/** One question of a questionnaire by slot number, or undefined. */
export async function preguntaPorNumero(k: Consultor, id_cuestionario: number, numero: number) {
  return k
    .selectFrom('preguntas')
    .selectAll()
    .where('id_cuestionario', '=', id_cuestionario)
    .where('numero', '=', numero)
    .executeTakeFirst();
}

/** The answers of one question. */
export async function respuestasDePregunta(k: Consultor, id_pregunta: number) {
  return k.selectFrom('respuestas').selectAll().where('id_pregunta', '=', id_pregunta).execute();
}

/** Inserts one answer; returns its id. */
export async function insertarRespuesta(
  k: Consultor,
  valores: { id_pregunta: number; respuesta: string; digito: number },
) {
  const fila = await k
    .insertInto('respuestas')
    .values(valores)
    .returning('id_respuesta')
    .executeTakeFirstOrThrow();
  return fila.id_respuesta;
}

/** Inserts answers {id_pregunta, respuesta, digito} in one statement. */
export async function insertarRespuestas(
  k: Consultor,
  valores: readonly { id_pregunta: number; respuesta: string; digito: number }[],
) {
  if (valores.length === 0) return;
  await k
    .insertInto('respuestas')
    .values([...valores])
    .execute();
}

/** How many recipients pressed each digit of each question of the exercise. */
export async function conteoDigitos(k: Consultor, id_ejercicio: number) {
  return consultaDigitos(k, id_ejercicio).execute();
}

/** The query of conteoDigitos. */
export function consultaDigitos(k: Consultor, id_ejercicio: number) {
  return k
    .selectFrom('quiz_respuestas')
    .select(['numero', 'digito', (eb) => eb.fn.countAll<number>().as('total')])
    .where('id_ejercicio', '=', id_ejercicio)
    .groupBy(['numero', 'digito']);
}

/** Number of recipients who answered at least one question. */
export async function contarRespondientes(k: Consultor, id_ejercicio: number): Promise<number> {
  const fila = await k
    .selectFrom('ejercicio_detalle as d')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('d.id_ejercicio', '=', id_ejercicio)
    .where(({ or, eb, exists, selectFrom }) =>
      or([
        eb('d.estatus', 'in', CONTESTADAS),
        exists(
          selectFrom('quiz_respuestas as qr')
            .select('qr.id_detalle')
            .whereRef('qr.id_detalle', '=', 'd.id_detalle'),
        ),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(fila.n);
}

/** Estatus of a recipient who answered the call (Reporte 2 lists them even without answers). */
const CONTESTADAS = ['contestado', 'respondido'];

/** Questions of an exercise's questionnaire (0 when it has none). */
export async function contarPreguntas(k: Consultor, id_ejercicio: number): Promise<number> {
  const fila = await k
    .selectFrom('preguntas as p')
    .innerJoin('cuestionarios as c', 'c.id_cuestionario', 'p.id_cuestionario')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('c.id_ejercicio', '=', id_ejercicio)
    .executeTakeFirstOrThrow();
  return Number(fila.n);
}

/** Recipients who answered the call or something of it, in id_detalle order: a page (offset) or
 * a keyset batch. */
export async function respondientes(
  k: Consultor,
  id_ejercicio: number,
  pagina: { limit: number; offset?: number; despuesDe?: number },
) {
  let q = k
    .selectFrom('ejercicio_detalle as d')
    .select([
      'd.id_detalle',
      'd.telefono',
      'd.nombre',
      'd.recibida',
      'd.fecha_envio',
      'd.hora_envio',
      'd.estatus',
      'd.alcance',
      'd.respondidas',
    ])
    .where('d.id_ejercicio', '=', id_ejercicio)
    .where(({ or, eb, exists, selectFrom }) => {
      let respuestas = selectFrom('quiz_respuestas as qr')
        .select('qr.id_detalle')
        .whereRef('qr.id_detalle', '=', 'd.id_detalle');
      // Redundant for the result, not for PostgreSQL's plan: without it the merge semi-join read
      // the answers from the first one on every page (a million respondents: 280 ms a page, 6 min).
      if (pagina.despuesDe !== undefined)
        respuestas = respuestas.where('qr.id_detalle', '>', pagina.despuesDe);
      return or([eb('d.estatus', 'in', CONTESTADAS), exists(respuestas)]);
    })
    .orderBy('d.id_detalle')
    .limit(pagina.limit);
  if (pagina.despuesDe !== undefined) q = q.where('d.id_detalle', '>', pagina.despuesDe);
  if (pagina.offset) q = q.offset(pagina.offset);
  return q.execute();
}

/** The digits pressed by the given recipients. */
export async function digitosDe(k: Consultor, ids_detalle: readonly number[]) {
  if (ids_detalle.length === 0) return [];
  return k
    .selectFrom('quiz_respuestas')
    .select(['id_detalle', 'numero', 'digito'])
    .where('id_detalle', 'in', ids_detalle)
    .execute();
}

/** A respondent with the digits they pressed, as the PostgreSQL export reads them. */
export interface RespondienteConDigitos {
  persona: Awaited<ReturnType<typeof respondientes>>[number];
  /** Question number → digit pressed. */
  digitos: Map<number, number>;
}

/** The respondents of exercise `id` with their digits, in id_detalle order and batches of `tamano`,
 * read on PostgreSQL with one COPY TO (raw text, see db/copia-pg.ts) instead of two queries a page. */
export async function* respondientesPorCopia(
  pool: pg.Pool,
  id: number,
  tamano: number,
): AsyncGenerator<RespondienteConDigitos[]> {
  const consulta = `select d.id_detalle, d.telefono, d.nombre, d.recibida, d.fecha_envio, d.hora_envio,
      string_agg(qr.numero || ':' || qr.digito, ',' order by qr.numero), d.estatus, d.alcance, d.respondidas
    from ejercicio_detalle d left join quiz_respuestas qr on qr.id_detalle = d.id_detalle
    where d.id_ejercicio = ${enteroCopia(id)}
      and (d.estatus in ('contestado', 'respondido') or qr.id_detalle is not null)
    group by d.id_detalle
    order by d.id_detalle`;
  yield* lotesCopia(pool, consulta, tamano, (c): RespondienteConDigitos => ({
    persona: {
      id_detalle: Number(c[0]),
      telefono: deCopia(c[1]!)!,
      nombre: deCopia(c[2]!),
      recibida: Number(c[3]),
      fecha_envio: deCopia(c[4]!),
      hora_envio: deCopia(c[5]!),
      estatus: deCopia(c[7]!)!,
      alcance: deCopia(c[8]!),
      respondidas: deCopia(c[9]!) === null ? null : Number(c[9]),
    },
    digitos: new Map(
      (deCopia(c[6]!) ?? '')
        .split(',')
        .filter(Boolean)
        .map((par) => {
          const [numero, digito] = par.split(':');
          return [Number(numero), Number(digito)] as const;
        }),
    ),
  }));
}
