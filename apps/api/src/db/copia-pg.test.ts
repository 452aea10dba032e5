import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crearBasePostgres } from '../../testing/entorno.ts';
import { aCopia, deCopia, enteroCopia, lineasCopia } from '@pregon/db/copia-pg';

const RAROS = [
  'simple',
  'con\ttabulador',
  'con\nsalto y\rretorno',
  'diagonal \\ invertida y \\N literal',
  'control \b \f \v',
  'Ñandú 🐢 — «México»',
  '',
];

describe('formato de texto de COPY', () => {
  it.each(RAROS)('%j ida y vuelta', (v) => {
    expect(deCopia(aCopia(v))).toBe(v);
  });
  it('un entero para la consulta COPY se acepta; otra cosa, no', () => {
    expect(enteroCopia(42)).toBe('42');
    for (const v of [1.5, NaN, Infinity, 2 ** 60]) expect(() => enteroCopia(v)).toThrow();
  });
  it('\\N es nulo, y un número se escribe tal cual', () => {
    expect(aCopia(null)).toBe('\\N');
    expect(deCopia('\\N')).toBeNull();
    expect(aCopia(42)).toBe('42');
  });
});

describe('lineasCopia (PostgreSQL)', () => {
  let base: Awaited<ReturnType<typeof crearBasePostgres>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    base = await crearBasePostgres();
    pool = new pg.Pool({ connectionString: base.url, max: 2 });
    await pool.query('create table t (id integer primary key, x text)');
    // Enough rows for many network chunks, so multi-byte characters fall across chunk edges.
    await pool.query(
      `insert into t select i, ($1::text[])[(i % $2) + 1] || ' ' || i from generate_series(1, 20000) i`,
      [RAROS, RAROS.length],
    );
    await pool.query('insert into t values (0, null)');
  });
  afterAll(async () => {
    await pool?.end();
    await base?.borrar();
  });

  it('entrega cada fila una vez, en orden, con sus valores exactos', async () => {
    const vistos: (string | null)[] = [];
    for await (const lineas of lineasCopia(pool, 'select id, x from t order by id')) {
      for (const l of lineas) {
        const [id, x] = l.split('\t');
        expect(Number(id)).toBe(vistos.length);
        vistos.push(deCopia(x!));
      }
    }
    expect(vistos).toHaveLength(20001);
    expect(vistos[0]).toBeNull();
    for (let i = 1; i <= 20000; i++) expect(vistos[i]).toBe(`${RAROS[i % RAROS.length]} ${i}`);
  });

  it('dejarla a medias cierra esa conexión y el pool sigue sirviendo', async () => {
    for (let k = 0; k < 5; k++) {
      for await (const lineas of lineasCopia(pool, 'select id, x from t order by id')) {
        expect(lineas.length).toBeGreaterThan(0);
        break;
      }
    }
    const r = await pool.query('select count(*)::int as n from t');
    expect(r.rows[0].n).toBe(20001);
    expect(pool.totalCount).toBeLessThanOrEqual(2);
  });
});
