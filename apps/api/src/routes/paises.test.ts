import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { tokenConRol } from '../../testing/roles.ts';

describe.each(MOTORES)('países, estados y categorías (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let consulta: string;
  let operador: string;
  const p = (method: string, ruta: string, token?: string, body?: unknown) =>
    pedir(api.url, method, ruta, { token, body });

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    consulta = (await tokenConRol(api, 'consulta')).token;
    operador = (await tokenConRol(api, 'operadores')).token;
  });
  afterAll(async () => api?.cerrar());

  it('lista países con México sembrado y lee uno con sus 32 estados', async () => {
    const r = await p('GET', '/paises/', consulta);
    expect(r.status).toBe(200);
    const mx = r.body.data.find((x: any) => x.codigo_iso === 'MX');
    expect(mx).toMatchObject({ pais: 'México', prefijo: '52' });
    const uno = await p('GET', `/paises/${mx.id_pais}/`, consulta);
    expect(uno.status).toBe(200);
    expect(uno.body.data.estados).toHaveLength(32);
    expect((await p('GET', '/paises/999999/', consulta)).status).toBe(404);
  });

  it('crea, modifica y elimina un país; duplicados 409; validación nombra el campo', async () => {
    const c = await p('POST', '/paises/', operador, {
      pais: 'Guatemala',
      codigo_iso: 'gt',
      prefijo: '+502',
    });
    expect(c.status).toBe(200);
    expect(c.body.id_pais).toBeGreaterThan(0);
    const id = c.body.id_pais;
    expect((await p('GET', `/paises/${id}/`, admin)).body.data).toMatchObject({
      codigo_iso: 'GT',
      prefijo: '502',
      estados: [],
    });
    const dup = await p('POST', '/paises/', admin, {
      pais: 'Guatemala',
      codigo_iso: 'GU',
      prefijo: '502',
    });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(
      'Ya existe el país "Guatemala": los nombres se comparan sin distinguir mayúsculas, acentos ni espacios al inicio o al final',
    );
    const mal = await p('POST', '/paises/', admin, { pais: 'X', codigo_iso: 'ABC', prefijo: '1' });
    expect(mal.status).toBe(400);
    expect(mal.body.message).toContain('Código ISO');
    const falta = await p('POST', '/paises/', admin, { codigo_iso: 'AB', prefijo: '1' });
    expect(falta.status).toBe(400);
    expect(falta.body.message).toBe('El campo País es obligatorio');
    expect(
      (
        await p('PUT', `/paises/${id}/`, admin, {
          pais: 'Guatemala C.A.',
          codigo_iso: 'GT',
          prefijo: '502',
        })
      ).status,
    ).toBe(200);
    expect(
      (await p('PUT', '/paises/999999/', admin, { pais: 'Nada', codigo_iso: 'ZZ', prefijo: '1' }))
        .status,
    ).toBe(404);
    const e = await p('POST', '/estados/', admin, { estado: 'Petén', id_pais: id });
    expect(e.status).toBe(200);
    const noBorra = await p('DELETE', `/paises/${id}/`, admin);
    expect(noBorra.status).toBe(409);
    expect(noBorra.body.message).toBe(
      'No se puede eliminar el país "Guatemala C.A.": tiene 1 estados',
    );
    expect((await p('DELETE', `/estados/${e.body.id_estado}/`, admin)).status).toBe(200);
    expect((await p('DELETE', `/paises/${id}/`, admin)).status).toBe(200);
    expect((await p('GET', `/paises/${id}/`, admin)).status).toBe(404);
    const audit = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select(['accion'])
      .where('entidad', '=', 'pais')
      .execute();
    expect(audit.map((a) => a.accion)).toEqual(['crear', 'modificar', 'eliminar']);
  });

  it('estados: zona_horaria (issue 24.4) se valida con los datos IANA de la plataforma, se guarda y se borra en blanco', async () => {
    const mx = (await p('GET', '/paises/', admin)).body.data.find(
      (x: any) => x.codigo_iso === 'MX',
    );
    const mala = await p('POST', '/estados/', admin, {
      estado: 'Zona Prueba',
      id_pais: mx.id_pais,
      zona_horaria: 'America/Tijuanita',
    });
    expect(mala.status).toBe(400);
    expect(mala.body.message).toBe('El campo zona_horaria no es una zona horaria IANA conocida');
    const e = await p('POST', '/estados/', admin, {
      estado: 'Zona Prueba',
      id_pais: mx.id_pais,
      zona_horaria: 'America/Tijuana',
    });
    expect(e.status).toBe(200);
    const leer = async () =>
      (await p('GET', `/estados/?id_pais=${mx.id_pais}`, consulta)).body.data.find(
        (x: any) => x.id_estado === e.body.id_estado,
      );
    expect(await leer()).toMatchObject({ zona_horaria: 'America/Tijuana' });
    // Absent keeps it; blank clears it.
    await p('PUT', `/estados/${e.body.id_estado}/`, admin, {
      estado: 'Zona Prueba',
      id_pais: mx.id_pais,
    });
    expect(await leer()).toMatchObject({ zona_horaria: 'America/Tijuana' });
    await p('PUT', `/estados/${e.body.id_estado}/`, admin, {
      estado: 'Zona Prueba',
      id_pais: mx.id_pais,
      zona_horaria: '',
    });
    expect(await leer()).toMatchObject({ zona_horaria: null });
    expect((await p('DELETE', `/estados/${e.body.id_estado}/`, admin)).status).toBe(200);
  });

  it('estados: filtro por país, nombre único por país, país inexistente 400, en uso 409', async () => {
    const mx = (await p('GET', '/paises/', admin)).body.data.find(
      (x: any) => x.codigo_iso === 'MX',
    );
    const todos = await p('GET', `/estados/?id_pais=${mx.id_pais}`, consulta);
    expect(todos.status).toBe(200);
    expect(todos.body.data).toHaveLength(32);
    expect(todos.body.data[0]).toMatchObject({ estado: 'Aguascalientes', pais: 'México' });
    const dup = await p('POST', '/estados/', admin, { estado: 'Jalisco', id_pais: mx.id_pais });
    expect(dup.status).toBe(409);
    const sinPais = await p('POST', '/estados/', admin, { estado: 'Atlántida', id_pais: 99999 });
    expect(sinPais.status).toBe(400);
    expect(sinPais.body.message).toContain('País');
    const nuevo = await p('POST', '/estados/', admin, {
      estado: 'Isla Prueba',
      id_pais: mx.id_pais,
    });
    const idE = nuevo.body.id_estado;
    expect(
      (
        await p('PUT', `/estados/${idE}/`, admin, {
          estado: 'Isla Renombrada',
          id_pais: mx.id_pais,
        })
      ).status,
    ).toBe(200);
    const cat = (await p('GET', '/categorias/', admin)).body.data[0].id_categoria;
    expect(
      (
        await p('POST', '/telefono/', admin, {
          telefono: '5511110000',
          id_estado: idE,
          categorias: [cat],
        })
      ).status,
    ).toBe(200);
    const enUso = await p('DELETE', `/estados/${idE}/`, admin);
    expect(enUso.status).toBe(409);
    expect(enUso.body.message).toBe(
      'No se puede eliminar el estado "Isla Renombrada": lo usan 1 teléfonos y 0 ejercicios',
    );
    expect((await p('DELETE', '/estados/999999/', admin)).status).toBe(404);
  });

  it('categorías: conteo de teléfonos, nombre único, en uso 409, borrado de una libre', async () => {
    const c = await p('POST', '/categorias/', operador, { categoria: 'Voluntarios' });
    expect(c.status).toBe(200);
    const id = c.body.id_categoria;
    expect((await p('POST', '/categorias/', admin, { categoria: 'Voluntarios' })).status).toBe(409);
    const estado = (await p('GET', '/estados/', admin)).body.data[0].id_estado;
    await p('POST', '/telefono/', admin, {
      telefono: '3312345678',
      id_estado: estado,
      categorias: [id],
    });
    const lista = await p('GET', '/categorias/', consulta);
    expect(lista.status).toBe(200);
    expect(lista.body.data.find((x: any) => x.id_categoria === id)).toEqual({
      id_categoria: id,
      categoria: 'Voluntarios',
      telefonos: 1,
    });
    const enUso = await p('DELETE', `/categorias/${id}/`, admin);
    expect(enUso.status).toBe(409);
    expect(enUso.body.message).toBe(
      'No se puede eliminar la categoría "Voluntarios": la usan 1 teléfonos y 0 ejercicios',
    );
    const libre = await p('POST', '/categorias/', admin, { categoria: 'Temporal' });
    expect(
      (
        await p('PUT', `/categorias/${libre.body.id_categoria}/`, admin, {
          categoria: 'Temporal 2',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await p('PUT', `/categorias/${libre.body.id_categoria}/`, admin, {
          categoria: 'Voluntarios',
        })
      ).status,
    ).toBe(409);
    expect(
      (await p('PUT', `/categorias/${libre.body.id_categoria}/`, admin, { categoria: '' })).status,
    ).toBe(400);
    expect((await p('DELETE', `/categorias/${libre.body.id_categoria}/`, admin)).status).toBe(200);
  });

  it('nombres únicos sin distinguir mayúsculas, acentos ni espacios: el 409 nombra el existente', async () => {
    const sufijo = 'Ñandú';
    const cat = await p('POST', '/categorias/', admin, { categoria: `Bomberos ${sufijo}` });
    expect(cat.status).toBe(200);
    for (const categoria of [`bomberos ${sufijo} `, `  BOMBEROS  ñandu`, `Bomberos ${sufijo}`]) {
      const r = await p('POST', '/categorias/', admin, { categoria });
      expect(r.status).toBe(409);
      expect(r.body.message).toBe(
        `Ya existe la categoría "Bomberos ${sufijo}": los nombres se comparan sin distinguir mayúsculas, acentos ni espacios al inicio o al final`,
      );
    }
    const otra = await p('POST', '/categorias/', admin, { categoria: 'Paramédicos Ñandú' });
    const renombrar = await p('PUT', `/categorias/${otra.body.id_categoria}/`, admin, {
      categoria: 'BOMBEROS ÑANDÚ',
    });
    expect(renombrar.status).toBe(409);
    const mexico = (await p('GET', '/paises/', admin)).body.data.find(
      (x: any) => x.codigo_iso === 'MX',
    ).id_pais;
    const estado = await p('POST', '/estados/', admin, { estado: ' yucatan ', id_pais: mexico });
    expect(estado.status).toBe(409);
    expect(estado.body.message).toBe(
      'Ya existe el estado "Yucatán": los nombres se comparan sin distinguir mayúsculas, acentos ni espacios al inicio o al final',
    );
    const pais = await p('POST', '/paises/', admin, {
      pais: 'MEXICO',
      codigo_iso: 'MQ',
      prefijo: '1',
    });
    expect(pais.status).toBe(409);
    expect(pais.body.message).toContain('Ya existe el país "México"');
    const codigo = await p('POST', '/paises/', admin, {
      pais: 'Otro',
      codigo_iso: 'MX',
      prefijo: '1',
    });
    expect(codigo.status).toBe(409);
    expect(codigo.body.message).toBe('Ya existe un país con pais o codigo_iso "Otro / MX"');
  });

  it('una categoría usada por un ejercicio no se elimina (409)', async () => {
    const c = await p('POST', '/categorias/', admin, { categoria: 'Solo ejercicio' });
    const id = c.body.id_categoria;
    const id_equipo = await crearEquipo(api.ctx.db, { protocolo: 'smpp' });
    const estado = (await p('GET', '/estados/', admin)).body.data[0].id_estado;
    await crearEjercicio(api.ctx.db, {
      id_equipo,
      id_estado: estado,
      categorias: `1,${id}`,
      iniciar: false,
    });
    const r = await p('DELETE', `/categorias/${id}/`, admin);
    expect(r.status).toBe(409);
    expect(r.body.message).toContain('1 ejercicios');
  });

  it.each([
    ['GET', '/paises/'],
    ['POST', '/paises/'],
    ['GET', '/paises/1/'],
    ['PUT', '/paises/1/'],
    ['DELETE', '/paises/1/'],
    ['GET', '/estados/'],
    ['POST', '/estados/'],
    ['PUT', '/estados/1/'],
    ['DELETE', '/estados/1/'],
    ['GET', '/categorias/'],
    ['POST', '/categorias/'],
    ['PUT', '/categorias/1/'],
    ['DELETE', '/categorias/1/'],
  ])('%s %s sin token: 401 FALLO: SESION EXPIRADA', async (m, ruta) => {
    const r = await p(m, ruta, undefined, m === 'GET' || m === 'DELETE' ? undefined : {});
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('FALLO: SESION EXPIRADA');
  });

  it.each([
    ['POST', '/paises/', { pais: 'Belice', codigo_iso: 'BZ', prefijo: '501' }],
    ['PUT', '/paises/1/', { pais: 'México', codigo_iso: 'MX', prefijo: '52' }],
    ['DELETE', '/paises/1/', undefined],
    ['POST', '/estados/', { estado: 'X', id_pais: 1 }],
    ['PUT', '/estados/1/', { estado: 'X', id_pais: 1 }],
    ['DELETE', '/estados/1/', undefined],
    ['POST', '/categorias/', { categoria: 'X' }],
    ['PUT', '/categorias/1/', { categoria: 'X' }],
    ['DELETE', '/categorias/1/', undefined],
  ])('%s %s con rol consulta: 403', async (m, ruta, body) => {
    const r = await p(m, ruta, consulta, body);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('No tiene permiso para realizar esta acción');
  });
});
