import type Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@pregon/db/database';
import type { DB } from '@pregon/db/schema';
import { MOTORES, abrirBaseSembrada } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { actividadEquipos, totalesDelDia } from './tableros.ts';

// The general dashboard's activity per device (actividadEquipos): what each device sent and
// failed in the last hour, and whether its latest written row is an error. Its latest row used to
// be found by a subquery run once for each row written in the hour, each reading the whole drill
// again: quadratic, 18 ms a row on SQLite at 200,000 recipients (3.8 s with 200 rows in the hour,
// 74 s with 4,000), with the api's only thread blocked meanwhile; a join to each device's latest
// time was a nested loop over the grouped rows on PostgreSQL. The plan of every statement is
// checked: it reads ejercicio_detalle once, and runs no subquery per row.

describe.each(MOTORES)('actividad de los equipos en el tablero general (%s)', (motor) => {
  let db: Db;
  let limpiar: () => Promise<void>;
  const AHORA = 1_800_000_000_000;
  const DESDE = AHORA - 3_600_000;

  beforeAll(async () => {
    ({ db, limpiar } = await abrirBaseSembrada(motor));
  });
  afterAll(async () => {
    await limpiar?.();
  });

  /** Writes estatus, motivo and actualizado of an exercise's rows by position (1-based). */
  const escribir = async (
    id: number,
    filas: [posicion: number, estatus: string, motivo: string | null, actualizado: number][],
  ) => {
    for (const [posicion, estatus, motivo, actualizado] of filas)
      await db.kysely
        .updateTable('ejercicio_detalle')
        .set({ estatus, motivo, actualizado })
        .where('id_ejercicio', '=', id)
        .where('posicion', '=', posicion)
        .execute();
  };

  it('per device: sends, errors and its latest row in the hour, ties broken by id; no subquery per row', async () => {
    const uno = await crearEquipo(db, { protocolo: 'smpp' });
    const dos = await crearEquipo(db, { protocolo: 'smpp' });
    const tres = await crearEquipo(db, { protocolo: 'smpp' });
    const a = await crearEjercicio(db, { id_equipo: uno, n: 6 });
    const b = await crearEjercicio(db, { id_equipo: uno, n: 3 });
    const c = await crearEjercicio(db, { id_equipo: dos, n: 4 });
    const d = await crearEjercicio(db, { id_equipo: tres, n: 2 });
    // Device one: its latest row is b's failure at AHORA - 10; a's row written later than that
    // but before the hour does not count.
    await escribir(a, [
      [1, 'entregado', null, AHORA - 100],
      [2, 'enviado', null, AHORA - 50],
      [3, 'fallido', 'Rechazado', AHORA - 40],
      [4, 'entregado', null, DESDE - 1],
    ]);
    await escribir(b, [
      [1, 'fallido', 'Número inválido', AHORA - 10],
      [2, 'enviado', null, AHORA - 20],
    ]);
    // Device two: two rows at its latest time; the one with the higher id (position 3) is last.
    await escribir(c, [
      [1, 'pendiente', 'SMSC sin conexión', AHORA - 200],
      [2, 'fallido', 'Rechazado', AHORA - 5],
      [3, 'entregado', null, AHORA - 5],
    ]);
    // Device three: nothing in the hour.
    await escribir(d, [[1, 'fallido', 'Rechazado', DESDE - 10]]);

    const consultas: CompiledQuery[] = [];
    const dialecto =
      motor === 'postgres'
        ? new PostgresDialect({ pool: db.pool! })
        : new SqliteDialect({ database: db.sqlite! as never });
    const k = new Kysely<DB>({
      dialect: dialecto,
      log: (e) => void (e.level === 'query' && consultas.push(e.query)),
    });
    const { totales, ultimos } = await actividadEquipos(k, [a, b, c, d], DESDE);

    const porEquipo = new Map(totales.map((t) => [t.id_equipo, t]));
    expect(porEquipo.get(uno)).toMatchObject({ envios: 3, errores: 2, ultimo_envio: AHORA - 20 });
    expect(porEquipo.get(dos)).toMatchObject({ envios: 1, errores: 2, ultimo_envio: AHORA - 5 });
    expect(porEquipo.has(tres)).toBe(false);
    // As the service reads them: the last row of a device wins.
    const ultimo = new Map(ultimos.map((u) => [u.id_equipo, u]));
    expect(ultimo.get(uno)).toMatchObject({ estatus: 'fallido', motivo: 'Número inválido' });
    expect(ultimo.get(dos)).toMatchObject({ estatus: 'entregado', actualizado: AHORA - 5 });
    expect(ultimo.has(tres)).toBe(false);

    // Every statement's plan: nothing runs once per row of the table.
    expect(consultas).toHaveLength(2);
    for (const q of consultas) {
      let plan: string;
      if (motor === 'postgres')
        plan = (
          await db.pool!.query<{ 'QUERY PLAN': string }>(`explain ${q.sql}`, [...q.parameters])
        ).rows
          .map((x) => x['QUERY PLAN'])
          .join('\n');
      else
        plan = (
          (db.sqlite as Database.Database)
            .prepare(`explain query plan ${q.sql}`)
            .all(...q.parameters) as { detail: string }[]
        )
          .map((x) => x.detail)
          .join('\n');
      // ejercicio_detalle is read once, and by no subquery run per row.
      const lecturas =
        motor === 'postgres'
          ? plan.match(/ on ejercicio_detalle /g)
          : plan.match(/^(SCAN|SEARCH) (ejercicio_detalle|d|d2)\b/gm);
      expect(lecturas, plan).toHaveLength(1);
      expect(plan, q.sql).not.toMatch(motor === 'postgres' ? /SubPlan/ : /CORRELATED/);
    }
  });
});

// The general dashboard's statements on PostgreSQL with the statistics `generar` leaves (taken
// while every row was pending: `actualizado` old, `fecha_envio` null). Each joined the day's or
// the hour's rows to ejercicios; expecting one row, the planner chose a nested loop that read
// ejercicios again for every row: 2 s for GET /tablero/general/ at 200,000 recipients with
// 58,000 rows in the hour, against 0.45 s once analyzed. The rows are now reduced per exercise
// before the join: ejercicios is read about once per exercise, whatever the statistics.
describe('tablero general con las estadísticas de una lista toda pendiente (postgres)', () => {
  let db: Db;
  let limpiar: () => Promise<void>;

  beforeAll(async () => {
    ({ db, limpiar } = await abrirBaseSembrada('postgres'));
  });
  afterAll(async () => {
    await limpiar?.();
  });

  it('ejercicios no se lee una vez por fila del día ni de la hora', async () => {
    const equipo = await crearEquipo(db, { protocolo: 'smpp' });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await crearEjercicio(db, { id_equipo: equipo, n: 20 }));
    const grande = await crearEjercicio(db, { id_equipo: equipo, n: 6000 });
    ids.push(grande);
    const ahora = Date.now();
    await sql`update ejercicio_detalle set actualizado = ${ahora - 86_400_000}`.execute(db.kysely);
    await sql`analyze ejercicio_detalle`.execute(db.kysely);
    await sql`analyze ejercicios`.execute(db.kysely);
    // Half the drill sent today, in the last hour, after the statistics.
    await sql`update ejercicio_detalle set estatus = case when posicion % 4 = 0 then 'fallido' else 'entregado' end,
        motivo = case when posicion % 4 = 0 then 'Rechazado' end, fecha_envio = '2026-11-26',
        actualizado = ${ahora - 60_000}::bigint + posicion
      where id_ejercicio = ${grande} and posicion <= 3000`.execute(db.kysely);

    const consultas: CompiledQuery[] = [];
    const k = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: db.pool! }),
      log: (e) => void (e.level === 'query' && consultas.push(e.query)),
    });
    const dia = await totalesDelDia(k, ids, '2026-11-26');
    const { totales, ultimos } = await actividadEquipos(k, ids, ahora - 3_600_000);
    expect(dia).toEqual(
      expect.arrayContaining([
        { id_tipo_ejercicio: 1, estatus: 'entregado', total: 2250 },
        { id_tipo_ejercicio: 1, estatus: 'fallido', total: 750 },
      ]),
    );
    expect(totales).toEqual([
      { id_equipo: equipo, envios: 2250, errores: 750, ultimo_envio: ahora - 60_000 + 2999 },
    ]);
    // The latest row of the hour: position 3,000, a failure.
    expect(ultimos).toEqual([
      {
        id_equipo: equipo,
        estatus: 'fallido',
        motivo: 'Rechazado',
        actualizado: ahora - 60_000 + 3000,
      },
    ]);

    expect(consultas).toHaveLength(3);
    interface Nodo {
      'Relation Name'?: string;
      'Actual Loops'?: number;
      Plans?: Nodo[];
    }
    const lecturas = (n: Nodo, rel: string): number =>
      (n['Relation Name'] === rel ? (n['Actual Loops'] ?? 0) : 0) +
      (n.Plans ?? []).reduce((s, h) => s + lecturas(h, rel), 0);
    for (const q of consultas) {
      const { rows } = await db.pool!.query<{ 'QUERY PLAN': { Plan: Nodo }[] }>(
        `explain (analyze, format json) ${q.sql}`,
        [...q.parameters],
      );
      const plan = rows[0]!['QUERY PLAN'][0]!.Plan;
      const texto = JSON.stringify(plan);
      expect(lecturas(plan, 'ejercicios'), texto).toBeLessThanOrEqual(ids.length * 2);
    }
  });
});
