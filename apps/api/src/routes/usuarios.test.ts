import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { etiquetaCampo } from '@pregon/contract/etiquetas-campo';
import { ejecutarAdmin } from '../admin.ts';
import { seed } from '../db/seed.ts';
import {
  MOTORES,
  abrirBasePrueba,
  ingresar,
  levantarApi,
  pedir,
  type ApiDePrueba,
} from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { tokenConRol } from '../../testing/roles.ts';

describe.each(MOTORES)('usuarios (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let idAdmin: number;
  let operador: { token: string; id: number };
  let consulta: { token: string; id: number };
  const p = (method: string, ruta: string, token?: string, body?: unknown) =>
    pedir(api.url, method, ruta, { token, body });

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    operador = await tokenConRol(api, 'operadores');
    consulta = await tokenConRol(api, 'consulta');
    idAdmin = (
      await api.ctx.db.kysely
        .selectFrom('usuarios')
        .select('id_usuario')
        .where('usuario', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).id_usuario;
  });
  afterAll(async () => api?.cerrar());

  it('el administrador lista usuarios sin contraseñas', async () => {
    const r = await p('GET', '/usuarios/', admin);
    expect(r.status).toBe(200);
    expect(r.body.data.map((u: any) => u.usuario)).toContain('admin');
    expect(JSON.stringify(r.body)).not.toMatch(/password|argon/);
    expect(r.body.data.find((u: any) => u.usuario === 'admin')).toMatchObject({
      role: ['administradores'],
      activo: true,
    });
  });

  it('crea un usuario que puede ingresar; la contraseña se guarda con argon2id y no se audita', async () => {
    const r = await p('POST', '/usuarios/', admin, {
      usuario: 'maria.lopez',
      nombre: 'María López',
      correo: 'maria@example.mx',
      role: ['operadores'],
      password: 'Secreta-123',
    });
    expect(r.status).toBe(200);
    const id = r.body.id_usuario;
    const uno = await p('GET', `/usuarios/${id}/`, admin);
    expect(uno.body.data).toMatchObject({
      usuario: 'maria.lopez',
      nombre: 'María López',
      correo: 'maria@example.mx',
      role: ['operadores'],
      activo: true,
    });
    expect(uno.body.data.password).toBeUndefined();
    const fila = await api.ctx.db.kysely
      .selectFrom('usuarios')
      .select('password_hash')
      .where('id_usuario', '=', id)
      .executeTakeFirstOrThrow();
    expect(fila.password_hash).toMatch(/^\$argon2id\$/);
    expect(await ingresar(api, 'maria.lopez', 'Secreta-123')).toBeTruthy();
    const audit = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select('detalle')
      .where('entidad', '=', 'usuario')
      .execute();
    expect(JSON.stringify(audit)).not.toContain('Secreta-123');
    const dup = await p('POST', '/usuarios/', admin, {
      usuario: 'maria.lopez',
      nombre: 'Otra',
      role: ['consulta'],
      password: 'Secreta-456',
    });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('Ya existe un usuario con usuario "maria.lopez"');
  });

  it.each([
    [{ nombre: 'Sin usuario', role: ['consulta'], password: 'Secreta-123' }, 'usuario'],
    [{ usuario: 'corta', nombre: 'C', role: ['consulta'], password: 'corta' }, 'password'],
    [{ usuario: 'rol', nombre: 'R', role: ['jefe'], password: 'Secreta-123' }, 'role'],
    [{ usuario: 'sinrol', nombre: 'R', role: [], password: 'Secreta-123' }, 'role'],
    [
      {
        usuario: 'correo',
        nombre: 'R',
        role: ['consulta'],
        password: 'Secreta-123',
        correo: 'no-es-correo',
      },
      'correo',
    ],
  ])('entrada inválida %j: 400 que nombra %s', async (body, campo) => {
    const r = await p('POST', '/usuarios/', admin, body);
    expect(r.status).toBe(400);
    expect(r.body.campo.split('.')[0]).toBe(campo);
    // The message names the field: by its label ('El campo Usuario …'), or in its own words.
    expect(r.body.message).toMatch(
      campo === 'password' ? /^La contraseña / : new RegExp(`El campo ${etiquetaCampo(campo)}`),
    );
  });

  it('un usuario lee y cambia su propio perfil y contraseña, pero no su rol ni el de otros', async () => {
    const yo = await p('GET', `/usuarios/${consulta.id}/`, consulta.token);
    expect(yo.status).toBe(200);
    expect(yo.body.data.usuario).toBe('u_consulta');
    expect((await p('GET', `/usuarios/${idAdmin}/`, consulta.token)).status).toBe(403);
    // Their own password only with the current one: the 400 names password_actual.
    const sinActual = await p('PUT', `/usuarios/${consulta.id}/`, consulta.token, {
      nombre: 'No se guarda',
      password: 'Nueva-clave-1',
    });
    expect(sinActual.status).toBe(400);
    expect(sinActual.body).toMatchObject({
      message: 'Escriba su contraseña actual para cambiarla',
      campo: 'password_actual',
    });
    const malActual = await p('PUT', `/usuarios/${consulta.id}/`, consulta.token, {
      password: 'Nueva-clave-1',
      password_actual: 'no-es-esta',
    });
    expect(malActual.status).toBe(400);
    expect(malActual.body).toMatchObject({
      message: 'La contraseña actual no es correcta',
      campo: 'password_actual',
    });
    expect((await p('GET', `/usuarios/${consulta.id}/`, consulta.token)).body.data.nombre).not.toBe(
      'No se guarda',
    );
    const cambio = await p('PUT', `/usuarios/${consulta.id}/`, consulta.token, {
      nombre: 'Nuevo Nombre',
      password: 'Nueva-clave-1',
      password_actual: 'Clave-de-prueba-1',
    });
    expect(cambio.status).toBe(200);
    expect(await ingresar(api, 'u_consulta', 'Nueva-clave-1')).toBeTruthy();
    // A PUT without correo keeps it; correo '' removes it.
    expect(
      (await p('PUT', `/usuarios/${consulta.id}/`, consulta.token, { correo: 'c@example.mx' }))
        .status,
    ).toBe(200);
    await p('PUT', `/usuarios/${consulta.id}/`, consulta.token, { nombre: 'Otra vez' });
    expect((await p('GET', `/usuarios/${consulta.id}/`, consulta.token)).body.data).toMatchObject({
      nombre: 'Otra vez',
      correo: 'c@example.mx',
    });
    await p('PUT', `/usuarios/${consulta.id}/`, consulta.token, { correo: '' });
    expect(
      (await p('GET', `/usuarios/${consulta.id}/`, consulta.token)).body.data.correo,
    ).toBeNull();
    expect(
      (await p('PUT', `/usuarios/${consulta.id}/`, consulta.token, { role: ['administradores'] }))
        .status,
    ).toBe(403);
    expect(
      (await p('PUT', `/usuarios/${consulta.id}/`, consulta.token, { activo: false })).status,
    ).toBe(403);
    expect(
      (await p('PUT', `/usuarios/${operador.id}/`, consulta.token, { nombre: 'X' })).status,
    ).toBe(403);
    const corta = await p('PUT', `/usuarios/${consulta.id}/`, consulta.token, { password: '123' });
    expect(corta.status).toBe(400);
    expect(corta.body).toMatchObject({
      campo: 'password',
      message: 'La contraseña debe tener al menos 8 caracteres',
    });
  });

  it('ninguna contraseña común ni de solo espacios; sí una frase larga (issue 49.4)', async () => {
    const COMUN =
      'La contraseña es demasiado común: está entre las más usadas, las primeras que se prueban. Elija otra; una frase de varias palabras es fácil de recordar y difícil de adivinar';
    const nuevo = (usuario: string, password: string) =>
      p('POST', '/usuarios/', admin, { usuario, nombre: 'N', role: ['consulta'], password });
    // Compared without case and surrounding spaces; Spanish ones too.
    for (const comun of [
      '12345678',
      'qwertyui',
      'password',
      ' PassWord1 ',
      'contraseña',
      'Pregon123',
    ])
      expect((await nuevo('comun', comun)).body, comun).toEqual({
        status: 400,
        message: COMUN,
        mensaje: COMUN,
        campo: 'password',
      });
    const blanca = await nuevo('blanca', ' '.repeat(8));
    expect(blanca.status).toBe(400);
    expect(blanca.body).toMatchObject({
      campo: 'password',
      message: 'La contraseña no puede ser solo espacios: escriba letras, números o signos',
    });
    const larga = await nuevo('larga', 'x'.repeat(257));
    expect(larga.status).toBe(400);
    expect(larga.body.message).toBe(
      'La contraseña admite como máximo 256 caracteres: una frase de varias palabras cabe de sobra',
    );
    expect(
      await api.ctx.db.kysely
        .selectFrom('usuarios')
        .select('usuario')
        .where('usuario', 'in', ['comun', 'blanca', 'larga'])
        .execute(),
    ).toEqual([]);
    // A long passphrase (with spaces and accents) is a password like any other.
    const frase = 'el tren de las nueve sale del andén tres cuando llueve en Oaxaca '
      .repeat(3)
      .trim();
    expect(frase.length).toBeGreaterThan(190);
    expect((await nuevo('frase', frase)).status).toBe(200);
    expect(await ingresar(api, 'frase', frase)).toBeTruthy();
    // An administrator's change of another's password, and one's own change, follow the rule.
    const ajena = await p('PUT', `/usuarios/${operador.id}/`, admin, { password: 'iloveyou' });
    expect(ajena.body).toMatchObject({ status: 400, campo: 'password', message: COMUN });
    const propia = await p('PUT', `/usuarios/${operador.id}/`, operador.token, {
      password: 'Tequiero1',
      password_actual: 'Clave-de-prueba-1',
    });
    expect(propia.body).toMatchObject({ status: 400, campo: 'password', message: COMUN });
    expect(await ingresar(api, 'u_operadores', 'Clave-de-prueba-1')).toBeTruthy();
  });

  it('ADMIN_PASSWORD común: reset-password y el primer arranque la rechazan (issue 49.4)', async () => {
    const env = {
      DATA_DIR: api.config.dataDir,
      DATABASE_URL: api.config.databaseUrl ?? '',
    };
    const errores: string[] = [];
    const espia = vi
      .spyOn(console, 'error')
      .mockImplementation((t) => void errores.push(String(t)));
    try {
      for (const debil of ['12345678', ' '.repeat(9)])
        expect(
          await ejecutarAdmin(['reset-password', 'admin'], { ...env, ADMIN_PASSWORD: debil }),
        ).toBe(2);
    } finally {
      espia.mockRestore();
    }
    expect(errores).toEqual([
      expect.stringMatching(/^ADMIN_PASSWORD: La contraseña es demasiado común/),
      'ADMIN_PASSWORD: La contraseña no puede ser solo espacios: escriba letras, números o signos',
    ]);
    expect(await ingresar(api)).toBeTruthy();
    // The first start creates the administrator only with a password that follows the rule.
    const base = await abrirBasePrueba(motor);
    try {
      await expect(
        seed(base.db, { adminUser: 'admin', adminPassword: 'Contraseña' }),
      ).rejects.toThrow(/^ADMIN_PASSWORD: La contraseña es demasiado común/);
      expect(await base.db.kysely.selectFrom('usuarios').select('usuario').execute()).toEqual([]);
      expect(
        await seed(base.db, { adminUser: 'admin', adminPassword: 'Un-arranque-seguro-7' }),
      ).toEqual({
        adminCreado: true,
        passwordGenerada: undefined,
      });
    } finally {
      await base.limpiar();
    }
  });

  it('el último administrador activo no se elimina, desactiva ni degrada (409); con otro sí', async () => {
    const msg409 =
      'No se puede eliminar, desactivar ni quitar el rol de administrador al último administrador activo';
    const d = await p('DELETE', `/usuarios/${idAdmin}/`, admin);
    expect(d.status).toBe(409);
    expect(d.body.message).toBe(msg409);
    expect((await p('PUT', `/usuarios/${idAdmin}/`, admin, { activo: false })).status).toBe(409);
    expect((await p('PUT', `/usuarios/${idAdmin}/`, admin, { role: ['operadores'] })).status).toBe(
      409,
    );
    const otro = await p('POST', '/usuarios/', admin, {
      usuario: 'admin2',
      nombre: 'Admin 2',
      role: ['administradores'],
      password: 'Secreta-123',
    });
    expect(
      (await p('PUT', `/usuarios/${otro.body.id_usuario}/`, admin, { activo: false })).status,
    ).toBe(200);
    expect((await p('DELETE', `/usuarios/${idAdmin}/`, admin)).status).toBe(409);
    expect(
      (await p('PUT', `/usuarios/${otro.body.id_usuario}/`, admin, { activo: true })).status,
    ).toBe(200);
    expect((await p('DELETE', `/usuarios/${otro.body.id_usuario}/`, admin)).status).toBe(200);
    expect((await p('GET', `/usuarios/${otro.body.id_usuario}/`, admin)).status).toBe(404);
  });

  it('un usuario que creó ejercicios no se elimina (409): se desactiva', async () => {
    const u = await p('POST', '/usuarios/', admin, {
      usuario: 'creador',
      nombre: 'Creador',
      role: ['operadores'],
      password: 'Secreta-123',
    });
    const id_equipo = await crearEquipo(api.ctx.db, { protocolo: 'smpp' });
    await crearEjercicio(api.ctx.db, {
      id_equipo,
      creado_por: u.body.id_usuario,
      iniciar: false,
    });
    const r = await p('DELETE', `/usuarios/${u.body.id_usuario}/`, admin);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      'No se puede eliminar el usuario "creador": creó 1 ejercicios. Desactívelo en su lugar',
    );
  });

  it.each([
    ['GET', '/usuarios/'],
    ['POST', '/usuarios/'],
    ['GET', '/usuarios/1/'],
    ['PUT', '/usuarios/1/'],
    ['DELETE', '/usuarios/1/'],
  ])('%s %s sin token: 401', async (m, ruta) => {
    const r = await p(m, ruta, undefined, m === 'POST' || m === 'PUT' ? {} : undefined);
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('FALLO: SESION EXPIRADA');
  });

  it('los operadores no administran usuarios (403)', async () => {
    const t = operador.token;
    expect((await p('GET', '/usuarios/', t)).status).toBe(403);
    expect(
      (
        await p('POST', '/usuarios/', t, {
          usuario: 'x',
          nombre: 'x',
          role: ['consulta'],
          password: 'Secreta-123',
        })
      ).status,
    ).toBe(403);
    expect((await p('GET', `/usuarios/${idAdmin}/`, t)).status).toBe(403);
    expect((await p('PUT', `/usuarios/${idAdmin}/`, t, { nombre: 'x' })).status).toBe(403);
    expect((await p('DELETE', `/usuarios/${consulta.id}/`, t)).status).toBe(403);
  });
});
