import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { MOTORES, crearBasePostgres, ingresar, levantarApi, pedir } from '../../testing/entorno.ts';
import type { ApiDePrueba } from '../../testing/entorno.ts';
import { crearEquipo } from '../../testing/fabrica.ts';

// Searching the way Spanish is written (issue 26.4): case and accents ignored both ways, in every
// search the api answers, on both engines.

describe.each(MOTORES)('búsqueda sin mayúsculas ni acentos (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let yucatan: number;
  let jalisco: number;
  let cat: number;
  const p = (method: string, ruta: string, body?: unknown) =>
    pedir(api.url, method, ruta, { token: admin, body });
  const nombres = async (ruta: string) =>
    ((await p('GET', ruta)).body.data as { nombre: string }[]).map((t) => t.nombre).sort();

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    const estados = (await p('GET', '/estados/')).body.data;
    yucatan = estados.find((e: any) => e.estado === 'Yucatán').id_estado;
    jalisco = estados.find((e: any) => e.estado === 'Jalisco').id_estado;
    cat = (await p('GET', '/categorias/')).body.data[0].id_categoria;
    const altas: [string, string, number][] = [
      ['3311110001', 'Ángel Pérez', jalisco],
      ['3311110002', 'Óscar Martínez', jalisco],
      ['3311110003', 'Ñúñez López', jalisco],
      ['3311110004', 'martinez gomez', jalisco],
      ['9991110005', 'Luis Canul', yucatan],
    ];
    for (const [telefono, nombre, id_estado] of altas) {
      const r = await p('POST', '/telefono/', { telefono, nombre, id_estado, categorias: [cat] });
      expect(r.status).toBe(200);
    }
  });
  afterAll(async () => api?.cerrar());

  it.each<[string, string[]]>([
    ['angel', ['Ángel Pérez']],
    ['ÁNGEL', ['Ángel Pérez']],
    ['oscar', ['Óscar Martínez']],
    ['Ñúñez', ['Ñúñez López']],
    ['nunez', ['Ñúñez López']],
    ['martinez', ['martinez gomez', 'Óscar Martínez']],
    ['MARTÍNEZ', ['martinez gomez', 'Óscar Martínez']],
    ['perez', ['Ángel Pérez']],
    ['yucatan', ['Luis Canul']],
    ['YUCATÁN canul', ['Luis Canul']],
    ['331111000', ['martinez gomez', 'Ñúñez López', 'Ángel Pérez', 'Óscar Martínez']],
  ])('GET /telefonos/?q=%s', async (q, esperados) => {
    expect(await nombres(`/telefonos/?size=50&q=${encodeURIComponent(q)}`)).toEqual(
      [...esperados].sort(),
    );
  });

  it('la vista previa del diálogo de creación (GET /telefonos/{estado}/?q=) también', async () => {
    const r = await p('GET', `/telefonos/${jalisco}/?categorias=${cat}&q=martinez`);
    expect(r.status).toBe(200);
    expect(r.body.map((t: { nombre: string }) => t.nombre).sort()).toEqual(
      ['martinez gomez', 'Óscar Martínez'].sort(),
    );
    expect(r.headers.get('x-total-count')).toBe('2');
  });

  it('un nombre cambiado se busca por su nueva forma', async () => {
    const [t] = (await p('GET', '/telefonos/?q=canul')).body.data;
    const r = await p('PUT', `/telefono/${t.id_telefono}/`, {
      telefono: t.telefono,
      nombre: 'José Güemes',
      id_estado: yucatan,
      categorias: [cat],
    });
    expect(r.status).toBe(200);
    expect(await nombres('/telefonos/?q=canul')).toEqual([]);
    expect(await nombres('/telefonos/?q=guemes jose')).toEqual(['José Güemes']);
  });

  it('equipos: GET /equipos/?q= sin mayúsculas ni acentos', async () => {
    await crearEquipo(api.ctx.db, {
      protocolo: 'android',
      alias: 'Módem Mérida',
      serial: 'SÉRIE-1',
    });
    for (const q of ['modem merida', 'MÓDEM', 'serie-1']) {
      const l = await p('GET', `/equipos/?q=${encodeURIComponent(q)}`);
      expect(l.body.data.map((e: { alias: string }) => e.alias)).toEqual(['Módem Mérida']);
    }
  });
});

describe.each(MOTORES)('la migración 0018 rellena las formas plegadas (%s)', (motor) => {
  it('nombres con y sin acentos, y nombres de catálogo que ya se repetían', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-0018-'));
    const pg = motor === 'postgres' ? await crearBasePostgres() : undefined;
    const db = openDb(pg ? { databaseUrl: pg.url } : { sqliteFile: path.join(dir, 'pregon.db') });
    try {
      await migrate(db, '0015-alcance');
      const k = db.kysely;
      await sql`insert into paises (pais, codigo_iso, prefijo) values ('México', 'MX', '52')`.execute(
        k,
      );
      await sql`insert into estados (estado, id_pais) values ('Yucatán', 1), ('yucatan', 1)`.execute(
        k,
      );
      await sql`insert into categorias (categoria) values ('Bomberos'), ('bomberos ')`.execute(k);
      await sql`insert into telefonos (telefono, nombre, id_estado, creado)
        values ('1', 'Ñúñez', 1, 0), ('2', 'Persona 2', 1, 0), ('3', null, 1, 0),
          ('4', 'ÓSCAR Güemes', 1, 0)`.execute(k);
      await migrate(db);
      const t = await k
        .selectFrom('telefonos')
        .select(['telefono', 'nombre_busqueda'])
        .orderBy('telefono')
        .execute();
      expect(t).toEqual([
        { telefono: '1', nombre_busqueda: 'nunez' },
        { telefono: '2', nombre_busqueda: 'persona 2' },
        { telefono: '3', nombre_busqueda: null },
        { telefono: '4', nombre_busqueda: 'oscar guemes' },
      ]);
      const e = await k.selectFrom('estados').select('clave').orderBy('id_estado').execute();
      expect(e.map((x) => x.clave)).toEqual(['yucatan', 'yucatan#2']);
      const c = await k.selectFrom('categorias').select('clave').orderBy('id_categoria').execute();
      expect(c.map((x) => x.clave)).toEqual(['bomberos', 'bomberos#2']);
      const otra = await k
        .insertInto('categorias')
        .values({ categoria: 'BOMBEROS', clave: 'bomberos' })
        .execute()
        .catch((err: unknown) => err);
      expect(otra).toBeInstanceOf(Error);
    } finally {
      await db.close();
      await pg?.borrar();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
