import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, abrirBaseSembrada } from '../../testing/entorno.ts';
import type { Db } from '@pregon/db/database';
import { ejecutarPlantilla } from '@pregon/db/plantilla';

// A query compiled once per shape answers every later call with that call's values, on both
// engines: no value of the first call stays behind in the SQL.
describe.each(MOTORES)('consultas compiladas por forma (%s)', (motor) => {
  let db: Db;
  let limpiar: () => Promise<void>;
  beforeAll(async () => {
    ({ db, limpiar } = await abrirBaseSembrada(motor));
  });
  afterAll(() => limpiar?.());

  /** States by id range, optionally among some ids and with a word in the name. */
  const estados = (v: { desde: number; hasta?: number; ids?: number[]; palabra?: string }) =>
    ejecutarPlantilla(db.kysely, 'prueba.estados', v, (h) => {
      let q = db.kysely
        .selectFrom('estados')
        .select(['id_estado', 'estado'])
        .where('id_estado', '>=', h.desde);
      if (h.hasta !== undefined) q = q.where('id_estado', '<=', h.hasta);
      if (h.ids !== undefined) q = q.where('id_estado', 'in', h.ids);
      if (h.palabra !== undefined) q = q.where('estado', 'like', h.palabra);
      return q.orderBy('id_estado');
    });

  it('usa los valores de cada llamada con la misma forma', async () => {
    const todos = await db.kysely
      .selectFrom('estados')
      .select(['id_estado', 'estado'])
      .orderBy('id_estado')
      .execute();
    const [a, b, c] = [todos[0]!.id_estado, todos[4]!.id_estado, todos[9]!.id_estado];
    expect((await estados({ desde: a, hasta: b })).map((e) => e.id_estado)).toEqual(
      todos.slice(0, 5).map((e) => e.id_estado),
    );
    expect((await estados({ desde: b, hasta: c })).map((e) => e.id_estado)).toEqual(
      todos.slice(4, 10).map((e) => e.id_estado),
    );
  });

  it('compila aparte una forma distinta: un valor ausente o una lista de otro largo', async () => {
    const todos = await db.kysely
      .selectFrom('estados')
      .select('id_estado')
      .orderBy('id_estado')
      .execute();
    const ids = todos.map((e) => e.id_estado);
    expect(await estados({ desde: ids[0]! })).toHaveLength(ids.length);
    expect((await estados({ desde: ids[0]!, ids: [ids[2]!] })).map((e) => e.id_estado)).toEqual([
      ids[2],
    ]);
    expect(
      (await estados({ desde: ids[0]!, ids: [ids[7]!, ids[3]!, ids[5]!] })).map((e) => e.id_estado),
    ).toEqual([ids[3], ids[5], ids[7]]);
    expect((await estados({ desde: ids[0]!, ids: [ids[1]!] })).map((e) => e.id_estado)).toEqual([
      ids[1],
    ]);
    expect((await estados({ desde: ids[0]!, palabra: 'Jalisco' })).map((e) => e.estado)).toEqual([
      'Jalisco',
    ]);
    expect((await estados({ desde: ids[0]!, palabra: 'Sonora' })).map((e) => e.estado)).toEqual([
      'Sonora',
    ]);
  });
});
