import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';

// Issue 45.3: 'Agregar categorías a los teléfonos existentes' with a file of phones that exist
// and their categories only (no state column) ended '0 agregados, 0 duplicados con categorías
// agregadas, 6 con error', each row 'Estado obligatorio'. A row of an existing phone needs only
// its phone and categories; a state in the file that differs from the phone's is reported in the
// list of duplicates and not applied; a new phone still needs a state (the file's or the form's).

async function importar(
  api: ApiDePrueba,
  token: string,
  nombre: string,
  contenido: Buffer | string,
  campos: Record<string, string>,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(campos)) form.append(k, v);
  form.append('file', new Blob([contenido]), nombre);
  const res = await fetch(`${api.url}/telefonos/importar/`, {
    method: 'POST',
    body: form,
    headers: { authorization: token },
  });
  const cuerpo = (await res.json()) as any;
  expect(res.status, JSON.stringify(cuerpo)).toBe(200);
  const limite = Date.now() + 60_000;
  for (;;) {
    const p = await pedir(api.url, 'GET', `/telefonos/importar/${cuerpo.id_importacion}/`, {
      token,
    });
    if (p.body.estatus !== 'en_proceso') return p.body;
    if (Date.now() > limite) throw new Error('la importación no terminó');
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

async function xlsx(filas: string[][]): Promise<Buffer> {
  const libro = new ExcelJS.Workbook();
  const hoja = libro.addWorksheet('Teléfonos');
  for (const f of filas) hoja.addRow(f);
  return Buffer.from(await libro.xlsx.writeBuffer());
}

describe.each(MOTORES)('importación: agregar categorías a teléfonos existentes (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let cat: Record<string, number>;
  let est: Record<string, number>;

  /** A phone's name, state name and sorted category names (undefined when it does not exist). */
  async function telefono(numero: string) {
    const t = await api.ctx.db.kysely
      .selectFrom('telefonos as t')
      .leftJoin('estados as e', 'e.id_estado', 't.id_estado')
      .select(['t.id_telefono', 't.nombre', 'e.estado'])
      .where('t.telefono', '=', numero)
      .executeTakeFirst();
    if (!t) return undefined;
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
    for (let i = 1; i <= 6; i++) {
      const r = await pedir(api.url, 'POST', '/telefono/', {
        token,
        body: {
          telefono: `554100000${i}`,
          nombre: `Persona ${i}`,
          id_estado: est[i <= 3 ? 'Jalisco' : 'Yucatán'],
          categorias: [cat[c1!]],
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  });
  afterAll(async () => api?.cerrar());

  it("CSV telefono,nombre,categorias de 6 teléfonos existentes: las 6 filas agregan sus categorías, sin 'Estado obligatorio'", async () => {
    const [c1, c2] = Object.keys(cat);
    const csv = [
      'telefono,nombre,categorias',
      ...[1, 2, 3, 4, 5, 6].map((i) => `554100000${i},Persona ${i},${c2}`),
    ].join('\n');
    const r = await importar(api, token, 'categorias.csv', csv, {
      duplicados: 'agregar_categorias',
    });
    expect(r).toMatchObject({
      estatus: 'terminada',
      insertadas: 0,
      duplicadas: 6,
      con_error: 0,
      errores: [],
      mensaje:
        'Importación terminada: 0 agregados, 6 duplicados con categorías agregadas, 0 con error',
    });
    expect(r.filas_duplicadas.map((f: any) => [f.fila, f.motivo])).toEqual(
      [2, 3, 4, 5, 6, 7].map((n) => [n, 'Duplicado: se le agregaron las categorías de la fila']),
    );
    for (let i = 1; i <= 6; i++)
      expect(await telefono(`554100000${i}`)).toEqual({
        nombre: `Persona ${i}`,
        estado: i <= 3 ? 'Jalisco' : 'Yucatán',
        categorias: [c1, c2].sort(),
      });
  });

  it('.xlsx con estado: el estado distinto se informa y no se aplica; un teléfono nuevo necesita estado (del archivo o del formulario)', async () => {
    const [c1, c2, c3] = Object.keys(cat);
    const archivo = await xlsx([
      ['Teléfono', 'Estado', 'Categorías'],
      ['5541000001', 'Puebla', c3!], // row 2: exists (Jalisco): reported, not applied
      ['5541000002', 'Jalisco', c3!], // row 3: exists, same state
      ['5541000004', '', c3!], // row 4: exists, no state
      ['5541000077', '', c3!], // row 5: new, no state, no default: 'Estado obligatorio'
      ['5541000078', 'Puebla', c3!], // row 6: new with its state
      ['5541000078', 'Yucatán', c2!], // row 7: the phone of row 6: reported, not applied
    ]);
    const r = await importar(api, token, 'categorias.xlsx', archivo, {
      duplicados: 'agregar_categorias',
    });
    expect(r).toMatchObject({
      estatus: 'terminada',
      insertadas: 1,
      duplicadas: 4,
      con_error: 1,
      mensaje:
        'Importación terminada: 1 agregados, 4 duplicados con categorías agregadas, 1 con error',
    });
    expect(r.errores).toEqual([{ fila: 5, motivo: 'Estado obligatorio', telefono: '5541000077' }]);
    expect(r.filas_duplicadas.map((f: any) => [f.fila, f.telefono, f.motivo])).toEqual([
      [
        2,
        '5541000001',
        'Duplicado: se le agregaron las categorías de la fila; su estado sigue siendo Jalisco, no se cambió a Puebla',
      ],
      [3, '5541000002', 'Duplicado: se le agregaron las categorías de la fila'],
      [4, '5541000004', 'Duplicado: se le agregaron las categorías de la fila'],
      [
        7,
        '5541000078',
        'Duplicado: se le agregaron las categorías de la fila; su estado sigue siendo Puebla, no se cambió a Yucatán',
      ],
    ]);
    expect(await telefono('5541000001')).toEqual({
      nombre: 'Persona 1',
      estado: 'Jalisco',
      categorias: [c1, c2, c3].sort(),
    });
    expect((await telefono('5541000004'))?.estado).toBe('Yucatán');
    expect(await telefono('5541000077')).toBeUndefined();
    expect(await telefono('5541000078')).toEqual({
      nombre: null,
      estado: 'Puebla',
      categorias: [c2, c3].sort(),
    });

    // With the form's state, the new phone without one takes it; the existing ones keep theirs.
    const otra = await importar(
      api,
      token,
      'categorias.csv',
      ['telefono,categorias', `5541000077,${c1}`, `5541000005,${c3}`].join('\n'),
      { duplicados: 'agregar_categorias', id_estado: String(est['Puebla']) },
    );
    expect(otra).toMatchObject({ insertadas: 1, duplicadas: 1, con_error: 0 });
    expect(await telefono('5541000077')).toEqual({
      nombre: null,
      estado: 'Puebla',
      categorias: [c1],
    });
    expect((await telefono('5541000005'))?.estado).toBe('Yucatán');
  });
});
