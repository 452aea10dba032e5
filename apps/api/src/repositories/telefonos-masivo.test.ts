import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, levantarApi, type ApiDePrueba } from '../../testing/entorno.ts';
import { abrirEscritor, type FilaMasiva } from './telefonos-masivo.ts';
import { crearImportacion } from './telefonos-importaciones.ts';

describe.each(MOTORES)('escritor masivo de teléfonos (%s)', (motor) => {
  let api: ApiDePrueba;
  beforeAll(async () => {
    api = await levantarApi(motor);
  });
  afterAll(async () => api?.cerrar());

  const caminos = motor === 'postgres' ? [false, true] : [false];
  it.each(caminos)(
    'omite duplicados del lote y de la base, escribe enlaces y progreso (soloSeguro=%s)',
    async (soloSeguro) => {
      const k = api.ctx.db.kysely;
      const base = soloSeguro ? '77' : '66';
      await k
        .insertInto('telefonos')
        .values({ telefono: `${base}00000000`, nombre: 'Ya estaba', id_estado: 1, creado: 1 })
        .execute();
      const id = await crearImportacion(k, 'x.csv', null);
      const escritor = await abrirEscritor(api.ctx.db, id, { soloSeguro });
      const filas: FilaMasiva[] = [
        { telefono: `${base}00000000`, nombre: 'Duplicada en base', id_estado: 1, categorias: [1] },
        {
          telefono: `${base}00000001`,
          nombre: "O'Brien\ttab\\barra",
          id_estado: 2,
          categorias: [1, 2],
        },
        { telefono: `${base}00000002`, nombre: null, id_estado: 2, categorias: [] },
        { telefono: `${base}00000001`, nombre: 'Duplicada en lote', id_estado: 3, categorias: [3] },
      ];
      try {
        const r = await escritor.escribir(filas, (x) => ({
          procesadas: 4,
          insertadas: x.insertadas,
          duplicadas: x.duplicadas,
          con_error: 0,
          errores: null,
          mensaje: 'm',
        }));
        // The rows not written: the one the directory had, and the repeat inside the batch.
        expect(r).toEqual({ insertadas: 2, duplicadas: 2, indicesDuplicados: [0, 3] });
        const r2 = await escritor.escribir(filas.slice(1, 2), (x) => ({
          procesadas: 5,
          insertadas: 2 + x.insertadas,
          duplicadas: 2 + x.duplicadas,
          con_error: 0,
          errores: null,
          mensaje: 'm2',
        }));
        expect(r2).toEqual({ insertadas: 0, duplicadas: 1, indicesDuplicados: [0] });
      } finally {
        await escritor.cerrar();
      }
      const t = await k
        .selectFrom('telefonos')
        .selectAll()
        .where('telefono', '=', `${base}00000001`)
        .executeTakeFirstOrThrow();
      expect(t).toMatchObject({ nombre: "O'Brien\ttab\\barra", id_estado: 2 });
      const enlaces = await k
        .selectFrom('telefono_categoria')
        .select('id_categoria')
        .where('id_telefono', '=', t.id_telefono)
        .orderBy('id_categoria')
        .execute();
      expect(enlaces.map((e) => e.id_categoria)).toEqual([1, 2]);
      const job = await k
        .selectFrom('importaciones')
        .selectAll()
        .where('id_importacion', '=', id)
        .executeTakeFirstOrThrow();
      expect(job).toMatchObject({ procesadas: 5, insertadas: 2, duplicadas: 3, mensaje: 'm2' });
      // A Kysely insert after the bulk path still gets a fresh id (the sequence moved with COPY).
      const otro = await k
        .insertInto('telefonos')
        .values({ telefono: `${base}00000009`, nombre: null, id_estado: 1, creado: 1 })
        .returning('id_telefono')
        .executeTakeFirstOrThrow();
      expect(otro.id_telefono).toBeGreaterThan(t.id_telefono);
    },
  );
  it('da ids en el orden del archivo, y un estado o categoría inexistente hace fallar el lote entero', async () => {
    const k = api.ctx.db.kysely;
    const id = await crearImportacion(k, 'y.csv', null);
    const escritor = await abrirEscritor(api.ctx.db, id);
    const progreso = (x: { insertadas: number; duplicadas: number }) => ({
      procesadas: 0,
      insertadas: x.insertadas,
      duplicadas: x.duplicadas,
      con_error: 0,
      errores: null,
      mensaje: 'm',
    });
    const numeros = ['5599999999', '5511111111', '5555555555'];
    try {
      const r = await escritor.escribir(
        numeros.map((telefono) => ({ telefono, nombre: null, id_estado: 1, categorias: [2] })),
        progreso,
      );
      expect(r).toEqual({ insertadas: 3, duplicadas: 0, indicesDuplicados: [] });
      await expect(
        escritor.escribir(
          [{ telefono: '5522222222', nombre: null, id_estado: 1, categorias: [999_999] }],
          progreso,
        ),
      ).rejects.toThrow();
      await expect(
        escritor.escribir(
          [{ telefono: '5533333333', nombre: null, id_estado: 999_999, categorias: [] }],
          progreso,
        ),
      ).rejects.toThrow();
    } finally {
      await escritor.cerrar();
    }
    const filas = await k
      .selectFrom('telefonos')
      .select(['id_telefono', 'telefono'])
      .where('telefono', 'in', [...numeros, '5522222222', '5533333333'])
      .orderBy('id_telefono')
      .execute();
    expect(filas.map((f) => f.telefono)).toEqual(numeros);
    const enlaces = await k
      .selectFrom('telefono_categoria')
      .select('id_telefono')
      .where('id_categoria', '=', 2)
      .where(
        'id_telefono',
        'in',
        filas.map((f) => f.id_telefono),
      )
      .execute();
    expect(enlaces).toHaveLength(3);
    // The connection keeps enforcing foreign keys for everything else.
    if (motor === 'sqlite')
      expect(api.ctx.db.sqlite!.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});
