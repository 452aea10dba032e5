import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { seed } from '../db/seed.ts';
import { renumerarPendientes } from '../repositories/ejercicios.ts';
import { MOTORES, abrirBaseSembrada, crearBasePostgres } from '../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../testing/fabrica.ts';
import { storePostgres } from './store-postgres.ts';
import { desenlaceEnviado } from './testing.ts';

// The claim on PostgreSQL changes no indexed column (migration 0031): rows pending and in flight
// share detalle_cola, and the rows in flight are counted, and swept, up to the exercise's
// frontier (the highest position claimed). These are the guarantees that moved with it: the
// ports bound holds across dispatchers (two stores on separate connections), through releases,
// outcomes and a renumbering of what is pending, and a row in flight whose lease ran out is found
// wherever the renumbering left the pending rows.
describe('frontera del reclamo (postgres)', () => {
  let db: Db;
  let limpiar: () => Promise<void>;
  const PUERTOS = 30;

  beforeAll(async () => {
    ({ db, limpiar } = await abrirBaseSembrada('postgres'));
  }, 60_000);
  afterAll(async () => {
    await limpiar?.();
  });

  const enCurso = async (id: number) =>
    Number(
      (
        await sql<{ n: number }>`select count(*) as n from ejercicio_detalle
          where id_ejercicio = ${id} and estatus = 'en_curso'`.execute(db.kysely)
      ).rows[0]!.n,
    );

  it('dos despachadores nunca pasan los puertos, aunque se renumere lo pendiente', async () => {
    const id_equipo = await crearEquipo(db, { protocolo: 'smpp', puertos: PUERTOS });
    const id = await crearEjercicio(db, { id_equipo, n: 200, puertos: PUERTOS });
    const a = storePostgres(db);
    const b = storePostgres(db);
    const ej = { id_ejercicio: id, puertos: PUERTOS } as Parameters<typeof a.reclamar>[0];
    const ahora = Date.now();
    const lease = ahora + 60_000;

    // Both ask for more than the ports at once: together they get exactly the ports.
    const [fa, fb] = await Promise.all([
      a.reclamar(ej, 25, ahora, lease),
      b.reclamar(ej, 25, ahora, lease),
    ]);
    expect(fa.length + fb.length).toBe(PUERTOS);
    expect(await enCurso(id)).toBe(PUERTOS);
    expect(await a.reclamar(ej, 10, ahora, lease)).toEqual([]);

    // The pending rows are renumbered from 1 (a new order): the rows in flight keep their
    // positions, and are still counted.
    const renumeradas = await renumerarPendientes(db.kysely, id, 'aleatorio');
    expect(renumeradas).toBe(200 - PUERTOS);
    expect(await b.reclamar(ej, 10, ahora, lease)).toEqual([]);

    // Outcomes of 10 and a release of 5 free 15 ports, and no more.
    const todas = [...fa, ...fb];
    await a.escribir(
      todas.slice(0, 10).map((f) => desenlaceEnviado(f.id_detalle, `g${f.id_detalle}`)),
      ahora,
    );
    await b.liberar(
      todas.slice(10, 15).map((f) => f.id_detalle),
      ahora,
    );
    const otra = await b.reclamar(ej, 25, ahora, lease);
    expect(otra).toHaveLength(15);
    expect(await enCurso(id)).toBe(PUERTOS);
    // (renumbered pending rows come first, by their new positions, below the old frontier)
    const { rows } = await sql<{ max: number }>`select max(posicion) as max from ejercicio_detalle
      where id_detalle in (${sql.join(otra.map((f) => f.id_detalle))})`.execute(db.kysely);
    expect(Number(rows[0]!.max)).toBeLessThanOrEqual(PUERTOS);
    expect(await a.reclamar(ej, 5, ahora, lease)).toEqual([]);

    // Every row in flight is found by the lease sweep once its lease is over, whatever its
    // position: 30 rows, back to pending (never sent: salio 0).
    const despues = lease + 1;
    const ids = await a.recuperarVencidos(despues, ['smpp'], 'x', []);
    expect(ids).toEqual([id]);
    expect(await enCurso(id)).toBe(0);
  });

  it('las llamadas vencidas se encuentran por la frontera de su ejercicio', async () => {
    const id_equipo = await crearEquipo(db, { protocolo: 'asterisk', puertos: 5 });
    const id = await crearEjercicio(db, { id_equipo, n: 50, puertos: 5, tipo: 2 });
    const s = storePostgres(db);
    const ej = { id_ejercicio: id, puertos: 5 } as Parameters<typeof s.reclamar>[0];
    const ahora = Date.now();
    const filas = await s.reclamar(ej, 5, ahora, ahora + 1000);
    expect(filas).toHaveLength(5);
    expect(
      await s.anunciar(
        filas.map((f) => ({
          id_detalle: f.id_detalle,
          id_gateway: `c${f.id_detalle}`,
          hasta: ahora + 1000,
        })),
        ahora,
      ),
    ).toHaveProperty('size', 5);
    await renumerarPendientes(db.kysely, id, 'aleatorio');
    expect(await s.llamadasVencidas(ahora + 500, ['asterisk'])).toEqual([]);
    const vencidas = await s.llamadasVencidas(ahora + 2000, ['asterisk']);
    expect(vencidas.map((v) => v.fila.id_detalle).sort((x, y) => x - y)).toEqual(
      filas.map((f) => f.id_detalle).sort((x, y) => x - y),
    );
    expect(vencidas.every((v) => v.ej.id_ejercicio === id && v.respondidas.length === 0)).toBe(
      true,
    );
  });
});

describe.each(MOTORES)('la migración 0031: una sola cola (%s)', (motor) => {
  it('rows left in flight by a dispatcher that died before it are still counted and swept', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-0031-'));
    const pg = motor === 'postgres' ? await crearBasePostgres() : undefined;
    const db = openDb(pg ? { databaseUrl: pg.url } : { sqliteFile: path.join(dir, 'pregon.db') });
    try {
      await migrate(db, '0030-cola');
      await seed(db, { adminUser: 'admin', adminPassword: 'Admin-prueba-1' });
      const id_equipo = await crearEquipo(db, { protocolo: 'smpp', puertos: 3 });
      const id = await crearEjercicio(db, { id_equipo, n: 10, puertos: 3 });
      const ahora = Date.now();
      await db.kysely
        .updateTable('ejercicio_detalle')
        .set({ estatus: 'en_curso', lease_hasta: ahora - 1, salio: 0 })
        .where('id_ejercicio', '=', id)
        .where('posicion', 'in', [3, 7])
        .execute();
      await migrate(db);
      const cola = await db.kysely
        .selectFrom('ejercicio_detalle')
        .select(['posicion', 'estatus', 'cola'])
        .where('id_ejercicio', '=', id)
        .where('posicion', 'in', [1, 3])
        .orderBy('posicion')
        .execute();
      expect(cola).toEqual([
        { posicion: 1, estatus: 'pendiente', cola: 0 },
        { posicion: 3, estatus: 'en_curso', cola: 0 },
      ]);
      if (motor !== 'postgres') return;
      const { rows } = await sql<{ posicion: number }>`select posicion from despacho_frontera
        where id_ejercicio = ${id}`.execute(db.kysely);
      expect(rows).toEqual([{ posicion: 7 }]);
      const s = storePostgres(db);
      const ej = { id_ejercicio: id, puertos: 3 } as Parameters<typeof s.reclamar>[0];
      // Two of three ports are held by the dead dispatcher's rows until the sweep frees them.
      expect(await s.reclamar(ej, 3, ahora, ahora + 60_000)).toHaveLength(1);
      expect(await s.recuperarVencidos(ahora, ['smpp'], 'x', [])).toEqual([id]);
      expect(await s.reclamar(ej, 3, ahora, ahora + 60_000)).toHaveLength(2);
    } finally {
      await db.close();
      await pg?.borrar();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
