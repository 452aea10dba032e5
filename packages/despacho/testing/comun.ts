import { sql } from 'kysely';
import type { Db } from '@pregon/db/database';
import type { Detalle } from '@pregon/db/schema';
import { CONFIG_DESPACHO_DEFECTO, type ConfigDespachador } from '../src/config.ts';
import type { Desenlace, EjercicioActivo, Store } from '../src/store.ts';

// Configuration, waits and queries for the dispatcher's tests and benchmarks (the device and
// exercise factories are the api's, apps/api/testing/fabrica.ts; the standalone process's
// helpers too, apps/api/testing/despacho-hijos.ts).

/** A fast configuration for tests: short backoff, lease and polls. */
export const CONFIG_PRUEBA: ConfigDespachador = {
  ...CONFIG_DESPACHO_DEFECTO,
  backoffMs: 100,
  backoffMaxMs: 1_000,
  sondeoMs: 100,
  recuperacionMs: 500,
  leaseMs: 5_000,
  timeoutEnvioMs: 3_000,
  androidSondeoMs: 100,
  androidSondeoMaxMs: 1_000,
};

/** The outcome a gateway's acceptance writes ('enviado' with its id), for tests and benches that
 * drive a Store by hand. */
export function desenlaceEnviado(id_detalle: number, id_gateway: string): Desenlace {
  return {
    id_detalle,
    estatus: 'enviado',
    id_gateway,
    motivo: null,
    fecha_envio: '2026-01-01',
    hora_envio: '00:00:00',
    siguiente_intento: null,
    recibida: 0,
  };
}

/** Polls `f` every 50 ms until it returns a truthy value or `ms` pass (then throws with `que`
 * and what `detalle` tells of the state at that moment). */
export async function esperarQue<T>(
  f: () => Promise<T>,
  que: string,
  ms = 20_000,
  detalle?: () => Promise<unknown>,
): Promise<NonNullable<T>> {
  const fin = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v as NonNullable<T>;
    if (Date.now() > fin) {
      const d = detalle ? ` — ${JSON.stringify(await detalle().catch(String))}` : '';
      throw new Error(`No ocurrió a tiempo: ${que}${d}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The exercise's flags. */
export function banderas(db: Db, id: number) {
  return db.kysely
    .selectFrom('ejercicios')
    .select(['completado', 'en_proceso', 'en_pausa', 'motivo_pausa', 'terminado'])
    .where('id_ejercicio', '=', id)
    .executeTakeFirstOrThrow();
}

/** Waits until the exercise is completado. */
export function esperarCompletado(
  db: Db,
  id: number,
  ms = 30_000,
  detalle?: () => Promise<unknown>,
) {
  return esperarQue(
    async () => (await banderas(db, id)).completado === 1,
    `ejercicio ${id} completado`,
    ms,
    async () => ({ filas: await porEstatus(db, id), ...((await detalle?.()) ?? {}) }),
  );
}

/** Every recipient row of an exercise, in send order. */
export function filas(db: Db, id: number): Promise<Detalle[]> {
  return db.kysely
    .selectFrom('ejercicio_detalle')
    .selectAll()
    .where('id_ejercicio', '=', id)
    .orderBy('posicion')
    .execute();
}

/** Recipients per estatus. */
export async function porEstatus(db: Db, id: number): Promise<Record<string, number>> {
  const r = await db.kysely
    .selectFrom('ejercicio_detalle')
    .select(['estatus', db.kysely.fn.countAll<number>().as('n')])
    .where('id_ejercicio', '=', id)
    .groupBy('estatus')
    .execute();
  return Object.fromEntries(r.map((x) => [x.estatus, Number(x.n)]));
}

/** The plan tests' drill half-way through (both engines): of its `n` rows, positions 1..45 %
 * delivered (gateway id `g` + position), the next 5 % awaiting a receipt, then `puertos` in
 * flight, the rest pending. Returns the position just past the rows in flight. */
export async function ponerAMitad(db: Db, id: number, n: number, puertos: number) {
  const entregados = Math.floor(n * 0.45);
  const enviados = entregados + Math.floor(n * 0.05);
  await sql`update ejercicio_detalle set
      estatus = case when posicion <= cast(${entregados} as integer) then 'entregado'
        when posicion <= cast(${enviados} as integer) then 'enviado' else 'en_curso' end,
      recibida = case when posicion <= cast(${entregados} as integer) then 1 else 0 end,
      id_gateway = case when posicion <= cast(${enviados} as integer) then 'g' || posicion end,
      intentos = 1, salio = case when posicion <= cast(${enviados} as integer) then 1 else 0 end,
      lease_hasta = case when posicion > cast(${enviados} as integer)
        then cast(${Date.now() + 60_000} as bigint) end
    where id_ejercicio = ${id} and posicion <= cast(${enviados + puertos} as integer)`.execute(
    db.kysely,
  );
  return enviados + puertos;
}

/** Runs each hot operation of a store once on the drill `ponerAMitad` left (the plan tests of
 * both engines), over its first `lote` + 50 rows in flight: frees 50 and claims 50 back,
 * announces and writes the others as sent, applies their receipts with 50 of rows awaiting one
 * and 10 repeated ones, and sweeps expired leases; then puts those rows back in flight as they
 * were, for the next round (`mas` runs the engine's own operations first). `planes` is where the
 * store's handle records the plan of each statement it runs; returns them by operation, and what
 * the operations answered. */
export async function unaVueltaDelStore<P>(
  db: Db,
  store: Store,
  o: { id: number; id_equipo: number; n: number; puertos: number; lote: number },
  planes: readonly { plan: P }[],
  mas?: (
    marcar: (op: string, f: () => Promise<unknown>) => Promise<void>,
    ahora: number,
  ) => Promise<void>,
) {
  const porOp: Record<string, P[]> = {};
  const marcar = async (op: string, f: () => Promise<unknown>) => {
    const antes = planes.length;
    await f();
    porOp[op] = planes.slice(antes).map((p) => p.plan);
  };
  const filas = await db.kysely
    .selectFrom('ejercicio_detalle')
    .select(['id_detalle', 'posicion'])
    .where('id_ejercicio', '=', o.id)
    .where('estatus', '=', 'en_curso')
    .orderBy('posicion')
    .limit(o.lote + 50)
    .execute();
  const ahora = Date.now();
  const ej = { id_ejercicio: o.id, puertos: o.puertos } as EjercicioActivo;
  const enVuelo = filas.map((r) => r.id_detalle);
  const r = { reclamadas: 0, anunciadas: 0, recibos: 0, aplicados: 0 };
  // The ports are full: free some (liberar) so the claim has room, then claim them back.
  await marcar('liberar', () => store.liberar(enVuelo.slice(0, 50), ahora));
  await marcar('reclamar', async () => {
    r.reclamadas = (await store.reclamar(ej, 50, ahora, ahora + 60_000)).length;
  });
  await marcar('anunciar', async () => {
    const hasta = ahora + 60_000;
    const fs = enVuelo.slice(50).map((id_detalle) => ({ id_detalle, id_gateway: null, hasta }));
    r.anunciadas = (await store.anunciar(fs, ahora)).size;
  });
  await marcar('escribir', () =>
    store.escribir(
      filas.slice(50).map((f) => desenlaceEnviado(f.id_detalle, `n${f.posicion}`)),
      ahora,
    ),
  );
  await marcar('aplicarRecibos', async () => {
    const primeraEnviada = Math.floor(o.n * 0.45) + 1;
    const ids = [
      ...filas.slice(50).map((f) => `n${f.posicion}`),
      ...Array.from({ length: 50 }, (_, k) => `g${primeraEnviada + k}`),
      ...Array.from({ length: 10 }, (_, k) => `g${k + 1}`),
    ];
    r.recibos = ids.length;
    const hechos = await store.aplicarRecibos(
      ids.map((id_gateway) => ({ id_gateway, id_equipo: o.id_equipo, entregado: true })),
      ahora,
    );
    r.aplicados = hechos.size;
  });
  await marcar('recuperarVencidos', () => store.recuperarVencidos(ahora, ['smpp'], 'x', []));
  await mas?.(marcar, ahora);
  await db.kysely
    .updateTable('ejercicio_detalle')
    .set({
      estatus: 'en_curso',
      lease_hasta: ahora + 60_000,
      salio: 0,
      id_gateway: null,
      recibida: 0,
    })
    .where('id_detalle', 'in', enVuelo)
    .execute();
  return { ...r, porOp };
}
