import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etiquetaCampo } from '@pregon/contract/etiquetas-campo';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { contar, contarAparte, contarHasta } from '../repositories/telefonos.ts';
import { MAX_PAGINA_TELEFONOS, TOPE_CONTEO_TELEFONOS } from '@pregon/contract/api/telefonos';

describe.each(MOTORES)('teléfonos (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let consulta: string;
  let jalisco: number;
  let nl: number;
  let cats: Record<string, number>;
  const p = (method: string, ruta: string, token?: string, body?: unknown) =>
    pedir(api.url, method, ruta, { token, body });

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    consulta = (await tokenConRol(api, 'consulta')).token;
    const estados = (await p('GET', '/estados/', admin)).body.data;
    jalisco = estados.find((e: any) => e.estado === 'Jalisco').id_estado;
    nl = estados.find((e: any) => e.estado === 'Nuevo León').id_estado;
    cats = Object.fromEntries(
      (await p('GET', '/categorias/', admin)).body.data.map((c: any) => [
        c.categoria,
        c.id_categoria,
      ]),
    );
  });
  afterAll(async () => api?.cerrar());

  it('registra un teléfono normalizado con sus categorías en la misma transacción', async () => {
    const r = await p('POST', '/telefono/', admin, {
      telefono: '(33) 1234-5678',
      nombre: 'Ana',
      id_estado: jalisco,
      categorias: [cats['Brigadistas'], cats['Hospitales']],
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 200, id_telefono: expect.any(Number) });
    const fila = await api.ctx.db.kysely
      .selectFrom('telefonos')
      .selectAll()
      .where('id_telefono', '=', r.body.id_telefono)
      .executeTakeFirstOrThrow();
    expect(fila.telefono).toBe('3312345678');
    const enlaces = await api.ctx.db.kysely
      .selectFrom('telefono_categoria')
      .select('id_categoria')
      .where('id_telefono', '=', r.body.id_telefono)
      .execute();
    expect(enlaces.map((e) => e.id_categoria).sort()).toEqual(
      [cats['Brigadistas'], cats['Hospitales']].sort(),
    );
  });

  it('el mismo número escrito de otra forma es duplicado: 409 en español', async () => {
    const r = await p('POST', '/telefono/', admin, {
      telefono: '+52 1 33 1234 5678',
      id_estado: jalisco,
      categorias: [],
    });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('El teléfono 3312345678 ya está registrado');
  });

  it('un número extranjero se guarda en E.164; categorías como texto separado por comas', async () => {
    const r = await p('POST', '/telefono/', admin, {
      telefono: '+1 415 555 2671',
      id_estado: nl,
      categorias: `${cats['Escuelas']}`,
    });
    expect(r.status).toBe(200);
    const t = await api.ctx.db.kysely
      .selectFrom('telefonos')
      .select('telefono')
      .where('id_telefono', '=', r.body.id_telefono)
      .executeTakeFirstOrThrow();
    expect(t.telefono).toBe('+14155552671');
  });

  it.each([
    [{ telefono: '12345', id_estado: 1 }, 'telefono', /10 dígitos/],
    [{ telefono: 'abc', id_estado: 1 }, 'telefono', /solo admite dígitos/],
    [{ telefono: '5512345678' }, 'id_estado', /obligatorio/],
    [{ telefono: '5512345678', id_estado: 999999 }, 'id_estado', /Estado no encontrado/],
    [
      { telefono: '5512345678', id_estado: 1, categorias: [999999] },
      'categorias',
      /Categoría desconocida/,
    ],
    [{ id_estado: 1 }, 'telefono', /obligatorio/],
  ])('entrada inválida %j: 400 que nombra %s', async (body, campo, texto) => {
    const r = await p('POST', '/telefono/', admin, body);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(etiquetaCampo(campo));
    expect(r.body.message).toMatch(texto);
  });

  it('POST /telefono/categoria/ es idempotente; teléfono o categoría inexistentes: 404', async () => {
    const t = await p('POST', '/telefono/', admin, {
      telefono: '8187654321',
      id_estado: nl,
      categorias: [],
    });
    const body = { id_telefono: t.body.id_telefono, id_categoria: cats['Ciudadanía'] };
    expect(await p('POST', '/telefono/categoria/', admin, body)).toMatchObject({
      status: 200,
      body: { status: 200 },
    });
    expect((await p('POST', '/telefono/categoria/', admin, body)).status).toBe(200);
    expect(
      (await p('POST', '/telefono/categoria/', admin, { ...body, id_telefono: 999999 })).status,
    ).toBe(404);
    const sinCat = await p('POST', '/telefono/categoria/', admin, {
      ...body,
      id_categoria: 999999,
    });
    expect(sinCat.status).toBe(404);
    expect(sinCat.body.message).toBe('Categoría no encontrada');
    const mal = await p('POST', '/telefono/categoria/', admin, { id_telefono: 'x' });
    expect(mal.status).toBe(400);
  });

  it('GET /telefonos/{estado}/ devuelve una lista distinta con X-Total-Count, paginable y con búsqueda', async () => {
    for (let i = 0; i < 5; i++) {
      await p('POST', '/telefono/', admin, {
        telefono: `33900000${String(i).padStart(2, '0')}`,
        nombre: i % 2 ? `Pedro Pérez ${i}` : `Luisa Gómez ${i}`,
        id_estado: jalisco,
        categorias: [cats['Brigadistas'], cats['Escuelas']],
      });
    }
    const r = await p(
      'GET',
      `/telefonos/${jalisco}/?categorias=${cats['Brigadistas']},${cats['Escuelas']}`,
      consulta,
    );
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    const numeros = r.body.map((t: any) => t.telefono);
    expect(new Set(numeros).size).toBe(numeros.length);
    expect(numeros).toContain('3312345678');
    expect(r.headers.get('x-total-count')).toBe(String(r.body.length));
    expect(r.body[0]).toMatchObject({
      id_telefono: expect.any(Number),
      telefono: expect.any(String),
      id_estado: jalisco,
      estado: 'Jalisco',
    });
    const pagina = await p(
      'GET',
      `/telefonos/${jalisco}/?categorias=${cats['Brigadistas']}&limit=2&offset=1`,
      consulta,
    );
    expect(pagina.body).toHaveLength(2);
    expect(pagina.headers.get('x-total-count')).toBe('6');
    expect(pagina.body[0].telefono).toBe(numeros[1]);
    const busca = await p(
      'GET',
      `/telefonos/${jalisco}/?categorias=${cats['Brigadistas']}&q=${encodeURIComponent('pérez JALISCO')}`,
      consulta,
    );
    expect(busca.body.map((t: any) => t.nombre).sort()).toEqual(['Pedro Pérez 1', 'Pedro Pérez 3']);
    const otra = await p('GET', `/telefonos/${nl}/?categorias=${cats['Brigadistas']}`, consulta);
    expect(otra.body).toEqual([]);
    expect(otra.headers.get('x-total-count')).toBe('0');
    const sin = await p('GET', `/telefonos/${jalisco}/`, consulta);
    expect(sin.body).toEqual([]);
    expect((await p('GET', `/telefonos/abc/?categorias=1`, consulta)).status).toBe(400);
    expect((await p('GET', `/telefonos/${jalisco}/?categorias=1&limit=0`, consulta)).status).toBe(
      400,
    );
  });

  it('GET /telefonos/ pagina en el servidor con las categorías de cada teléfono', async () => {
    const r = await p(
      'GET',
      `/telefonos/?estado=${jalisco}&categoria=${cats['Escuelas']}&page=2&size=2`,
      consulta,
    );
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(5);
    expect(r.body.total_exacto).toBe(true);
    expect(r.body.data).toHaveLength(2);
    expect(r.body.data[0].categorias.map((c: any) => c.categoria).sort()).toEqual([
      'Brigadistas',
      'Escuelas',
    ]);
    const q = await p('GET', '/telefonos/?q=415', consulta);
    expect(q.body.data.map((t: any) => t.telefono)).toEqual(['+14155552671']);
    expect((await p('GET', '/telefonos/?size=100000', consulta)).status).toBe(400);
  });

  it('GET /telefonos/ con más de TOPE_CONTEO_TELEFONOS coincidencias dice «más de» y sigue paginando', async () => {
    const zac = (await p('GET', '/estados/', admin)).body.data.find(
      (e: any) => e.estado === 'Zacatecas',
    ).id_estado;
    const n = TOPE_CONTEO_TELEFONOS + 30;
    const filas = Array.from({ length: n }, (_, i) => ({
      telefono: String(4920000000 + i),
      nombre: `Zac ${i}`,
      id_estado: zac,
      creado: 0,
    }));
    for (let i = 0; i < n; i += 500)
      await api.ctx.db.kysely
        .insertInto('telefonos')
        .values(filas.slice(i, i + 500))
        .execute();
    const pagina = async (page: number) =>
      (await p('GET', `/telefonos/?estado=${zac}&size=20&page=${page}`, consulta)).body;
    expect(await pagina(1)).toMatchObject({ total: TOPE_CONTEO_TELEFONOS, total_exacto: false });
    const pasado = await pagina(TOPE_CONTEO_TELEFONOS / 20 + 1);
    expect(pasado.data).toHaveLength(20);
    expect(pasado).toMatchObject({ total: TOPE_CONTEO_TELEFONOS + 21, total_exacto: false });
    const ultima = await pagina(TOPE_CONTEO_TELEFONOS / 20 + 2);
    expect(ultima.data).toHaveLength(10);
    expect(ultima).toMatchObject({ total: n, total_exacto: true });
    expect(ultima.data.at(-1).telefono).toBe(String(4920000000 + n - 1));
    // Past the last page, however far (issue 49.4): empty, with the true total, exact.
    for (const lejos of [TOPE_CONTEO_TELEFONOS / 20 + 3, MAX_PAGINA_TELEFONOS])
      expect(await pagina(lejos)).toEqual({
        status: 200,
        data: [],
        total: n,
        total_exacto: true,
        hay_anterior: true,
        hay_siguiente: false,
      });
    // The exact count the list asks for past the bound (issue 26.7), searches included.
    const conteo = await p('GET', `/telefonos/conteo/?estado=${zac}`, consulta);
    expect(conteo.body).toEqual({ status: 200, total: n });
    // Every word in the number, the name or the state's key (ZAC).
    const buscados = filas.filter((f) =>
      ['zac', '15'].every(
        (w) => f.telefono.includes(w) || f.nombre.toLowerCase().includes(w) || w === 'zac',
      ),
    ).length;
    expect(buscados).toBeGreaterThan(20);
    expect((await p('GET', `/telefonos/conteo/?estado=${zac}&q=zac+15`, consulta)).body).toEqual({
      status: 200,
      total: buscados,
    });
    expect((await p('GET', `/telefonos/conteo/?estado=${zac}`)).status).toBe(401);
  });

  it('GET /telefonos/ pagina por cursor: siguiente, anterior y última, con filtros y con el cursor borrado', async () => {
    const oax = (await p('GET', '/estados/', admin)).body.data.find(
      (e: any) => e.estado === 'Oaxaca',
    ).id_estado;
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await p('POST', '/telefono/', admin, {
        telefono: String(9510000000 + i),
        nombre: `Oax ${i}`,
        id_estado: oax,
        categorias: i % 2 === 0 ? [cats['Escuelas']] : [],
      });
      ids.push(r.body.id_telefono);
    }
    const pagina = async (qs: string) => {
      const r = await p('GET', `/telefonos/?estado=${oax}&size=3&${qs}`, consulta);
      expect(r.status).toBe(200);
      const { data, ...resto } = r.body;
      return { nombres: data.map((t: any) => t.nombre), ...resto };
    };
    const n = (...i: number[]) => i.map((x) => `Oax ${x}`);
    expect(await pagina('')).toMatchObject({
      nombres: n(0, 1, 2),
      total: 8,
      total_exacto: true,
      hay_anterior: false,
      hay_siguiente: true,
    });
    expect(await pagina(`despues=${ids[2]}`)).toMatchObject({
      nombres: n(3, 4, 5),
      total: 8,
      hay_anterior: true,
      hay_siguiente: true,
    });
    expect(await pagina(`despues=${ids[5]}`)).toMatchObject({
      nombres: n(6, 7),
      hay_anterior: true,
      hay_siguiente: false,
    });
    expect(await pagina(`antes=${ids[6]}`)).toMatchObject({
      nombres: n(3, 4, 5),
      hay_anterior: true,
      hay_siguiente: true,
    });
    expect(await pagina(`antes=${ids[3]}`)).toMatchObject({
      nombres: n(0, 1, 2),
      hay_anterior: false,
      hay_siguiente: true,
    });
    // Fewer than a page before the cursor: the first page, full.
    expect(await pagina(`antes=${ids[1]}`)).toMatchObject({
      nombres: n(0, 1, 2),
      hay_anterior: false,
      hay_siguiente: true,
    });
    expect(await pagina('ultima=1')).toMatchObject({
      nombres: n(5, 6, 7),
      total: 8,
      hay_anterior: true,
      hay_siguiente: false,
    });

    // Past the end: no rows to carry the count and the look-behind, which are asked apart.
    expect(await pagina(`despues=${ids[7]}`)).toMatchObject({
      nombres: [],
      total: 8,
      total_exacto: true,
      hay_anterior: true,
      hay_siguiente: false,
    });

    // Filters combine with the cursor: Escuelas holds the even ones.
    const esc = `categoria=${cats['Escuelas']}`;
    expect(await pagina(esc)).toMatchObject({ nombres: n(0, 2, 4), total: 4, hay_siguiente: true });
    expect(await pagina(`${esc}&despues=${ids[4]}`)).toMatchObject({
      nombres: n(6),
      hay_anterior: true,
      hay_siguiente: false,
    });
    expect(await pagina(`${esc}&ultima=1`)).toMatchObject({
      nombres: n(2, 4, 6),
      hay_anterior: true,
    });
    // A search is not counted: total says what was seen ('more than' while pages remain).
    expect(await pagina(`q=oax&despues=${ids[2]}`)).toMatchObject({
      nombres: n(3, 4, 5),
      total_exacto: false,
      hay_anterior: true,
      hay_siguiente: true,
    });
    expect(await pagina(`q=oax 7&antes=${ids[7]}`)).toMatchObject({
      nombres: n(7),
      total: 1,
      total_exacto: true,
      hay_anterior: false,
      hay_siguiente: false,
    });

    // Words are plain text: % and _ are not wildcards.
    expect((await pagina('q=%25')).nombres).toEqual([]);
    expect((await pagina('q=_')).nombres).toEqual([]);

    // The cursor's phone deleted: the pages around where it was.
    expect((await p('DELETE', `/telefono/${ids[3]}/`, admin)).status).toBe(200);
    expect(await pagina(`despues=${ids[3]}`)).toMatchObject({
      nombres: n(4, 5, 6),
      total: 7,
      hay_anterior: true,
      hay_siguiente: true,
    });
    expect(await pagina(`antes=${ids[3]}`)).toMatchObject({
      nombres: n(0, 1, 2),
      hay_anterior: false,
      hay_siguiente: true,
    });
  });

  it('GET /telefonos/ más allá de la última página: vacía, con el total verdadero (issue 49.4)', async () => {
    const total = (await p('GET', `/telefonos/conteo/?estado=${jalisco}`, consulta)).body.total;
    expect(total).toBeGreaterThan(0);
    const lejos = await p('GET', `/telefonos/?estado=${jalisco}&page=1000000&size=10`, consulta);
    expect(lejos.body).toEqual({
      status: 200,
      data: [],
      total,
      total_exacto: true,
      hay_anterior: true,
      hay_siguiente: false,
    });
    // Just past the last page, and a search (never counted on its pages) past its last.
    const justo = await p(
      'GET',
      `/telefonos/?estado=${jalisco}&page=${total + 1}&size=1`,
      consulta,
    );
    expect(justo.body).toMatchObject({ data: [], total, total_exacto: true });
    const busqueda = await p('GET', `/telefonos/?q=jal&page=500000&size=500`, consulta);
    expect(busqueda.body).toMatchObject({
      data: [],
      total: (await p('GET', '/telefonos/conteo/?q=jal', consulta)).body.total,
      total_exacto: true,
    });
    // Nothing matches: no page before it either.
    const nada = await p('GET', '/telefonos/?q=zzzqqq&page=7', consulta);
    expect(nada.body).toMatchObject({
      data: [],
      total: 0,
      total_exacto: true,
      hay_anterior: false,
    });
  });

  it.each([
    ['page=1000000000', 'page', 'entre 1 y 1000000'],
    ['page=1000001', 'page', 'entre 1 y 1000000'],
    ['page=0', 'page', 'entre 1 y 1000000'],
    ['page=abc', 'page', 'entre 1 y 1000000'],
    ['size=0', 'size', 'entre 1 y 500'],
    ['size=501', 'size', 'entre 1 y 500'],
    ['size=2.5', 'size', 'entre 1 y 500'],
  ])('GET /telefonos/?%s: 400 que nombra %s y su rango', async (qs, campo, rango) => {
    const r = await p('GET', `/telefonos/?${qs}`, consulta);
    expect(r.status).toBe(400);
    expect(r.body.campo).toBe(campo);
    expect(r.body.message).toMatch(new RegExp(`^El campo ${etiquetaCampo(campo)} .*${rango}`));
  });

  it.each([
    ['despues=abc', 'despues'],
    ['antes=0', 'antes'],
    ['ultima=si', 'ultima'],
    ['despues=5&antes=9', 'antes'],
    ['despues=5&page=2', 'page'],
  ])('GET /telefonos/?%s: 400 en español que nombra %s', async (qs, campo) => {
    const r = await p('GET', `/telefonos/?${qs}`, consulta);
    expect(r.status).toBe(400);
    expect(r.body.campo).toBe(campo);
    expect(r.body.message).toMatch(new RegExp(`^El campo ${etiquetaCampo(campo)} `));
  });

  it('el conteo de GET /telefonos/ se detiene en el tope y no lee toda la tabla', async () => {
    const k = api.ctx.db.kysely;
    const exacto = await contar(k, { estado: jalisco });
    expect(exacto).toBeGreaterThan(3);
    expect(await contarHasta(k, { estado: jalisco }, 3)).toBe(3);
    expect(await contarHasta(k, { estado: jalisco }, exacto + 1)).toBe(exacto);
    expect(await contarHasta(k, { estado: jalisco, q: '415' }, 3)).toBe(
      await contar(k, { estado: jalisco, q: '415' }),
    );
    // Off the api's thread on SQLite (its reading thread), the same counts.
    expect(await contarAparte(api.ctx.db, { estado: jalisco })).toBe(exacto);
    expect(await contarAparte(api.ctx.db, { q: '415' })).toBe(await contar(k, { q: '415' }));
    expect(await contarAparte(api.ctx.db, {})).toBe(await contar(k, {}));
  });

  it('PUT /telefono/{id}/ cambia número, nombre, estado y reemplaza categorías; duplicado 409', async () => {
    const t = await p('POST', '/telefono/', admin, {
      telefono: '5550001111',
      id_estado: jalisco,
      categorias: [cats['Escuelas']],
    });
    const id = t.body.id_telefono;
    const r = await p('PUT', `/telefono/${id}/`, admin, {
      telefono: '55 5000 2222',
      nombre: 'Nuevo',
      id_estado: nl,
      categorias: [cats['Hospitales']],
    });
    expect(r.status).toBe(200);
    const fila = await api.ctx.db.kysely
      .selectFrom('telefonos')
      .selectAll()
      .where('id_telefono', '=', id)
      .executeTakeFirstOrThrow();
    expect(fila).toMatchObject({ telefono: '5550002222', nombre: 'Nuevo', id_estado: nl });
    const enlaces = await api.ctx.db.kysely
      .selectFrom('telefono_categoria')
      .select('id_categoria')
      .where('id_telefono', '=', id)
      .execute();
    expect(enlaces.map((e) => e.id_categoria)).toEqual([cats['Hospitales']]);
    const dup = await p('PUT', `/telefono/${id}/`, admin, { telefono: '3312345678' });
    expect(dup.status).toBe(409);
    expect((await p('PUT', '/telefono/999999/', admin, { nombre: 'x' })).status).toBe(404);
    expect((await p('PUT', `/telefono/${id}/`, admin, { telefono: '1' })).status).toBe(400);
  });

  it('DELETE /telefono/{id}/ borra del directorio; el destinatario de un ejercicio conserva su copia', async () => {
    const t = await p('POST', '/telefono/', admin, {
      telefono: '5550003333',
      nombre: 'Destinatario',
      id_estado: jalisco,
      categorias: [cats['Escuelas']],
    });
    const id = t.body.id_telefono;
    const k = api.ctx.db.kysely;
    const id_equipo = await crearEquipo(api.ctx.db, { protocolo: 'smpp' });
    const id_ejercicio = await crearEjercicio(api.ctx.db, {
      id_equipo,
      id_estado: jalisco,
      iniciar: false,
    });
    await k
      .insertInto('ejercicio_detalle')
      .values({
        id_ejercicio,
        id_telefono: id,
        telefono: '5550003333',
        nombre: 'Destinatario',
        id_estado: jalisco,
        posicion: 1,
      })
      .execute();
    const r = await p('DELETE', `/telefono/${id}/`, admin);
    expect(r.status).toBe(200);
    expect(
      await k
        .selectFrom('telefonos')
        .select('id_telefono')
        .where('id_telefono', '=', id)
        .executeTakeFirst(),
    ).toBeUndefined();
    const copia = await k
      .selectFrom('ejercicio_detalle')
      .select(['telefono', 'nombre'])
      .where('id_ejercicio', '=', id_ejercicio)
      .executeTakeFirstOrThrow();
    expect(copia).toEqual({ telefono: '5550003333', nombre: 'Destinatario' });
    expect((await p('DELETE', `/telefono/${id}/`, admin)).status).toBe(404);
    const audit = await k
      .selectFrom('auditoria')
      .select('accion')
      .where('entidad', '=', 'telefono')
      .where('id_entidad', '=', String(id))
      .execute();
    expect(audit.map((a) => a.accion)).toEqual(['crear', 'eliminar']);
  });

  it.each([
    ['POST', '/telefono/'],
    ['POST', '/telefono/categoria/'],
    ['GET', '/telefonos/1/?categorias=1'],
    ['GET', '/telefonos/'],
    ['PUT', '/telefono/1/'],
    ['DELETE', '/telefono/1/'],
    ['POST', '/telefonos/importar/'],
    ['GET', '/telefonos/importar/1/'],
  ])('%s %s sin token: 401', async (m, ruta) => {
    const r = await p(m, ruta, undefined, m === 'POST' || m === 'PUT' ? {} : undefined);
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('FALLO: SESION EXPIRADA');
  });

  it.each([
    ['POST', '/telefono/', { telefono: '5512340000', id_estado: 1 }],
    ['POST', '/telefono/categoria/', { id_telefono: 1, id_categoria: 1 }],
    ['PUT', '/telefono/1/', { nombre: 'x' }],
    ['DELETE', '/telefono/1/', undefined],
    ['POST', '/telefonos/importar/', {}],
  ])('%s %s con rol consulta: 403', async (m, ruta, body) => {
    const r = await p(m, ruta, consulta, body);
    expect(r.status).toBe(403);
  });
});
