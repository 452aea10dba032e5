import type { Db } from '../db/database.ts';
import { auditar } from '../repositories/auditoria.ts';
import type { DigitoQuiz } from './canal.ts';
import type { LlamadaVencida } from './store.ts';

// Queries both engines write the same way (Kysely); the hot paths live in store-sqlite.ts and
// store-postgres.ts.

/** Completes an active exercise with no row pendiente or en_curso; audits 'completar'. */
export async function completarSiTermino(
  db: Db,
  id_ejercicio: number,
  ahora: number,
): Promise<boolean> {
  return db.kysely.transaction().execute(async (trx) => {
    const queda = await trx
      .selectFrom('ejercicio_detalle')
      .select('id_detalle')
      .where('id_ejercicio', '=', id_ejercicio)
      .where('estatus', 'in', ['pendiente', 'en_curso'])
      .limit(1)
      .executeTakeFirst();
    if (queda) return false;
    const r = await trx
      .updateTable('ejercicios')
      .set({ completado: 1, en_proceso: 0, en_pausa: 0, terminado: ahora })
      .where('id_ejercicio', '=', id_ejercicio)
      .where('completado', '=', 0)
      .where('en_proceso', '=', 1)
      .where('en_pausa', '=', 0)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    await auditar(trx, null, 'completar', 'ejercicio', id_ejercicio, { por: 'despachador' });
    return true;
  });
}

/** Pauses a running exercise with a reason (automatic pause); audits 'pausar'. Same flags as the
 * manual pause of POST /ejercicio/pausa/ (en_proceso stays 1, en_pausa 1), so the row offers
 * resume and stop. */
export async function pausar(db: Db, id_ejercicio: number, motivo: string): Promise<boolean> {
  return db.kysely.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('ejercicios')
      .set({ en_pausa: 1, motivo_pausa: motivo })
      .where('id_ejercicio', '=', id_ejercicio)
      .where('completado', '=', 0)
      .where('en_proceso', '=', 1)
      .where('en_pausa', '=', 0)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    await auditar(trx, null, 'pausar', 'ejercicio', id_ejercicio, { por: 'despachador', motivo });
    return true;
  });
}

/** The exercise and device columns the dispatcher works with, joined from `ejercicios as j`. */
function conEquipo(db: Db) {
  return db.kysely
    .selectFrom('ejercicios as j')
    .innerJoin('equipos as e', 'e.id_equipo', 'j.id_equipo')
    .select([
      'j.id_ejercicio',
      'j.id_equipo',
      'j.accion',
      'j.puerto_ini',
      'j.puerto_fin',
      'e.alias',
      'e.url',
      'e.protocolo',
      'e.tasa',
      'e.credenciales',
      'j.id_tipo_ejercicio',
      'j.tiempo',
      'j.reintentos',
      'j.espera_reintento',
      'e.marcado',
      (eb) =>
        eb
          .selectFrom('preguntas as p')
          .innerJoin('cuestionarios as c', 'c.id_cuestionario', 'p.id_cuestionario')
          .select((e2) => e2.fn.countAll<number>().as('n'))
          .whereRef('c.id_ejercicio', '=', 'j.id_ejercicio')
          .as('preguntas'),
    ]);
}

/** Active exercises of the given protocols, with their device. */
export async function ejerciciosActivos(db: Db, protocolos: readonly string[]) {
  if (protocolos.length === 0) return [];
  const filas = await conEquipo(db)
    .where('j.completado', '=', 0)
    .where('j.en_proceso', '=', 1)
    .where('j.en_pausa', '=', 0)
    .where('e.protocolo', 'in', [...protocolos])
    .orderBy('j.id_ejercicio')
    .execute();
  return filas.map(aEjercicioActivo);
}

/** An active exercise row (with its device's columns) as the dispatcher works it. */
export function aEjercicioActivo<
  F extends { puerto_ini: unknown; puerto_fin: unknown; tasa: unknown; preguntas: unknown },
>({ puerto_ini, puerto_fin, tasa, preguntas, ...f }: F) {
  return {
    ...f,
    tasa: Number(tasa),
    preguntas: Number(preguntas ?? 0),
    puertos: Math.max(1, Number(puerto_fin) - Number(puerto_ini) + 1),
  };
}

/** True when the exercise was stopped (completado 1). */
export async function detenido(db: Db, id_ejercicio: number): Promise<boolean> {
  const f = await db.kysely
    .selectFrom('ejercicios')
    .select('completado')
    .where('id_ejercicio', '=', id_ejercicio)
    .executeTakeFirst();
  return f?.completado === 1;
}

/** Stores quiz digits; a later digit for the same recipient and question replaces the earlier. */
export async function guardarDigitos(db: Db, ds: readonly DigitoQuiz[]): Promise<void> {
  if (!ds.length) return;
  // The last event per (recipient, question) wins within the batch, then over what is stored.
  const ultimos = new Map<string, DigitoQuiz>();
  for (const d of ds) ultimos.set(`${d.id_detalle}:${d.numero}`, d);
  await db.kysely
    .insertInto('quiz_respuestas')
    .values([...ultimos.values()])
    .onConflict((oc) =>
      oc.columns(['id_detalle', 'numero']).doUpdateSet((eb) => ({
        digito: eb.ref('excluded.digito'),
        fecha: eb.ref('excluded.fecha'),
      })),
    )
    .execute();
}

/** Rows en_curso of devices of `protocolos` whose lease ended before `ahora` (every one at a
 * start with `ahora` = MAX_SAFE_INTEGER), with their exercise, device and stored quiz answers. */
export async function llamadasVencidas(
  db: Db,
  ahora: number,
  protocolos: readonly string[],
): Promise<LlamadaVencida[]> {
  if (!protocolos.length) return [];
  const filas = await db.kysely
    .selectFrom('ejercicio_detalle as d')
    .innerJoin('ejercicios as j', 'j.id_ejercicio', 'd.id_ejercicio')
    .innerJoin('equipos as e', 'e.id_equipo', 'j.id_equipo')
    .select(['d.id_detalle', 'd.id_ejercicio', 'd.telefono', 'd.intentos', 'd.id_gateway'])
    .where('d.estatus', '=', 'en_curso')
    .where('d.lease_hasta', '<', ahora)
    .where('e.protocolo', 'in', [...protocolos])
    .execute();
  if (!filas.length) return [];
  const ids = [...new Set(filas.map((f) => f.id_ejercicio))];
  const ejercicios = new Map(
    (await conEquipo(db).where('j.id_ejercicio', 'in', ids).execute())
      .map(aEjercicioActivo)
      .map((e) => [e.id_ejercicio, e]),
  );
  const respondidas = new Map<number, number[]>();
  for (let i = 0; i < filas.length; i += 1000) {
    const lote = filas.slice(i, i + 1000).map((f) => f.id_detalle);
    const rs = await db.kysely
      .selectFrom('quiz_respuestas')
      .select(['id_detalle', 'numero'])
      .where('id_detalle', 'in', lote)
      .execute();
    for (const r of rs)
      respondidas.set(r.id_detalle, [...(respondidas.get(r.id_detalle) ?? []), r.numero]);
  }
  return filas.map((fila) => ({
    fila,
    ej: ejercicios.get(fila.id_ejercicio)!,
    respondidas: respondidas.get(fila.id_detalle) ?? [],
  }));
}

/** Binds each row still en_curso to the gateway id its send is about to use (written before the
 * call is placed: a row left in flight without it was never dialled). */
export async function anunciar(
  db: Db,
  filas: readonly { id_detalle: number; id_gateway: string }[],
  ahora: number,
): Promise<void> {
  if (!filas.length) return;
  await db.kysely.transaction().execute(async (trx) => {
    for (const f of filas)
      await trx
        .updateTable('ejercicio_detalle')
        .set({ id_gateway: f.id_gateway, actualizado: ahora })
        .where('id_detalle', '=', f.id_detalle)
        .where('estatus', '=', 'en_curso')
        .execute();
  });
}

/** Extends the lease of rows still en_curso (live calls followed again after a crash). */
export async function prorrogar(
  db: Db,
  ids: readonly number[],
  hasta: number,
  ahora: number,
): Promise<void> {
  for (let i = 0; i < ids.length; i += 1000)
    await db.kysely
      .updateTable('ejercicio_detalle')
      .set({ lease_hasta: hasta, actualizado: ahora })
      .where('id_detalle', 'in', ids.slice(i, i + 1000))
      .where('estatus', '=', 'en_curso')
      .execute();
}

/** Rows still en_curso become 'incierto' with `motivo` (never called again automatically). */
export async function marcarInciertas(
  db: Db,
  ids: readonly number[],
  motivo: string,
  ahora: number,
): Promise<void> {
  for (let i = 0; i < ids.length; i += 1000)
    await db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'incierto', motivo, lease_hasta: null, actualizado: ahora })
      .where('id_detalle', 'in', ids.slice(i, i + 1000))
      .where('estatus', '=', 'en_curso')
      .execute();
}
