import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';

// Sign-in throttling over real HTTP (issue 17). The test api trusts a proxy on loopback
// (TRUST_PROXY=127.0.0.1) and the tests speak through it with X-Forwarded-For, each from its own
// addresses.

const ejecutar = promisify(execFile);
const ADMIN_CLI = path.resolve(import.meta.dirname, '../admin.ts');

const entrar = (api: ApiDePrueba, ip: string, usuario: string, password: string) =>
  pedir(api.url, 'POST', '/auth/signin/', {
    body: { usuario, password },
    headers: { 'x-forwarded-for': ip },
  });

describe.each(MOTORES)('límite de ingresos (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  beforeAll(async () => {
    api = await levantarApi(motor, { TRUST_PROXY: '127.0.0.1' });
    token = await ingresar(api);
  });
  afterAll(async () => api?.cerrar());

  it('20 contraseñas malas de admin desde una dirección no impiden que admin entre desde otra', async () => {
    const estados: number[] = [];
    for (let i = 0; i < 20; i++)
      estados.push((await entrar(api, '203.0.113.1', 'admin', `mala-${i}`)).status);
    expect(estados.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(estados.slice(5))).toEqual(new Set([429]));
    const otra = await entrar(api, '198.51.100.7', 'admin', api.adminPassword);
    expect(otra.status).toBe(200);
    // The same address is slowed down, even with the right password: 429, Spanish, Retry-After.
    const misma = await entrar(api, '203.0.113.1', 'admin', api.adminPassword);
    expect(misma.status).toBe(429);
    expect(misma.body.message).toMatch(
      /^Demasiados intentos fallidos\. Intente de nuevo en \d+ segundos\.$/,
    );
    const espera = Number(misma.headers.get('retry-after'));
    expect(espera).toBeGreaterThan(0);
    expect(espera).toBeLessThanOrEqual(30);
    const bloqueos = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select('detalle')
      .where('accion', '=', 'bloqueo_ingreso')
      .execute();
    expect(bloqueos.length).toBe(1);
    expect(JSON.parse(bloqueos[0]!.detalle!)).toMatchObject({
      usuario: 'admin',
      ip: '203.0.113.1',
      clave: 'ua:admin|203.0.113.1',
      fallos: 5,
    });
  });

  it('un administrador desbloquea a un usuario; otros roles no pueden', async () => {
    const alta = await pedir(api.url, 'POST', '/usuarios/', {
      token,
      body: { usuario: 'ana', nombre: 'Ana', role: ['operadores'], password: 'Clave-ana-1' },
    });
    expect(alta.status).toBe(200);
    for (let i = 0; i < 5; i++) await entrar(api, '203.0.113.2', 'ana', `mala-${i}`);
    expect((await entrar(api, '203.0.113.2', 'ana', 'Clave-ana-1')).status).toBe(429);
    // The users list and the user's page say until when the lock holds.
    const bloqueada = async (ruta: string) => {
      const r = await pedir(api.url, 'GET', ruta, { token });
      const datos = Array.isArray(r.body.data) ? r.body.data : [r.body.data];
      return datos.find((u: { usuario: string }) => u.usuario === 'ana').bloqueado_hasta;
    };
    expect(await bloqueada('/usuarios/')).toBeGreaterThan(Date.now());
    expect(await bloqueada(`/usuarios/${alta.body.id_usuario}/`)).toBeGreaterThan(Date.now());
    const tokenAna = await ingresar(api, 'ana', 'Clave-ana-1');
    const prohibido = await pedir(
      api.url,
      'POST',
      `/usuarios/${alta.body.id_usuario}/desbloquear/`,
      { token: tokenAna },
    );
    expect(prohibido.status).toBe(403);
    const r = await pedir(api.url, 'POST', `/usuarios/${alta.body.id_usuario}/desbloquear/`, {
      token,
    });
    expect(r.body).toEqual({ status: 200, mensaje: 'Usuario desbloqueado' });
    expect(await bloqueada('/usuarios/')).toBeNull();
    expect((await entrar(api, '203.0.113.2', 'ana', 'Clave-ana-1')).status).toBe(200);
    expect((await pedir(api.url, 'POST', '/usuarios/99999/desbloquear/', { token })).status).toBe(
      404,
    );
    const audit = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select('usuario')
      .where('accion', '=', 'desbloquear')
      .execute();
    expect(audit).toEqual([{ usuario: 'admin' }]);
  });

  it('npm run admin -- reset-password: nueva contraseña (generada o ADMIN_PASSWORD) y sin bloqueos', async () => {
    const env = {
      ...process.env,
      DATA_DIR: api.config.dataDir,
      DATABASE_URL: api.config.databaseUrl ?? '',
      ADMIN_PASSWORD: '',
    };
    for (let i = 0; i < 5; i++) await entrar(api, '203.0.113.3', 'admin', `mala-${i}`);
    expect((await entrar(api, '203.0.113.3', 'admin', api.adminPassword)).status).toBe(429);
    const gen = await ejecutar(
      process.execPath,
      ['--import', 'tsx', ADMIN_CLI, 'reset-password', 'admin'],
      { env },
    );
    const nueva = /restablecida: '([^']+)'/.exec(gen.stdout)?.[1];
    expect(nueva).toBeTruthy();
    // Whoever held the old password is out: the sessions opened with it ended.
    expect((await pedir(api.url, 'GET', '/ejercicios/', { token })).status).toBe(401);
    expect((await entrar(api, '203.0.113.3', 'admin', api.adminPassword)).status).toBe(401);
    expect((await entrar(api, '203.0.113.3', 'admin', nueva!)).status).toBe(200);
    const elegida = await ejecutar(
      process.execPath,
      ['--import', 'tsx', ADMIN_CLI, 'reset-password', 'admin'],
      {
        env: { ...env, ADMIN_PASSWORD: 'Otra-clave-99' },
      },
    );
    expect(elegida.stdout).toContain('restablecida con ADMIN_PASSWORD');
    expect((await entrar(api, '203.0.113.3', 'admin', 'Otra-clave-99')).status).toBe(200);
    const nadie = await ejecutar(
      process.execPath,
      ['--import', 'tsx', ADMIN_CLI, 'reset-password', 'nadie'],
      { env },
    ).catch((e: { code: number; stderr: string }) => e);
    expect(nadie).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("No existe el usuario 'nadie'"),
    });
  }, 60_000);
});

describe('dos procesos de api en una PostgreSQL comparten las cuentas', () => {
  let a: ApiDePrueba;
  let b: ApiDePrueba;
  beforeAll(async () => {
    a = await levantarApi('postgres', { TRUST_PROXY: '127.0.0.1' });
    b = await levantarApi('sqlite', {
      DATABASE_URL: a.config.databaseUrl!,
      ADMIN_PASSWORD: a.adminPassword,
      TRUST_PROXY: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await b?.cerrar();
    await a?.cerrar();
  });

  it('3 fallos en una y 2 en la otra bloquean en ambas', async () => {
    expect(b.ctx.db.engine).toBe('postgres');
    for (let i = 0; i < 3; i++)
      expect((await entrar(a, '203.0.113.9', 'admin', `mala-${i}`)).status).toBe(401);
    for (let i = 0; i < 2; i++)
      expect((await entrar(b, '203.0.113.9', 'admin', `mala-${i}`)).status).toBe(401);
    expect((await entrar(a, '203.0.113.9', 'admin', 'mala-x')).status).toBe(429);
    expect((await entrar(b, '203.0.113.9', 'admin', 'mala-y')).status).toBe(429);
  });
});
