import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { seed } from '../db/seed.ts';
import { renumerarPendientes } from '../repositories/ejercicios.ts';
import { MOTORES, abrirBaseSembrada, crearBasePostgres } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { storePostgres } from '@pregon/despacho/store-postgres';
import { anfitrionApi } from '../services/despacho.ts';
import { desenlaceEnviado, ponerAMitad } from '@pregon/despacho/testing/comun';

interface NodoPlan {
  'Index Name'?: string;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: NodoPlan[];
}

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
    const a = storePostgres(db, anfitrionApi);
    const b = storePostgres(db, anfitrionApi);
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
    const renumeradas = await renumerarPendientes(db.kysely, id, 'aleatorio', 'postgres');
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
    const s = storePostgres(db, anfitrionApi);
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
    await renumerarPendientes(db.kysely, id, 'aleatorio', 'postgres');
    expect(await s.llamadasVencidas(ahora + 500, ['asterisk'])).toEqual([]);
    const vencidas = await s.llamadasVencidas(ahora + 2000, ['asterisk']);
    expect(vencidas.map((v) => v.fila.id_detalle).sort((x, y) => x - y)).toEqual(
      filas.map((f) => f.id_detalle).sort((x, y) => x - y),
    );
    expect(vencidas.every((v) => v.ej.id_ejercicio === id && v.respondidas.length === 0)).toBe(
      true,
    );
  });

  // The claim's floor (migration 0032): every scan of the queue starts there.

  /** A call drill of `n` rows on `puertos` ports, with a fallback companion (SMS, `puertosC`). */
  const conRespaldo = async (n: number, puertos: number, puertosC: number) => {
    const sms = await crearEquipo(db, { protocolo: 'smpp', puertos: puertosC });
    const id_equipo = await crearEquipo(db, { protocolo: 'asterisk', puertos });
    const id = await crearEjercicio(db, {
      id_equipo,
      n,
      puertos,
      tipo: 2,
      respaldo: { id_equipo: sms, texto: 'Aviso', puertos: puertosC },
    });
    const { id_ejercicio } = await db.kysely
      .selectFrom('ejercicios')
      .select('id_ejercicio')
      .where('respaldo_de', '=', id)
      .executeTakeFirstOrThrow();
    return { id, companero: Number(id_ejercicio) };
  };
  const piso = async (id: number) =>
    Number(
      (
        await sql<{ piso: number }>`select piso from despacho_frontera
          where id_ejercicio = ${id}`.execute(db.kysely)
      ).rows[0]?.piso ?? 0,
    );
  const posiciones = async (ids: readonly number[]) =>
    ids.length === 0
      ? []
      : (
          await sql<{ posicion: number }>`select posicion from ejercicio_detalle
            where id_detalle in (${sql.join(ids)}) order by posicion`.execute(db.kysely)
        ).rows.map((r) => r.posicion);
  const enviados = (fs: readonly { id_detalle: number }[]) =>
    fs.map((f) => desenlaceEnviado(f.id_detalle, `p${f.id_detalle}`));

  it('sube con cada reclamo y baja con todo lo que vuelve a la cola por debajo', async () => {
    const { id, companero } = await conRespaldo(100, 10, 10);
    const s = storePostgres(db, anfitrionApi);
    const ej = { id_ejercicio: id, puertos: 10 } as Parameters<typeof s.reclamar>[0];
    const ejC = { id_ejercicio: companero, puertos: 10 } as Parameters<typeof s.reclamar>[0];
    const ahora = Date.now();
    const lease = ahora + 60_000;

    // Positions 1-10 are sent (out of the queue): the next claim starts at 11 and says so.
    const primeras = await s.reclamar(ej, 10, ahora, lease);
    await s.escribir(enviados(primeras), ahora);
    const segundas = await s.reclamar(ej, 10, ahora, lease);
    expect(await posiciones(segundas.map((f) => f.id_detalle))).toEqual(
      Array.from({ length: 10 }, (_, k) => 11 + k),
    );
    expect(await piso(id)).toBe(11);

    // The phone cancelled the message of position 3 (Android): it is pending again, below the
    // floor, and is the next row claimed.
    const tercera = primeras[2]!;
    expect(await posiciones([tercera.id_detalle])).toEqual([3]);
    expect(
      await s.reponerCancelados([{ id_detalle: tercera.id_detalle, id_gateway: 'nuevo' }], ahora),
    ).toBe(1);
    expect(await piso(id)).toBeLessThanOrEqual(3);
    await s.escribir(enviados(segundas.slice(0, 1)), ahora);
    expect((await s.reclamar(ej, 10, ahora, lease)).map((f) => f.id_detalle)).toEqual([
      tercera.id_detalle,
    ]);

    // Fallback rows take their drill rows' positions. Positions 16-20 reach the companion first,
    // which claims and sends them (its floor rises to 16); then 12-15 come: its floor comes down.
    const porPosicion = new Map(
      (await posiciones(segundas.map((f) => f.id_detalle))).map((p, k) => [p, segundas[k]!]),
    );
    const noContesto = (ps: number[]) =>
      ps.map((p) => ({
        ...desenlaceEnviado(porPosicion.get(p)!.id_detalle, `c${p}`),
        estatus: 'no_contesto' as const,
        id_gateway: null,
        respaldo: companero,
      }));
    await s.escribir(noContesto([16, 17, 18, 19, 20]), ahora);
    const c1 = await s.reclamar(ejC, 10, ahora, lease);
    expect(await posiciones(c1.map((f) => f.id_detalle))).toEqual([16, 17, 18, 19, 20]);
    await s.escribir(enviados(c1), ahora);
    expect(await s.reclamar(ejC, 10, ahora, lease)).toEqual([]);
    expect(await piso(companero)).toBe(16);
    await s.escribir(noContesto([12, 13, 14, 15]), ahora);
    expect(await piso(companero)).toBeLessThanOrEqual(12);
    const c2 = await s.reclamar(ejC, 10, ahora, lease);
    expect(await posiciones(c2.map((f) => f.id_detalle))).toEqual([12, 13, 14, 15]);

    // A new order numbers the pending rows from 1, far below the floor (21 and up were pending).
    expect(await piso(id)).toBeGreaterThan(1);
    await db.kysely
      .transaction()
      .execute((trx) => renumerarPendientes(trx, id, 'aleatorio', 'postgres'));
    // (one row is in flight, position 3: nine ports are free)
    const tras = await s.reclamar(ej, 10, ahora, lease);
    expect(await posiciones(tras.map((f) => f.id_detalle))).toEqual(
      Array.from({ length: 9 }, (_, k) => 1 + k),
    );
  });

  it('nada queda bajo el piso cuando entran respaldos mientras dos despachadores reclaman', async () => {
    const N = 400;
    const { id, companero } = await conRespaldo(N, N, 5);
    const escritor = storePostgres(db, anfitrionApi);
    const ahora = Date.now();
    const lease = ahora + 60_000;
    const todas = await escritor.reclamar(
      { id_ejercicio: id, puertos: N } as Parameters<typeof escritor.reclamar>[0],
      N,
      ahora,
      lease,
    );
    expect(todas).toHaveLength(N);
    // The drill's rows end in batches of 8 from the last position down: each batch's fallback
    // rows go in below whatever the companion's two dispatchers have claimed by then.
    let escribiendo = true;
    const escribe = (async () => {
      for (let k = N; k > 0; k -= 8) {
        await escritor.escribir(
          todas.slice(Math.max(0, k - 8), k).map((f) => ({
            ...desenlaceEnviado(f.id_detalle, null as unknown as string),
            estatus: 'no_contesto' as const,
            id_gateway: null,
            respaldo: companero,
          })),
          ahora,
        );
      }
      escribiendo = false;
    })();
    const ejC = { id_ejercicio: companero, puertos: 5 } as Parameters<typeof escritor.reclamar>[0];
    const enviadas: number[] = [];
    const despacha = async () => {
      const s = storePostgres(db, anfitrionApi);
      for (let vacias = 0; vacias < 3;) {
        const fs = await s.reclamar(ejC, 5, ahora, lease);
        if (fs.length === 0 && !escribiendo) vacias++;
        enviadas.push(...fs.map((f) => f.id_detalle));
        await s.escribir(enviados(fs), ahora);
      }
    };
    await Promise.all([escribe, despacha(), despacha()]);
    const { rows } = await sql<{ estatus: string; n: number }>`select estatus, count(*)::int as n
      from ejercicio_detalle where id_ejercicio = ${companero} group by estatus`.execute(db.kysely);
    expect(rows).toEqual([{ estatus: 'enviado', n: N }]);
    expect(new Set(enviadas).size).toBe(N);
  });

  it('a mitad del simulacro el reclamo lee de la cola lo mismo que al principio', async () => {
    // Half of a drill's rows have left the queue: their entries in detalle_cola stay, dead,
    // until a VACUUM. The claim (its plan, with EXPLAIN ANALYZE, in a transaction rolled back)
    // reads the queue from its floor, not from the exercise's first entry: as many blocks as
    // at the drill's start.
    const N = 40_000;
    const P = 20;
    const id_equipo = await crearEquipo(db, { protocolo: 'smpp', puertos: P });
    const bloques = async (mitad: boolean) => {
      const id = await crearEjercicio(db, { id_equipo, n: N, puertos: P });
      const textos: string[] = [];
      const pool = db.pool as pg.Pool;
      const espia = new Proxy(pool, {
        get: (t, k) =>
          k === 'query'
            ? (texto: string, valores?: unknown[]) => {
                textos.push(texto);
                return pool.query(texto, valores);
              }
            : Reflect.get(t, k),
      });
      const s = storePostgres({ ...db, pool: espia }, anfitrionApi);
      const ej = { id_ejercicio: id, puertos: P } as Parameters<typeof s.reclamar>[0];
      const ahora = Date.now();
      if (mitad) {
        const frontera = await ponerAMitad(db, id, N, P);
        await sql`insert into despacho_frontera (id_ejercicio, posicion)
          values (${id}, ${frontera})`.execute(db.kysely);
      } else expect(await s.reclamar(ej, P, ahora, ahora + 60_000)).toHaveLength(P);
      const diez = async () =>
        (
          await db.kysely
            .selectFrom('ejercicio_detalle')
            .select('id_detalle')
            .where('id_ejercicio', '=', id)
            .where('estatus', '=', 'en_curso')
            .orderBy('posicion')
            .limit(10)
            .execute()
        ).map((f) => Number(f.id_detalle));
      // A claim as the dispatcher makes it, of 10 rows: its text is kept.
      await s.liberar(await diez(), ahora);
      textos.length = 0;
      expect(await s.reclamar(ej, 10, ahora, ahora + 60_000)).toHaveLength(10);
      const reclamo = textos.find((t) => t.includes('pg_advisory_xact_lock'))!;
      // The same claim again, explained as it runs, three times (each rolled back): the fewest
      // blocks of the three. A single reading varied with the machine's moment (once 29 against
      // 15 in a full run: what pruning and autovacuum had done to the pages meanwhile); reading
      // from the exercise's first entry instead of the floor would cost every time the ~65 index
      // pages of the 20,000 entries that left the queue, far above the bound.
      await s.liberar(await diez(), ahora);
      const explicado = async () => {
        const c = await pool.connect();
        try {
          await c.query('begin');
          const partes = reclamo.split(';');
          partes[partes.length - 1] = ` explain (analyze, buffers, format json) ${partes.at(-1)}`;
          const rs = (await c.query(partes.join(';'))) as unknown as pg.QueryResult[];
          const plan = (rs.at(-1)!.rows[0] as { 'QUERY PLAN': { Plan: NodoPlan }[] })[
            'QUERY PLAN'
          ][0]!.Plan;
          const nodos = (n: NodoPlan): NodoPlan[] => [n, ...(n.Plans ?? []).flatMap(nodos)];
          const cola = nodos(plan).filter((n) => n['Index Name'] === 'detalle_cola');
          expect(cola.length).toBeGreaterThan(0);
          return cola.reduce((a, n) => a + n['Shared Hit Blocks'] + n['Shared Read Blocks'], 0);
        } finally {
          await c.query('rollback');
          c.release();
        }
      };
      const lecturas = [await explicado(), await explicado(), await explicado()];
      return Math.min(...lecturas);
    };
    // No autovacuum on this test's own database's queue while it measures: what a VACUUM would do
    // meanwhile is the moment's, not the claim's.
    await sql`alter table ejercicio_detalle set (autovacuum_enabled = off)`.execute(db.kysely);
    const inicio = await bloques(false);
    const mitad = await bloques(true);
    expect(
      mitad,
      `bloques de detalle_cola: ${mitad} a mitad, ${inicio} al principio`,
    ).toBeLessThanOrEqual(inicio * 1.5);
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
      const s = storePostgres(db, anfitrionApi);
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
