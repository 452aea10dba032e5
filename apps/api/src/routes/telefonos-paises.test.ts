import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { cuerpoEjercicio } from '../../testing/ejercicios.ts';
import { crearEquipo } from '../../testing/fabrica.ts';

// Countries that mean something (issue 26.6): a phone is read and stored by the rules of its
// state's country, when typed and when imported; Mexico's rules stay as they were.

describe.each(MOTORES)('teléfonos por el país de su estado (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let peten: number;
  let jalisco: number;
  let guatemala: number;
  let mexico: number;
  const p = (method: string, ruta: string, body?: unknown) =>
    pedir(api.url, method, ruta, { token: admin, body });
  const guardado = async (id: number) =>
    (
      await api.ctx.db.kysely
        .selectFrom('telefonos')
        .select('telefono')
        .where('id_telefono', '=', id)
        .executeTakeFirstOrThrow()
    ).telefono;

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    const gt = await p('POST', '/paises/', {
      pais: 'Guatemala',
      codigo_iso: 'GT',
      prefijo: '+502',
    });
    expect(gt.status).toBe(200);
    guatemala = gt.body.id_pais;
    const e = await p('POST', '/estados/', { estado: 'Petén', id_pais: gt.body.id_pais });
    peten = e.body.id_estado;
    const jal = (await p('GET', '/estados/')).body.data.find((x: any) => x.estado === 'Jalisco');
    jalisco = jal.id_estado;
    mexico = jal.id_pais;
  });
  afterAll(async () => api?.cerrar());

  it('un número de Guatemala escrito sin + entra en un estado de Guatemala y se guarda en E.164', async () => {
    const r = await p('POST', '/telefono/', {
      telefono: '5555 1234',
      nombre: 'Flores',
      id_estado: peten,
      categorias: [],
    });
    expect(r.status).toBe(200);
    expect(await guardado(r.body.id_telefono)).toBe('+50255551234');
    const otra = await p('POST', '/telefono/', {
      telefono: '+502 5555-1234',
      id_estado: peten,
      categorias: [],
    });
    expect(otra.status).toBe(409);
    expect(otra.body.message).toBe('El teléfono +50255551234 ya está registrado');
  });

  it('un número que no es de Guatemala se rechaza nombrando el campo y el país', async () => {
    const r = await p('POST', '/telefono/', {
      telefono: '33 1234 5678',
      id_estado: peten,
      categorias: [],
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'El campo Número no es válido: El número 33 1234 5678 no es válido en el país del estado (GT; tiene 10 dígitos): revise el número o escríbalo con + y el código de su país',
    );
  });

  it('México sigue como estaba: 10 dígitos, y 8 dígitos se rechazan con el mismo texto', async () => {
    const ok = await p('POST', '/telefono/', {
      telefono: '(33) 4444-5555',
      id_estado: jalisco,
      categorias: [],
    });
    expect(await guardado(ok.body.id_telefono)).toBe('3344445555');
    const mal = await p('POST', '/telefono/', {
      telefono: '5555 1234',
      id_estado: jalisco,
      categorias: [],
    });
    expect(mal.status).toBe(400);
    expect(mal.body.message).toContain('Un número de México debe tener 10 dígitos (tiene 8)');
  });

  it('al editar, el número se lee por el estado nuevo o, sin él, por el que tiene', async () => {
    const r = await p('POST', '/telefono/', {
      telefono: '4444 0001',
      id_estado: peten,
      categorias: [],
    });
    const id = r.body.id_telefono;
    expect((await p('PUT', `/telefono/${id}/`, { telefono: '4444 0002' })).status).toBe(200);
    expect(await guardado(id)).toBe('+50244440002');
    const aMexico = await p('PUT', `/telefono/${id}/`, {
      telefono: '33 5555 0003',
      id_estado: jalisco,
    });
    expect(aMexico.status).toBe(200);
    expect(await guardado(id)).toBe('3355550003');
  });

  it('la importación lee cada fila por el país de su estado', async () => {
    const csv = [
      'telefono;nombre;estado',
      '5555 7777;Chiquimula;Petén',
      '33 7777 8888;Tapatío;Jalisco',
      '33 7777 9999;Mal;Petén',
    ].join('\r\n');
    const form = new FormData();
    form.append('file', new Blob([csv]), 'paises.csv');
    const res = await fetch(`${api.url}/telefonos/importar/`, {
      method: 'POST',
      body: form,
      headers: { authorization: admin },
    });
    const id = ((await res.json()) as any).id_importacion;
    let fin: any;
    for (let i = 0; i < 500; i++) {
      fin = (await p('GET', `/telefonos/importar/${id}/`)).body;
      if (fin.estatus !== 'en_proceso') break;
      await new Promise((ok) => setTimeout(ok, 20));
    }
    expect(fin).toMatchObject({ estatus: 'terminada', insertadas: 2, con_error: 1 });
    expect(fin.errores[0]).toMatchObject({ fila: 4 });
    expect(fin.errores[0].motivo).toContain('no es válido en el país del estado (GT');
    const q = (await p('GET', '/telefonos/?q=chiquimula')).body.data;
    expect(q.map((t: any) => t.telefono)).toEqual(['+50255557777']);
  });

  it('un ejercicio no sale de su país sin pedirlo (issue 48.1): 400 en estados, crear, editar y generar', async () => {
    const equipo = await crearEquipo(api.ctx.db, { protocolo: 'smpp' });
    const mixto = cuerpoEjercicio(equipo, {
      titulo: 'Nacional',
      estado: jalisco,
      estados: `${jalisco},${peten}`,
    });
    const nombre = 'Los estados elegidos son de 2 países (México, Guatemala)';
    const r = await p('POST', '/ejercicio/', mixto);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(nombre);
    expect(r.body.message).toContain('varios_paises');
    expect(r.body.campo).toBe('estados');
    const antes = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('titulo', '=', 'Nacional')
      .executeTakeFirstOrThrow();
    expect(Number(antes.n)).toBe(0);
    // One country, as the SPEC's client sends it: accepted.
    const uno = await p('POST', '/ejercicio/', { ...mixto, estados: '' });
    expect(uno.status).toBe(200);
    const id = uno.body.id_ejercicio;
    const g = await p('POST', '/ejercicio/generar/', {
      ejercicio: id,
      estado: jalisco,
      estados: [jalisco, peten],
      categorias: '1,2',
    });
    expect(g.status).toBe(400);
    expect(g.body.message).toContain(nombre);
    // Asked for explicitly: accepted (true or '1').
    const pedido = await p('POST', '/ejercicio/', { ...mixto, varios_paises: true });
    expect(pedido.status).toBe(200);
    const g2 = await p('POST', '/ejercicio/generar/', {
      ejercicio: id,
      estado: jalisco,
      estados: `${jalisco},${peten}`,
      varios_paises: '1',
      categorias: '1,2',
    });
    expect(g2.status).toBe(200);
  });
  it('la confirmación de inicio y el diálogo cuentan los destinatarios por país (issue 48.1): GET /ejercicio/paises/{id}/ y GET /telefonos/paises/', async () => {
    const cat = (await p('POST', '/categorias/', { categoria: 'Países 48' })).body.id_categoria;
    for (const [telefono, id_estado] of [
      ['3312345678', jalisco],
      ['3312345679', jalisco],
      ['+502 4444 1234', peten],
    ] as const) {
      const r = await p('POST', '/telefono/', { telefono, id_estado, categorias: [cat] });
      expect(r.status).toBe(200);
    }
    const equipo = await crearEquipo(api.ctx.db, { protocolo: 'smpp' });
    const cuerpo = cuerpoEjercicio(equipo, {
      titulo: 'Dos países',
      estado: jalisco,
      estados: `${jalisco},${peten}`,
      varios_paises: '1',
      categorias: String(cat),
    });
    const id = (await p('POST', '/ejercicio/', cuerpo)).body.id_ejercicio;
    const g = await p('POST', '/ejercicio/generar/', {
      ejercicio: id,
      estado: jalisco,
      estados: `${jalisco},${peten}`,
      varios_paises: '1',
      categorias: String(cat),
    });
    expect(g.status).toBe(200);
    const r = await p('GET', `/ejercicio/paises/${id}/`);
    expect(r.status).toBe(200);
    expect(r.body.paises.map((x: any) => [x.pais, x.n])).toEqual([
      ['México', 2],
      ['Guatemala', 1],
    ]);
    expect(r.body.aviso).toBe('Este ejercicio llegará a 2 países: México: 2, Guatemala: 1');
    // One country: no warning.
    const uno = (await p('POST', '/ejercicio/', { ...cuerpo, titulo: 'Solo Jalisco', estados: '' }))
      .body.id_ejercicio;
    await p('POST', '/ejercicio/generar/', {
      ejercicio: uno,
      estado: jalisco,
      categorias: String(cat),
    });
    const r1 = await p('GET', `/ejercicio/paises/${uno}/`);
    expect(r1.body.paises.map((x: any) => [x.pais, x.n])).toEqual([['México', 2]]);
    expect(r1.body.aviso).toBeNull();
    // A selection not saved yet (the create dialog's warning): the same count before saving.
    const sel = await p('GET', `/telefonos/paises/?estados=${jalisco},${peten}&categorias=${cat}`);
    expect(sel.status, JSON.stringify(sel.body)).toBe(200);
    expect(sel.body.paises.map((x: any) => [x.pais, x.n])).toEqual([
      ['México', 2],
      ['Guatemala', 1],
    ]);
    expect(sel.body.aviso).toBe(r.body.aviso);
    // Phones of another category are not counted; one country, no warning; no category, nobody.
    const otra = (await p('POST', '/categorias/', { categoria: 'Otra 48' })).body.id_categoria;
    await p('POST', '/telefono/', {
      telefono: '+502 4444 9999',
      id_estado: peten,
      categorias: [otra],
    });
    const soloOtra = await p(
      'GET',
      `/telefonos/paises/?estados=${jalisco},${peten}&categorias=${otra}`,
    );
    expect(soloOtra.body).toMatchObject({ paises: [{ pais: 'Guatemala', n: 1 }], aviso: null });
    const sinCat = await p('GET', `/telefonos/paises/?estados=${jalisco},${peten}`);
    expect(sinCat.body).toMatchObject({ paises: [], aviso: null });
    const mala = await p('GET', `/telefonos/paises/?estados=abc&categorias=${cat}`);
    expect(mala.status).toBe(400);
    expect(mala.body.campo).toMatch(/^estados/);
    expect(
      (await pedir(api.url, 'GET', `/telefonos/paises/?estados=${jalisco}&categorias=${cat}`, {}))
        .status,
    ).toBe(401);
    expect((await p('GET', '/ejercicio/paises/999999/')).status).toBe(404);
    expect((await pedir(api.url, 'GET', `/ejercicio/paises/${id}/`, {})).status).toBe(401);
  });

  it('la lista de teléfonos se filtra por todo un país (issue 48.1): GET /telefonos/, /conteo/ y /csv/ con pais', async () => {
    const cat = (await p('POST', '/categorias/', { categoria: 'Por país 48' })).body.id_categoria;
    const escuintla = (await p('POST', '/estados/', { estado: 'Escuintla', id_pais: guatemala }))
      .body.id_estado;
    for (const [telefono, id_estado] of [
      ['+502 7777 0001', peten],
      ['+502 7777 0002', escuintla],
      ['33 7777 0003', jalisco],
    ] as const)
      expect(
        (await p('POST', '/telefono/', { telefono, id_estado, categorias: [cat] })).status,
      ).toBe(200);
    const lista = async (q: string) => {
      const r = await p('GET', `/telefonos/?categoria=${cat}&size=50${q}`);
      expect(r.status).toBe(200);
      return { numeros: r.body.data.map((t: any) => t.telefono).sort(), total: r.body.total };
    };
    // The whole country: both of Guatemala's states, not Mexico's phone.
    expect(await lista(`&pais=${guatemala}`)).toEqual({
      numeros: ['+50277770001', '+50277770002'],
      total: 2,
    });
    expect(await lista(`&pais=${mexico}`)).toEqual({ numeros: ['3377770003'], total: 1 });
    // With a state too, both apply: a state of the other country leaves nobody.
    expect(await lista(`&pais=${mexico}&estado=${peten}`)).toEqual({ numeros: [], total: 0 });
    expect(await lista(`&pais=${guatemala}&estado=${peten}`)).toEqual({
      numeros: ['+50277770001'],
      total: 1,
    });
    const conteo = await p('GET', `/telefonos/conteo/?categoria=${cat}&pais=${guatemala}`);
    expect(conteo.body).toEqual({ status: 200, total: 2 });
    const csv = await pedir(api.url, 'GET', `/telefonos/csv/?categoria=${cat}&pais=${guatemala}`, {
      token: admin,
    });
    expect(csv.status).toBe(200);
    const lineas = String(csv.body).trim().split(/\r?\n/);
    expect(lineas).toHaveLength(3);
    // (a leading '+' is written after an apostrophe: no spreadsheet reads it as a formula)
    expect(lineas.slice(1).map((l) => l.split(',')[0])).toEqual(["'+50277770001", "'+50277770002"]);
    const mala = await p('GET', '/telefonos/?pais=abc');
    expect(mala.status).toBe(400);
    expect(mala.body.campo).toBe('pais');
    expect((await pedir(api.url, 'GET', `/telefonos/?pais=${guatemala}`, {})).status).toBe(401);
  });
});
