import { sql, type RawBuilder } from 'kysely';
import type { Db } from '@pregon/db/database';
import { abrirCola, enCola, partesDeLaCola, pisosPorEjercicio } from '@pregon/db/cola';
import { BANDERAS_EN_CURSO, TRANSICIONES } from '@pregon/contract/rules/ciclo-ejercicio';
import type { DigitoQuiz, RespuestaEntrante } from './canal.ts';
import type { Anfitrion } from './anfitrion.ts';
import { storeRecibos } from './store-recibos.ts';
import { cerrarPartesVencidas, guardarRespuesta } from './store-respuestas.ts';
import { storeSueltos } from './store-sueltos.ts';
import type { Desenlace, LlamadaVencida } from './store.ts';

// Queries both engines write the same way (Kysely); the hot paths live in store-sqlite.ts and
// store-postgres.ts.

/** The exercises that run as one (issue 25.2): a drill and its fallback companion, drill first;
 * [id] alone for any other exercise. */
async function familia(
  k: Db['kysely'],
  id_ejercicio: number,
): Promise<{ raiz: number; ids: number[] }> {
  const e = await k
    .selectFrom('ejercicios')
    .select(['respaldo_de'])
    .where('id_ejercicio', '=', id_ejercicio)
    .executeTakeFirst();
  const raiz = e?.respaldo_de ?? id_ejercicio;
  const companeros = await k
    .selectFrom('ejercicios')
    .select('id_ejercicio')
    .where('respaldo_de', '=', raiz)
    .execute();
  return { raiz, ids: [raiz, ...companeros.map((c) => c.id_ejercicio)] };
}

/** Completes an active exercise with no row pendiente or en_curso; audits 'completar' (through
 * the host's port). A drill with a fallback completes with its companion, when neither has such
 * rows (issue 25.2). */
export async function completarSiTermino(
  db: Db,
  id_ejercicio: number,
  ahora: number,
  anfitrion: Pick<Anfitrion, 'auditar'>,
): Promise<boolean> {
  return db.kysely.transaction().execute(async (trx) => {
    const { raiz, ids } = await familia(trx, id_ejercicio);
    // Whether any row of the family is still queued, asked in ONE statement: on PostgreSQL
    // (READ COMMITTED) each statement has its own snapshot, and a row moves between the two
    // states at any moment (a claim: pendiente → en_curso; a release or the lease sweep of a dead
    // dispatcher's rows: en_curso → pendiente). Two look-ups could each miss it, the row having
    // moved between them, and the drill would complete with it still pending, never sent. One
    // snapshot sees every row in one state or the other, and nothing enters the queue from
    // outside it (a fallback row goes in with the commit that takes its drill row out).
    // The queue's first row by position, for each exercise (coalesce stops at the first found):
    // a scan of each of the queue's partial indexes in its own order (db/cola.ts) reads one
    // entry. Without the order, PostgreSQL, with the statistics `generar` leaves (every row
    // pending), scans the table from its start, past every row already sent.
    const primera = (id: number, parte: RawBuilder<boolean>) =>
      trx
        .selectFrom('ejercicio_detalle')
        .select('posicion')
        .where('id_ejercicio', '=', id)
        .where(parte)
        .orderBy('posicion')
        .limit(1);
    const primeras = ids.flatMap((id) => partesDeLaCola(db.engine).map((p) => primera(id, p)));
    const { queda } = await trx
      .selectNoFrom((eb) => eb.fn<number | null>('coalesce', primeras).as('queda'))
      .executeTakeFirstOrThrow();
    if (queda !== null) return false;
    const r = await trx
      .updateTable('ejercicios')
      // The lifecycle's 'terminar' (rules/ciclo-ejercicio.ts): only from running.
      .set({ ...TRANSICIONES.terminar.cambios, terminado: ahora })
      .where('id_ejercicio', 'in', ids)
      .where((eb) => eb.and(BANDERAS_EN_CURSO))
      .returning('id_ejercicio')
      .execute();
    if (!r.some((x) => x.id_ejercicio === raiz)) return false;
    await anfitrion.auditar(trx, 'completar', raiz, { por: 'despachador' });
    return true;
  });
}

/** Pauses a running exercise with a reason (automatic pause); audits 'pausar' (through the host's
 * port). Same flags as the manual pause of POST /ejercicio/pausa/ (en_proceso stays 1, en_pausa 1), so the row offers
 * resume and stop. A paused exercise waits for nothing: its waiting note goes in the same write,
 * so no reader sees it paused and still 'En espera'. */
export async function pausar(
  db: Db,
  id_ejercicio: number,
  motivo: string,
  anfitrion: Pick<Anfitrion, 'auditar'>,
): Promise<boolean> {
  return db.kysely.transaction().execute(async (trx) => {
    // A drill and its fallback companion pause together (issue 25.2), whichever device failed.
    const { raiz, ids } = await familia(trx, id_ejercicio);
    const r = await trx
      .updateTable('ejercicios')
      // The lifecycle's 'pausa_automatica' (rules/ciclo-ejercicio.ts): only from running.
      .set({ ...TRANSICIONES.pausa_automatica.cambios, motivo_pausa: motivo })
      .where('id_ejercicio', 'in', ids)
      .where((eb) => eb.and(BANDERAS_EN_CURSO))
      .returning('id_ejercicio')
      .execute();
    if (!r.some((x) => x.id_ejercicio === raiz)) return false;
    await anfitrion.auditar(trx, 'pausar', raiz, { por: 'despachador', motivo });
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
      'e.puertos as puertos_equipo',
      'e.credenciales',
      'j.id_tipo_ejercicio',
      'j.tiempo',
      'j.reintentos',
      'j.vigencia',
      'j.espera_reintento',
      'j.espera_equipo_s',
      'e.marcado',
      'j.ventana_inicio',
      'j.ventana_fin',
      'j.respaldo_de',
      (eb) =>
        eb
          .selectFrom('ejercicios as r')
          .select('r.id_ejercicio')
          .whereRef('r.respaldo_de', '=', 'j.id_ejercicio')
          .limit(1)
          .as('respaldo'),
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

/** Exercises of the given protocols that no worker runs (paused, stopped or completed), started
 * since `desde`, with rows still 'enviado' without a receipt: sent before this dispatcher started,
 * their messages may still wait at the gateway (a pause or stop no dispatcher was there to pass
 * on) or still have a state to report. `retener` says a pause or stop: what is queued goes back. */
export async function ejerciciosConEnviados(db: Db, protocolos: readonly string[], desde: number) {
  if (protocolos.length === 0) return [];
  const filas = await conEquipo(db)
    .select(['j.en_pausa', 'j.detenido'])
    .where('e.protocolo', 'in', [...protocolos])
    .where('j.iniciado', '>=', desde)
    .where((eb) =>
      eb.or([eb('j.completado', '=', 1), eb('j.en_pausa', '=', 1), eb('j.en_proceso', '=', 0)]),
    )
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('ejercicio_detalle as d')
          .select('d.id_detalle')
          .whereRef('d.id_ejercicio', '=', 'j.id_ejercicio')
          .where('d.estatus', '=', 'enviado')
          .where('d.recibida', '=', 0),
      ),
    )
    .orderBy('j.id_ejercicio')
    .execute();
  return filas.map(({ en_pausa, detenido, ...f }) => ({
    ...aEjercicioActivo(f),
    retener: Number(en_pausa) === 1 || Number(detenido) === 1,
  }));
}

/** Most ids a dispatcher loads at start to match receipts in another form (IndiceIds' bound). */
const MAX_IDS_ESPERANDO = 100_000;

/** The submit ids of a device still awaiting a receipt, in exercises started since `desde`: each
 * 'enviado' row's own id and each undelivered part of a long text (sms_partes). A dispatcher that
 * starts indexes them, so a receipt quoting one in another form (decimal for hex, other zeros)
 * still finds its row. */
export async function idsEsperandoAcuse(
  db: Db,
  id_equipo: number,
  desde: number,
): Promise<string[]> {
  const recientes = (
    await db.kysely
      .selectFrom('ejercicios')
      .select('id_ejercicio')
      .where('id_equipo', '=', id_equipo)
      .where('iniciado', '>=', desde)
      .execute()
  ).map((j) => j.id_ejercicio);
  if (recientes.length === 0) return [];
  const filas = await db.kysely
    .selectFrom('ejercicio_detalle as d')
    .select('d.id_gateway as id')
    .where('d.estatus', '=', 'enviado')
    .where('d.recibida', '=', 0)
    .where('d.id_gateway', 'is not', null)
    .where('d.id_ejercicio', 'in', recientes)
    .limit(MAX_IDS_ESPERANDO)
    .execute();
  const partes = await db.kysely
    .selectFrom('sms_partes as p')
    .innerJoin('ejercicio_detalle as d', 'd.id_detalle', 'p.id_detalle')
    .select('p.id_parte as id')
    .where('p.id_equipo', '=', id_equipo)
    .where('p.estado', 'is', null)
    .where('d.estatus', '=', 'enviado')
    .where('d.id_ejercicio', 'in', recientes)
    .limit(MAX_IDS_ESPERANDO)
    .execute();
  // A long text's row holds its first part's id and the count ('…+4'): its parts stand for it.
  return [...filas.map((f) => f.id!).filter((id) => !id.includes('+')), ...partes.map((p) => p.id)];
}

/** Devices of the given protocols with rows still 'enviado' (awaiting their receipt) in exercises
 * started since `desde`, or with a poll exercise started since then (issue 46.5: its replies may
 * still come, and an SMSC holds them until a session binds, receipts or not): a dispatcher that
 * starts binds to them so the gateway can deliver what it held meanwhile. One look-up per recent
 * exercise (detalle_ejercicio_id: no index holds the rows awaiting a receipt, so a receipt
 * touches none; migration 0030). */
export async function equiposEsperandoAcuses(db: Db, protocolos: readonly string[], desde: number) {
  if (protocolos.length === 0) return [];
  return db.kysely
    .selectFrom('equipos as e')
    .select(['e.id_equipo', 'e.alias', 'e.url', 'e.protocolo', 'e.credenciales'])
    .where('e.protocolo', 'in', [...protocolos])
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('ejercicios as j')
          .select('j.id_ejercicio')
          .whereRef('j.id_equipo', '=', 'e.id_equipo')
          .where('j.iniciado', '>=', desde)
          .where(({ exists: existe, selectFrom: de, or }) =>
            or([
              existe(
                de('ejercicio_detalle as d')
                  .select('d.id_detalle')
                  .whereRef('d.id_ejercicio', '=', 'j.id_ejercicio')
                  .where('d.estatus', '=', 'enviado'),
              ),
              existe(
                de('encuestas_ejercicio as p')
                  .select('p.id_ejercicio')
                  .whereRef('p.id_ejercicio', '=', 'j.id_ejercicio'),
              ),
            ]),
          ),
      ),
    )
    .execute();
}

/** An active exercise row (with its device's columns) as the dispatcher works it. */
export function aEjercicioActivo<
  F extends {
    puerto_ini: unknown;
    puerto_fin: unknown;
    tasa: unknown;
    puertos_equipo: unknown;
    preguntas: unknown;
  },
>({ puerto_ini, puerto_fin, tasa, puertos_equipo, preguntas, ...f }: F) {
  return {
    ...f,
    tasa: Number(tasa),
    puertos_equipo: Math.max(1, Number(puertos_equipo)),
    preguntas: Number(preguntas ?? 0),
    puertos: Math.max(1, Number(puerto_fin) - Number(puerto_ini) + 1),
    puerto_ini: Number(puerto_ini),
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

/** Rows left 'pendiente' in exercises stopped since `desde` become 'cancelado', as the stop made
 * the rest; returns the exercises changed. A stop cancels the rows pending when it runs, but a
 * row in flight then can come back to the queue after it: an outcome that schedules a retry (the
 * worker has not seen the stop yet), a release, or the lease sweep whose snapshot was taken before
 * the stop committed. Nothing claims a stopped exercise's rows, so without this such a row would
 * read 'pendiente' for ever. One stopped exercise at a time, its first rows by position from the
 * queue's partial index (the order keeps PostgreSQL on it: the statistics `generar` left call
 * every row of the exercise pending, and a join over all of them chose a scan of the table). */
export async function cancelarTrasDetener(db: Db, ahora: number, desde: number): Promise<number[]> {
  const detenidos = await db.kysely
    .selectFrom('ejercicios')
    .select('id_ejercicio')
    .where('detenido', '=', 1)
    .where('terminado', '>=', desde)
    .execute();
  const cambiados: number[] = [];
  for (const { id_ejercicio } of detenidos) {
    const r = await db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'cancelado', actualizado: ahora })
      .where('id_detalle', 'in', (eb) =>
        eb
          .selectFrom('ejercicio_detalle')
          .select('id_detalle')
          .where('id_ejercicio', '=', id_ejercicio)
          .where(enCola('pendiente'))
          .orderBy('posicion')
          .limit(1_000),
      )
      .where('estatus', '=', 'pendiente')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) > 0) cambiados.push(id_ejercicio);
  }
  return cambiados;
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
    .select([
      'd.id_detalle',
      'd.id_ejercicio',
      'd.telefono',
      'd.intentos',
      'd.id_gateway',
      'd.contestada_en',
    ])
    .where(enCola('en_curso', 'd'))
    .where('d.salio', '=', 1)
    .where('d.lease_hasta', '<', ahora)
    .where('e.protocolo', 'in', [...protocolos])
    .execute();
  return conContexto(db, filas);
}

/** Calls past their lease (llamadasVencidas' rows) with their exercise, device and stored quiz
 * answers. */
export async function conContexto(
  db: Db,
  filas: readonly LlamadaVencida['fila'][],
): Promise<LlamadaVencida[]> {
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

/** Calls answered: keeps the moment on rows still en_curso (a call followed again after a restart
 * counts its talk time from it). */
export async function contestadas(
  db: Db,
  filas: readonly { id_detalle: number; en: number }[],
): Promise<void> {
  if (!filas.length) return;
  await db.kysely.transaction().execute(async (trx) => {
    for (const f of filas)
      await trx
        .updateTable('ejercicio_detalle')
        .set({ contestada_en: f.en })
        .where('id_detalle', '=', f.id_detalle)
        .where('estatus', '=', 'en_curso')
        .execute();
  });
}

/** Devices whose gateway answered a send: their last contact (equipos.ultimo_contacto) moves
 * forward to that moment, never back (issue 26.7: only test sends updated it). */
export async function tocarEquipos(db: Db, contactos: ReadonlyMap<number, number>): Promise<void> {
  for (const [id_equipo, en] of contactos)
    await db.kysely
      .updateTable('equipos')
      .set({ ultimo_contacto: en })
      .where('id_equipo', '=', id_equipo)
      .where((w) => w.or([w('ultimo_contacto', 'is', null), w('ultimo_contacto', '<', en)]))
      .execute();
}

/** The dispatcher's waiting note on an exercise (its gateway cannot be reached), or null. */
export async function marcarEspera(db: Db, id_ejercicio: number, texto: string | null) {
  let q = db.kysely
    .updateTable('ejercicios')
    .set({ en_espera: texto })
    .where('id_ejercicio', '=', id_ejercicio);
  // Clearing is asked often (each worker's start): write only when there is something to clear.
  if (texto === null) q = q.where('en_espera', 'is not', null);
  await q.execute();
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

/** This database's installation id (migration 0011 writes it). */
export async function instalacion(db: Db): Promise<string> {
  const f = await db.kysely
    .selectFrom('ajustes')
    .select('valor')
    .where('clave', '=', 'instalacion')
    .executeTakeFirstOrThrow();
  return f.valor;
}

/** Rows of the exercise 'enviado' without a receipt, with their gateway id. */
export async function enviadosSinRecibo(
  db: Db,
  id_ejercicio: number,
): Promise<{ id_detalle: number; id_gateway: string }[]> {
  const filas = await db.kysely
    .selectFrom('ejercicio_detalle')
    .select(['id_detalle', 'id_gateway'])
    .where('id_ejercicio', '=', id_ejercicio)
    .where('estatus', '=', 'enviado')
    .where('recibida', '=', 0)
    .where('id_gateway', 'is not', null)
    .orderBy('posicion')
    .execute();
  return filas.map((f) => ({ id_detalle: Number(f.id_detalle), id_gateway: f.id_gateway! }));
}

/** Rows still 'enviado' without a receipt whose message the gateway cancelled: 'pendiente' again
 * (or 'cancelado' when the exercise was stopped), attempt undone, bound to their next id. */
export async function reponerCancelados(
  db: Db,
  filas: readonly { id_detalle: number; id_gateway: string }[],
  ahora: number,
): Promise<number> {
  if (!filas.length) return 0;
  return db.kysely.transaction().execute(async (trx) => {
    // (the rows go back to the queue at their own positions, below the claim's floor)
    const vueltas: { id_ejercicio: number; posicion: number }[] = [];
    for (const f of filas) {
      const r = await trx
        .updateTable('ejercicio_detalle')
        .set((eb) => ({
          estatus: eb
            .case()
            .when(
              eb
                .selectFrom('ejercicios as j')
                .select('j.completado')
                .whereRef('j.id_ejercicio', '=', 'ejercicio_detalle.id_ejercicio'),
              '=',
              1,
            )
            .then('cancelado')
            .else('pendiente')
            .end(),
          id_gateway: f.id_gateway,
          intentos: sql<number>`case when intentos > 0 then intentos - 1 else 0 end`,
          fecha_envio: null,
          hora_envio: null,
          siguiente_intento: null,
          motivo: null,
          actualizado: ahora,
        }))
        .where('id_detalle', '=', f.id_detalle)
        .where('estatus', '=', 'enviado')
        .where('recibida', '=', 0)
        .returning(['id_ejercicio', 'posicion'])
        .executeTakeFirst();
      if (r) vueltas.push(r);
    }
    for (const [id_ejercicio, posicion] of pisosPorEjercicio(vueltas))
      await abrirCola(trx, db.engine, id_ejercicio, posicion);
    return vueltas.length;
  });
}

/** Issue 46 (throughput): stores a reply and answers as soon as it is durably kept (the SMPP
 * simulator's deliver_sm_resp follows), leaving its matching (the host's port) to a pass started
 * now in the background; a matching failure is left to the sweep (cerrarYLeer), the reply being
 * stored. */
async function guardarYLeerLuego(
  db: Db,
  anfitrion: Anfitrion,
  r: RespuestaEntrante,
  ahora: number,
) {
  const res = await guardarRespuesta(db, r, ahora);
  if (res === 'nueva') void anfitrion.leerRespuestas(db).catch(() => undefined);
  return res;
}

/** Closes the long replies whose parts stopped coming (cerrarPartesVencidas) and matches every
 * reply still unread; a matching error rejects, and the dispatcher logs it. */
async function cerrarYLeer(db: Db, anfitrion: Anfitrion, ahora: number): Promise<number> {
  const n = await cerrarPartesVencidas(db, ahora);
  await anfitrion.leerRespuestas(db);
  return n;
}

/** The Store operations both engines run the same way (Kysely), bound to a database and to the
 * host's ports (audit rows, reply matching). */
export function comunes(db: Db, anfitrion: Anfitrion) {
  return {
    completarSiTermino: (id: number, ahora: number) => completarSiTermino(db, id, ahora, anfitrion),
    guardarDigitos: (ds: Parameters<typeof guardarDigitos>[1]) => guardarDigitos(db, ds),
    guardarRespuesta: (r: RespuestaEntrante, ahora: number) =>
      guardarYLeerLuego(db, anfitrion, r, ahora),
    cerrarPartesVencidas: (ahora: number) => cerrarYLeer(db, anfitrion, ahora),
    sueltos: storeSueltos(db),
    ...storeRecibos(db),
    detenido: (id: number) => detenido(db, id),
    cancelarTrasDetener: (ahora: number, desde: number) => cancelarTrasDetener(db, ahora, desde),
    equiposEsperandoAcuses: (protocolos: readonly string[], desde: number) =>
      equiposEsperandoAcuses(db, protocolos, desde),
    idsEsperandoAcuse: (id_equipo: number, desde: number) =>
      idsEsperandoAcuse(db, id_equipo, desde),
    ejerciciosConEnviados: (protocolos: readonly string[], desde: number) =>
      ejerciciosConEnviados(db, protocolos, desde),
    llamadasVencidas: (ahora: number, protocolos: readonly string[]) =>
      llamadasVencidas(db, ahora, protocolos),
    prorrogar: (ids: Parameters<typeof prorrogar>[1], hasta: number, ahora: number) =>
      prorrogar(db, ids, hasta, ahora),
    contestadas: (filas: Parameters<typeof contestadas>[1]) => contestadas(db, filas),
    marcarEspera: (id: number, texto: string | null) => marcarEspera(db, id, texto),
    tocarEquipos: (contactos: ReadonlyMap<number, number>) => tocarEquipos(db, contactos),
    instalacion: () => instalacion(db),
    enviadosSinRecibo: (id: number) => enviadosSinRecibo(db, id),
    reponerCancelados: (filas: Parameters<typeof reponerCancelados>[1], ahora: number) =>
      reponerCancelados(db, filas, ahora),
    marcarInciertas: (ids: Parameters<typeof marcarInciertas>[1], motivo: string, ahora: number) =>
      marcarInciertas(db, ids, motivo, ahora),
    pausar: (id: number, motivo: string) => pausar(db, id, motivo, anfitrion),
    zonasEstados: () =>
      db.kysely.selectFrom('estados').select(['id_estado', 'estado', 'zona_horaria']).execute(),
  };
}

/** The sms_partes rows of a batch of outcomes: [id_equipo, id_parte, id_detalle, parte, total,
 * estado] for every part the SMSC took (a part it refused has no id). */
export function filasPartes(ds: readonly Desenlace[]) {
  return ds.flatMap((d) =>
    (d.partes?.ids ?? []).flatMap((id, i) =>
      id
        ? [
            [
              d.partes!.id_equipo,
              id,
              d.id_detalle,
              i + 1,
              d.partes!.ids.length,
              d.partes!.estados?.[i] ?? null,
            ] as const,
          ]
        : [],
    ),
  );
}

/** Parts of a long SMS whose receipt, folded before the write, said delivered. */
export const partesEntregadas = (d: Desenlace) =>
  d.partes?.estados?.filter((e) => e === 'entregado').length ?? 0;
