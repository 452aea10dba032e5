import fs from 'node:fs';
import { etiquetaCampo } from '@pregon/contract/etiquetas-campo';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { SignJWT } from 'jose';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { hashPassword } from '../auth/passwords.ts';
import { migrate } from '@pregon/db/migrate';
import { cargarClaves } from '@pregon/servidor/auth/keys';

const EXPIRADA = { status: 401, message: 'FALLO: SESION EXPIRADA' };

describe.each(MOTORES)('autenticación (%s)', (motor) => {
  let api: ApiDePrueba;
  beforeAll(async () => {
    api = await levantarApi(motor);
  });
  afterAll(async () => api?.cerrar());

  it('el administrador sembrado ingresa y recibe un token con role y exp', async () => {
    const r = await pedir(api.url, 'POST', '/auth/signin/', {
      body: { usuario: 'admin', password: api.adminPassword },
    });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe(200);
    const payload = decodeJwt(r.body.token);
    expect(payload.role).toEqual(['administradores']);
    expect(payload.usuario).toBe('admin');
    expect(typeof payload.exp).toBe('number');
    expect(payload.exp! * 1000).toBeGreaterThan(Date.now() + 60 * 60 * 1000);
    expect(Number(payload.sub)).toBeGreaterThan(0);
  });

  it('contraseña incorrecta: 401 con mensaje en español y queda en la auditoría', async () => {
    const r = await pedir(api.url, 'POST', '/auth/signin/', {
      body: { usuario: 'admin', password: 'mala' },
    });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Usuario o contraseña incorrectos');
    const fila = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .selectAll()
      .where('accion', '=', 'ingreso_fallido')
      .executeTakeFirst();
    expect(fila?.usuario).toBe('admin');
    expect(fila?.detalle).not.toContain('mala');
  });

  it.each([
    ['sin campos', {}, 'usuario'],
    ['sin contraseña', { usuario: 'admin' }, 'password'],
    ['tipos equivocados', { usuario: 12, password: true }, 'usuario'],
    ['usuario vacío', { usuario: '', password: 'x' }, 'usuario'],
    ['un arreglo', [1, 2], 'cuerpo'],
  ])('entrada inválida (%s): 400 que nombra el campo', async (_, body, campo) => {
    const r = await pedir(api.url, 'POST', '/auth/signin/', { body });
    expect(r.status).toBe(400);
    expect(r.body.status).toBe(400);
    expect(r.body.message).toContain(etiquetaCampo(campo));
    expect(r.body.message).toMatch(/campo/);
  });

  it('cadenas de 1 MB: 4xx en español, nunca 5xx', async () => {
    const grande = 'x'.repeat(1024 * 1024);
    const r1 = await pedir(api.url, 'POST', '/auth/signin/', {
      body: { usuario: grande, password: 'x' },
    });
    expect(r1.status).toBeGreaterThanOrEqual(400);
    expect(r1.status).toBeLessThan(500);
    expect(r1.body.message).toMatch(/[a-záéíóú]/i);
    const r2 = await pedir(api.url, 'POST', '/auth/signin/', {
      body: { usuario: 'admin', password: 'y'.repeat(500_000) },
    });
    expect(r2.status).toBe(400);
    expect(r2.body.message).toContain('password');
  });

  it.each(['{"usuario": "admin", ', 'no es json', '{"usuario":"admin","password":"x"}}', ''])(
    'JSON malformado %j: 400 con mensaje en español',
    async (raw) => {
      const r = await pedir(api.url, 'POST', '/auth/signin/', { rawBody: raw });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('El cuerpo de la petición no es JSON válido');
    },
  );

  it('sin token, con token malo o vencido: 401 FALLO: SESION EXPIRADA', async () => {
    expect((await pedir(api.url, 'GET', '/ejercicios/catalogos/')).body).toEqual({
      ...EXPIRADA,
      mensaje: EXPIRADA.message,
    });
    const malo = await pedir(api.url, 'GET', '/ejercicios/catalogos/', { token: 'abc.def.ghi' });
    expect(malo.status).toBe(401);
    expect(malo.body).toMatchObject(EXPIRADA);
    const vencido = await new SignJWT({ usuario: 'admin', nombre: 'A', role: ['administradores'] })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setSubject('1')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(api.ctx.claves.privada);
    const r = await pedir(api.url, 'GET', '/ejercicios/catalogos/', { token: vencido });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject(EXPIRADA);
    const otraClave = await cargarClaves(fs.mkdtempSync(path.join(api.config.dataDir, 'otra-')));
    const ajeno = await new SignJWT({ usuario: 'admin', nombre: 'A', role: ['administradores'] })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setSubject('1')
      .setExpirationTime('1h')
      .sign(otraClave.privada);
    expect((await pedir(api.url, 'GET', '/ejercicios/catalogos/', { token: ajeno })).status).toBe(
      401,
    );
  });

  it('acepta el token crudo y con Bearer; el catálogo trae lo sembrado', async () => {
    const token = await ingresar(api);
    const crudo = await pedir(api.url, 'GET', '/ejercicios/catalogos/', { token });
    expect(crudo.status).toBe(200);
    const bearer = await pedir(api.url, 'GET', '/ejercicios/catalogos/', {
      token: `Bearer ${token}`,
    });
    expect(bearer.status).toBe(200);
    const c = crudo.body;
    expect(c.tipo_ejercicio).toEqual([
      { id_tipo_ejercicio: 1, tipo_ejercicio: 'SMS' },
      { id_tipo_ejercicio: 2, tipo_ejercicio: 'LLAMADA' },
      { id_tipo_ejercicio: 3, tipo_ejercicio: 'WHATSAPP' },
      { id_tipo_ejercicio: 4, tipo_ejercicio: 'CUESTIONARIO' },
    ]);
    expect(c.estados).toHaveLength(32);
    expect(c.estados.map((e: { estado: string }) => e.estado)).toContain('Ciudad de México');
    expect(c.categorias.length).toBeGreaterThan(0);
    for (const cat of c.categorias) {
      expect(cat.id_estado).toBe(cat.id_categoria);
      expect(cat.estado).toBe(cat.categoria);
    }
  });

  it('un usuario inactivo no ingresa', async () => {
    await api.ctx.db.kysely
      .insertInto('usuarios')
      .values({
        usuario: 'baja',
        nombre: 'Baja',
        correo: null,
        password_hash: await hashPassword('Clave-1234'),
        roles: 'operadores',
        activo: 0,
        creado: Date.now(),
      })
      .execute();
    const r = await pedir(api.url, 'POST', '/auth/signin/', {
      body: { usuario: 'baja', password: 'Clave-1234' },
    });
    expect(r.status).toBe(401);
  });

  it('intentos fallidos repetidos: 429 con mensaje en español', async () => {
    const estados: number[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await pedir(api.url, 'POST', '/auth/signin/', {
        body: { usuario: 'victima', password: `mala${i}` },
      });
      estados.push(r.status);
      if (r.status === 429) expect(r.body.message).toMatch(/Demasiados intentos fallidos/);
    }
    expect(estados.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(estados.slice(5)).toEqual([429, 429]);
  });

  it('/health responde con el motor y /docs publica el documento OpenAPI', async () => {
    const h = await pedir(api.url, 'GET', '/health');
    expect(h.body).toMatchObject({
      status: 200,
      db: motor,
      partes: { base_de_datos: { estado: 'activo' } },
    });
    const doc = await pedir(api.url, 'GET', '/docs/json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/auth/signin/', '/ejercicios/catalogos/']),
    );
  });

  it('las migraciones se pueden volver a correr y las claves viven en DATA_DIR', async () => {
    await migrate(api.ctx.db);
    expect(fs.existsSync(path.join(api.config.dataDir, 'jwt-privada.pem'))).toBe(true);
    const antes = fs.readFileSync(path.join(api.config.dataDir, 'jwt-publica.pem'), 'utf8');
    const otra = await cargarClaves(api.config.dataDir);
    expect(otra.publicaPem).toBe(antes);
  });
});
