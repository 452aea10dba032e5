import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';

// Issue 25.5, the import that can update: a re-import of existing phones offers 'omitir' (as
// before), 'agregar_categorias' and 'actualizar'; every duplicate row (of the directory or of an
// earlier row of the file) is listed with its row number and what was done to it.

async function subir(api: ApiDePrueba, token: string, csv: string, campos: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(campos)) form.append(k, v);
  form.append('file', new Blob([csv]), 'reimportar.csv');
  const res = await fetch(`${api.url}/telefonos/importar/`, {
    method: 'POST',
    body: form,
    headers: { authorization: token },
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function importar(
  api: ApiDePrueba,
  token: string,
  csv: string,
  campos: Record<string, string>,
) {
  const r = await subir(api, token, csv, campos);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const limite = Date.now() + 60_000;
  for (;;) {
    const p = await pedir(api.url, 'GET', `/telefonos/importar/${r.body.id_importacion}/`, {
      token,
    });
    if (p.body.estatus !== 'en_proceso') return p.body;
    if (Date.now() > limite) throw new Error('la importación no terminó');
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

describe.each(MOTORES)('importación: duplicados (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let cat: Record<string, number>;
  let est: Record<string, number>;

  /** A phone's name, state name and sorted category names. */
  async function telefono(numero: string) {
    const t = await api.ctx.db.kysely
      .selectFrom('telefonos as t')
      .leftJoin('estados as e', 'e.id_estado', 't.id_estado')
      .select(['t.id_telefono', 't.nombre', 'e.estado'])
      .where('t.telefono', '=', numero)
      .executeTakeFirstOrThrow();
    const cs = await api.ctx.db.kysely
      .selectFrom('telefono_categoria as tc')
      .innerJoin('categorias as c', 'c.id_categoria', 'tc.id_categoria')
      .select('c.categoria')
      .where('tc.id_telefono', '=', t.id_telefono)
      .orderBy('c.categoria')
      .execute();
    return { nombre: t.nombre, estado: t.estado, categorias: cs.map((c) => c.categoria) };
  }

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    cat = Object.fromEntries(
      (await pedir(api.url, 'GET', '/categorias/', { token })).body.data.map((c: any) => [
        c.categoria,
        c.id_categoria,
      ]),
    );
    est = Object.fromEntries(
      (await pedir(api.url, 'GET', '/estados/', { token })).body.data.map((e: any) => [
        e.estado,
        e.id_estado,
      ]),
    );
    const [c1] = Object.keys(cat);
    const primera = await importar(
      api,
      token,
      [
        'telefono,nombre,estado,categorias',
        `5540000001,Ana Uno,Jalisco,${c1}`,
        `5540000002,Beto Dos,Jalisco,${c1}`,
        `5540000003,Caro Tres,Jalisco,${c1}`,
      ].join('\n'),
      {},
    );
    expect(primera).toMatchObject({ insertadas: 3, duplicadas: 0, filas_duplicadas: [] });
  });
  afterAll(async () => api?.cerrar());

  const segunda = (c2: string) =>
    [
      'telefono,nombre,estado,categorias',
      `5540000001,Ana Nueva,Yucatán,${c2}`, // row 2: exists
      '5540000009,Nuevo Nueve,Yucatán,', // row 3: new
      `5540000002,,Puebla,${c2}`, // row 4: exists, no name
      `5540000009,Nueve Otra Vez,Puebla,${c2}`, // row 5: earlier in the file
    ].join('\n');

  it("'omitir' (the default): nothing changes; the duplicates are listed with their row numbers", async () => {
    const [c1, c2] = Object.keys(cat);
    const r = await importar(api, token, segunda(c2!), { id_estado: String(est['Jalisco']) });
    expect(r).toMatchObject({
      estatus: 'terminada',
      modo_duplicados: 'omitir',
      insertadas: 1,
      duplicadas: 3,
      mensaje: 'Importación terminada: 1 agregados, 3 duplicados omitidos, 0 con error',
    });
    // Issue 48.6: row 5 repeats a number row 3 added: said so, not 'ya existía'; every listed row
    // keeps its state and categories for the file of rejected rows.
    expect(r.filas_duplicadas).toEqual([
      {
        fila: 2,
        telefono: '5540000001',
        nombre: 'Ana Nueva',
        estado: 'Yucatán',
        categorias: c2,
        motivo: 'Duplicado: ya existía, se omitió',
      },
      {
        fila: 4,
        telefono: '5540000002',
        estado: 'Puebla',
        categorias: c2,
        motivo: 'Duplicado: ya existía, se omitió',
      },
      {
        fila: 5,
        telefono: '5540000009',
        nombre: 'Nueve Otra Vez',
        estado: 'Puebla',
        categorias: c2,
        motivo: 'Repetido en el archivo: una fila anterior ya lo agregó; se omitió',
      },
    ]);
    expect(await telefono('5540000001')).toEqual({
      nombre: 'Ana Uno',
      estado: 'Jalisco',
      categorias: [c1],
    });
    await api.ctx.db.kysely
      .deleteFrom('telefono_categoria')
      .where('id_telefono', 'in', (eb) =>
        eb.selectFrom('telefonos').select('id_telefono').where('telefono', '=', '5540000009'),
      )
      .execute();
    await api.ctx.db.kysely.deleteFrom('telefonos').where('telefono', '=', '5540000009').execute();
  });

  it("'agregar_categorias': the row's categories are added to the existing phones, name and state kept", async () => {
    const [c1, c2] = Object.keys(cat);
    const r = await importar(api, token, segunda(c2!), { duplicados: 'agregar_categorias' });
    expect(r).toMatchObject({
      modo_duplicados: 'agregar_categorias',
      insertadas: 1,
      duplicadas: 3,
      mensaje:
        'Importación terminada: 1 agregados, 3 duplicados con categorías agregadas, 0 con error',
    });
    // Issue 45.3: the file's state, different from the phone's, is reported and not applied.
    const otroEstado = (actual: string, estado: string) =>
      `Duplicado: se le agregaron las categorías de la fila; su estado sigue siendo ${actual}, no se cambió a ${estado}`;
    expect(r.filas_duplicadas.map((f: any) => [f.fila, f.motivo])).toEqual([
      [2, otroEstado('Jalisco', 'Yucatán')],
      [4, otroEstado('Jalisco', 'Puebla')],
      [5, otroEstado('Yucatán', 'Puebla')],
    ]);
    expect(await telefono('5540000001')).toEqual({
      nombre: 'Ana Uno',
      estado: 'Jalisco',
      categorias: [c1, c2].sort(),
    });
    expect((await telefono('5540000002')).categorias).toEqual([c1, c2].sort());
    // Row 3 created it without categories; row 5 (the same number) added its own.
    expect(await telefono('5540000009')).toEqual({
      nombre: 'Nuevo Nueve',
      estado: 'Yucatán',
      categorias: [c2],
    });
    expect((await telefono('5540000003')).categorias).toEqual([c1]);
  });

  it("'actualizar': name (when the row has one) and state are updated, categories kept", async () => {
    const [c1, c2] = Object.keys(cat);
    const r = await importar(api, token, segunda(c2!), { duplicados: 'actualizar' });
    expect(r).toMatchObject({
      modo_duplicados: 'actualizar',
      insertadas: 0,
      duplicadas: 4,
      mensaje: 'Importación terminada: 0 agregados, 4 duplicados actualizados, 0 con error',
    });
    // Issue 48.6: row 3 (name and state the phone already had) is not said to be updated.
    const actualizado = 'Duplicado: se actualizaron su nombre y estado';
    expect(r.filas_duplicadas.map((f: any) => [f.fila, f.motivo])).toEqual([
      [2, actualizado],
      [3, 'Duplicado: ya tenía ese nombre y estado, no cambió nada'],
      [4, actualizado],
      [5, actualizado],
    ]);
    expect(await telefono('5540000001')).toEqual({
      nombre: 'Ana Nueva',
      estado: 'Yucatán',
      categorias: [c1, c2].sort(),
    });
    expect(await telefono('5540000002')).toMatchObject({ nombre: 'Beto Dos', estado: 'Puebla' });
    // The last row of a number wins.
    expect(await telefono('5540000009')).toMatchObject({
      nombre: 'Nueve Otra Vez',
      estado: 'Puebla',
    });
    const busqueda = await pedir(api.url, 'GET', '/telefonos/?q=ana%20nueva', { token });
    expect(busqueda.body.data.map((t: any) => t.telefono)).toEqual(['5540000001']);
  });

  it("'reemplazar_categorias' (issue 48.6): the row's categories become the phone's, name and state kept", async () => {
    const [c1, c2] = Object.keys(cat);
    // 5540000001 holds c1 and c2 by now; 5540000003 holds c1.
    const r = await importar(
      api,
      token,
      [
        'telefono,nombre,categorias',
        `5540000001,Otro nombre,${c2}`,
        `5540000003,,${c2}`,
        `5540000003,,${c1}`, // the last row of a number wins
      ].join('\n'),
      { duplicados: 'reemplazar_categorias' },
    );
    expect(r).toMatchObject({
      modo_duplicados: 'reemplazar_categorias',
      insertadas: 0,
      duplicadas: 3,
      mensaje:
        'Importación terminada: 0 agregados, 3 duplicados con categorías reemplazadas, 0 con error',
    });
    expect(r.filas_duplicadas.map((f: any) => [f.fila, f.motivo])).toEqual([
      [2, 'Duplicado: sus categorías ahora son las de la fila'],
      [3, 'Duplicado: sus categorías ahora son las de la fila'],
      [4, 'Duplicado: sus categorías ahora son las de la fila'],
    ]);
    expect(await telefono('5540000001')).toEqual({
      nombre: 'Ana Nueva',
      estado: 'Yucatán',
      categorias: [c2],
    });
    expect(await telefono('5540000003')).toEqual({
      nombre: 'Caro Tres',
      estado: 'Jalisco',
      categorias: [c1],
    });
  });

  it('an unknown way: 400 naming the field, no job', async () => {
    const r = await subir(api, token, 'telefono\n5540000001\n', { duplicados: 'borrar' });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'El campo duplicados no es válido: use uno de: omitir, agregar_categorias, reemplazar_categorias, actualizar',
    );
  });
});
