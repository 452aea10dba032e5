import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crearBasePostgres } from '../../testing/entorno.ts';
import { arregloPg } from '@pregon/db/arreglo-pg';

const TEXTOS = [
  'simple',
  '',
  'NULL',
  'null',
  'con "comillas"',
  'diagonal \\ invertida y \\" juntas',
  'coma, {llaves} y espacio ',
  ' al inicio',
  'salto\ny\ttabulador',
  'Ñandú 🐢 — «México»',
  null,
  undefined,
];

describe('arregloPg en un PostgreSQL real', () => {
  let base: Awaited<ReturnType<typeof crearBasePostgres>>;
  let cliente: pg.Client;
  beforeAll(async () => {
    base = await crearBasePostgres();
    cliente = new pg.Client({ connectionString: base.url });
    await cliente.connect();
  });
  afterAll(async () => {
    await cliente?.end();
    await base?.borrar();
  });

  // What PostgreSQL reads from the literal is what it reads from node-postgres' own conversion of
  // the same array: the helper changes how the text is built, not what it says.
  const leer = async (tipo: string, valor: unknown) =>
    (await cliente.query<{ v: unknown }>(`select $1::${tipo} as v`, [valor])).rows[0]!.v;

  it('texto: comillas, diagonales, llaves, comas, la palabra NULL, vacío y nulos', async () => {
    const literal = arregloPg(TEXTOS);
    expect(await leer('text[]', literal)).toEqual(await leer('text[]', TEXTOS));
    expect(await leer('text[]', literal)).toEqual(TEXTOS.map((t) => t ?? null));
  });

  it('enteros hasta 2^53 − 1, negativos y nulos; booleanos', async () => {
    const enteros = [0, 1, -7, 2 ** 31, Number.MAX_SAFE_INTEGER, null];
    expect(await leer('bigint[]', arregloPg(enteros))).toEqual(await leer('bigint[]', enteros));
    expect(await leer('int[]', arregloPg([3, null, -2]))).toEqual([3, null, -2]);
    expect(await leer('boolean[]', arregloPg([true, false, null]))).toEqual([true, false, null]);
  });

  it('un arreglo vacío', async () => {
    expect(arregloPg([])).toBe('{}');
    expect(await leer('bigint[]', arregloPg([]))).toEqual([]);
  });
});
