import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Detalle } from '../db/schema.ts';
import { CONFIG_DESPACHO_DEFECTO, type ConfigDespachador } from './config.ts';

// Factories and waits for the dispatcher's tests and benchmarks: devices, exercises already
// generated and started (flags set directly, as the exercises API would), and condition waits.

/** A fast configuration for tests: short backoff, lease and polls. */
export const CONFIG_PRUEBA: ConfigDespachador = {
  ...CONFIG_DESPACHO_DEFECTO,
  backoffMs: 100,
  backoffMaxMs: 1_000,
  sondeoMs: 100,
  recuperacionMs: 500,
  leaseMs: 5_000,
  timeoutEnvioMs: 3_000,
};

/** Inserts a device and returns its id. */
export async function crearEquipo(
  db: Db,
  e: {
    protocolo: string;
    url: string;
    credenciales?: Record<string, string>;
    tasa?: number;
    puertos?: number;
  },
): Promise<number> {
  const r = await db.kysely
    .insertInto('equipos')
    .values({
      alias: `${e.protocolo}-${Math.random().toString(36).slice(2, 7)}`,
      serial: 'SIM',
      url: e.url,
      protocolo: e.protocolo,
      tasa: e.tasa ?? 1000,
      puertos: e.puertos ?? 10,
      credenciales: e.credenciales ? JSON.stringify(e.credenciales) : null,
    })
    .returning('id_equipo')
    .executeTakeFirstOrThrow();
  return r.id_equipo;
}

/** Inserts an exercise with `n` recipients ('55' + 8 digits, send order = number) plus `extra`
 * numbers, started (en_proceso 1) unless `iniciar` is false; returns its id. */
export async function crearEjercicio(
  db: Db,
  o: {
    id_equipo: number;
    n: number;
    tipo?: number;
    puertos?: number;
    accion?: string;
    extra?: string[];
    iniciar?: boolean;
    base?: number;
  },
): Promise<number> {
  const ahora = Date.now();
  const { id_ejercicio } = await db.kysely
    .insertInto('ejercicios')
    .values({
      titulo: 'Simulacro de prueba',
      id_tipo_ejercicio: o.tipo ?? 1,
      fecha_ini: '2026-01-01',
      hora_ini: '00:00:00',
      id_equipo: o.id_equipo,
      numero_puertos: o.puertos ?? 10,
      puerto_ini: 1,
      puerto_fin: o.puertos ?? 10,
      accion: o.accion ?? 'Simulacro: esto es una prueba',
      id_estado: 1,
      categorias: '1',
      creado: ahora,
      en_proceso: o.iniciar === false ? 0 : 1,
      iniciado: o.iniciar === false ? null : ahora,
    })
    .returning('id_ejercicio')
    .executeTakeFirstOrThrow();
  const base = o.base ?? 0;
  const tel =
    db.engine === 'postgres'
      ? sql<string>`'55' || lpad((s.i + ${base})::text, 8, '0')`
      : sql<string>`'55' || substr('00000000' || cast(s.i + ${base} as integer), -8, 8)`;
  const serie =
    db.engine === 'postgres'
      ? sql`select generate_series(1, ${o.n}) as i`
      : sql`select 1 as i union all select i + 1 from s where i < ${o.n}`;
  if (o.n > 0) {
    await sql`with recursive s(i) as (${serie})
      insert into ejercicio_detalle (id_ejercicio, telefono, id_estado, posicion)
      select ${id_ejercicio}, ${tel}, 1, s.i from s`.execute(db.kysely);
  }
  for (const [i, t] of (o.extra ?? []).entries()) {
    await db.kysely
      .insertInto('ejercicio_detalle')
      .values({ id_ejercicio, telefono: t, id_estado: 1, posicion: o.n + i + 1 })
      .execute();
  }
  return id_ejercicio;
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
