import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { generateKeyPair } from 'jose';
import { z } from 'zod';
import { endpoint } from '@pregon/contract/api/endpoint';
import type { Rol } from '@pregon/contract/constants';
import { ALGORITMO } from '@pregon/servidor/auth/keys';
import { firmarToken, type Sesion } from '@pregon/servidor/auth/tokens';
import type { Autenticador } from '@pregon/servidor/auth/autenticar';
import { pedir } from '../../testing/entorno.ts';
import { manejarError } from '@pregon/servidor/http/respuesta-error';
import { ruta } from '@pregon/servidor/http/rutas';

// The per-request session check of `ruta` (issue 22): a read runs its handler while the server
// confirms the session and sends nothing before the answer; a write waits for it. A server of its
// own on a real socket, with a session verifier the test controls (when it answers and what).

const SESION_EXPIRADA = {
  status: 401,
  message: 'FALLO: SESION EXPIRADA',
  mensaje: 'FALLO: SESION EXPIRADA',
};
const SIN_PERMISO = {
  status: 403,
  message: 'No tiene permiso para realizar esta acción',
  mensaje: 'No tiene permiso para realizar esta acción',
};

const leer = (path: string, acceso: 'lectura' | 'admin' = 'lectura') =>
  endpoint({
    method: 'GET',
    path,
    acceso,
    etiqueta: 'prueba',
    resumen: path,
    respuesta: z.any(),
  });

describe('la comprobación de la sesión en cada petición (rutas)', () => {
  let app: FastifyInstance;
  let url: string;
  let token: string;
  /** The same claims and session id, signed with another key. */
  let tokenFalso: string;
  /** What the server's records say of the session: the account now (null: ended), after `demora` ms. */
  let cuenta: { actual: Sesion | null; demora: number };
  /** Times (performance.now) the verifier was asked, answered, and each handler began. */
  let marcas: { pregunta: number[]; respuesta: number[]; manejador: number[] };
  let escrituras: number;
  let flujoDestruido: boolean;

  const firmada: Omit<Sesion, 'sid' | 'exp'> = {
    sub: '7',
    id_usuario: 7,
    usuario: 'ana',
    nombre: 'Ana',
    role: ['administradores'],
  };
  const ahora = (role: Rol[], nombre = 'Ana') =>
    ({ ...firmada, role, nombre, sid: 's1', exp: 0 }) as Sesion;

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair(ALGORITMO);
    token = await firmarToken(privateKey, { ...firmada }, 600, 's1');
    const vigente = async (s: Sesion) => {
      await new Promise((r) => setTimeout(r, cuenta.demora));
      marcas.respuesta.push(performance.now());
      return cuenta.actual && { ...s, ...cuenta.actual, sid: s.sid, exp: s.exp };
    };
    const aut: Autenticador = {
      claves: { publica: publicKey },
      sesiones: {
        vigente: async (s) => (marcas.pregunta.push(performance.now()), vigente(s)),
        // Asked before the signature is checked: the lookup starts at once, by the raw token.
        anticipar: () => {
          marcas.pregunta.push(performance.now());
          const consulta = vigente(ahora(['administradores']));
          return async (firmada) => (await consulta) && vigente(firmada);
        },
      },
    };
    tokenFalso = await firmarToken(
      (await generateKeyPair(ALGORITMO)).privateKey,
      { ...firmada },
      600,
      's1',
    );
    app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.setErrorHandler(manejarError);
    const marcar = () => marcas.manejador.push(performance.now());

    ruta(app, aut, leer('/lista/'), async ({ reply }) => {
      marcar();
      await new Promise((r) => setTimeout(r, 100));
      reply.header('x-total-count', '3');
      return { data: ['secreto-1', 'secreto-2', 'secreto-3'] };
    });
    ruta(app, aut, leer('/admin/', 'admin'), async () => {
      marcar();
      return { data: ['solo-administradores'] };
    });
    ruta(app, aut, leer('/quien/'), async ({ sesion }) => {
      marcar();
      return { nombre: sesion.nombre, role: sesion.role };
    });
    ruta(
      app,
      aut,
      { ...leer('/numero/:id/'), params: z.object({ id: z.coerce.number().int() }) },
      async ({ params }) => {
        marcar();
        return { id: params.id };
      },
    );
    ruta(app, aut, leer('/descarga/'), async ({ reply }) => {
      marcar();
      const flujo = Readable.from(['fila-secreta-1\n', 'fila-secreta-2\n']);
      flujo.on('close', () => (flujoDestruido = true));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="secreto.csv"')
        .send(flujo);
    });
    ruta(app, aut, leer('/descarga-por-rol/'), async ({ reply, sesion }) =>
      reply.header('content-type', 'text/plain').send(sesion.role.join(',')),
    );
    ruta(app, aut, leer('/socket/'), async ({ reply }) => {
      marcar();
      reply.hijack();
      reply.raw.end('secreto por el socket');
      return reply;
    });
    ruta(
      app,
      aut,
      leer('/confirmada-antes/'),
      async () => {
        marcar();
        escrituras++;
        return { ok: true };
      },
      { confirmarAntes: true },
    );
    ruta(
      app,
      aut,
      {
        ...leer('/escribir/'),
        method: 'POST',
        acceso: 'escritura',
        body: z.object({ x: z.number() }),
      },
      async () => {
        marcar();
        escrituras++;
        return { ok: true };
      },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const a = app.server.address();
    url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  });
  afterAll(async () => app?.close());
  beforeEach(() => {
    cuenta = { actual: ahora(['administradores']), demora: 0 };
    marcas = { pregunta: [], respuesta: [], manejador: [] };
    escrituras = 0;
    flujoDestruido = false;
  });
  const get = (ruta: string) => pedir(url, 'GET', ruta, { token });

  it('una lectura corre su manejador mientras el servidor confirma la sesión', async () => {
    cuenta.demora = 150;
    const r = await get('/lista/');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(3);
    // The handler began after the question and before the answer: the two waits overlapped.
    expect(marcas.manejador[0]).toBeGreaterThan(marcas.pregunta[0]!);
    expect(marcas.manejador[0]).toBeLessThan(marcas.respuesta[0]!);
  });

  it('la consulta de la sesión empieza antes de verificar la firma, y una firma falsa no la aprovecha', async () => {
    const r = await pedir(url, 'GET', '/lista/', { token: tokenFalso });
    expect(r.status).toBe(401);
    expect(r.body).toEqual(SESION_EXPIRADA);
    expect(marcas.pregunta).toHaveLength(1);
    expect(marcas.manejador).toHaveLength(0);
    const w = await pedir(url, 'POST', '/escribir/', { token: tokenFalso, body: { x: 1 } });
    expect(w.status).toBe(401);
    expect(escrituras).toBe(0);
  });

  it('una lectura de una sesión terminada responde 401 sin datos ni cabeceras del manejador', async () => {
    cuenta = { actual: null, demora: 150 };
    const r = await get('/lista/');
    expect(r.status).toBe(401);
    expect(r.body).toEqual(SESION_EXPIRADA);
    expect(r.headers.get('x-total-count')).toBeNull();
  });

  it('una lectura con roles que ya no la permiten responde 403 sin datos', async () => {
    cuenta.actual = ahora(['operadores']);
    const r = await get('/admin/');
    expect(r.status).toBe(403);
    expect(r.body).toEqual(SIN_PERMISO);
  });

  it('una lectura que usó los roles del token corre otra vez con los actuales', async () => {
    cuenta.actual = ahora(['consulta'], 'Ana B.');
    const r = await get('/quien/');
    expect(r.body).toEqual({ nombre: 'Ana B.', role: ['consulta'] });
    expect(marcas.manejador).toHaveLength(2);
    // One that did not read them is not repeated.
    marcas.manejador = [];
    expect((await get('/lista/')).status).toBe(200);
    expect(marcas.manejador).toHaveLength(1);
  });

  it('un error de validación de una sesión terminada es 401: no enseña el esquema', async () => {
    cuenta.actual = null;
    const r = await get('/numero/abc/');
    expect(r.status).toBe(401);
    expect(r.body).toEqual(SESION_EXPIRADA);
    cuenta.actual = ahora(['administradores']);
    expect((await get('/numero/abc/')).status).toBe(400);
  });

  it('una descarga transmitida de una sesión terminada no envía ni un byte del archivo', async () => {
    cuenta = { actual: null, demora: 100 };
    const r = await get('/descarga/');
    expect(r.status).toBe(401);
    expect(r.body).toEqual(SESION_EXPIRADA);
    expect(r.headers.get('content-disposition')).toBeNull();
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(flujoDestruido).toBe(true);
    cuenta.actual = ahora(['operadores']);
    const bien = await get('/descarga/');
    expect(bien.status).toBe(200);
    expect(bien.body).toBe('fila-secreta-1\nfila-secreta-2\n');
  });

  it('una respuesta propia calculada con roles que cambiaron se rechaza sin enviarla', async () => {
    cuenta.actual = ahora(['consulta']);
    const r = await get('/descarga-por-rol/');
    expect(r.status).toBe(500);
    expect(r.body).not.toContain('administradores');
    cuenta.actual = ahora(['administradores']);
    expect((await get('/descarga-por-rol/')).body).toBe('administradores');
  });

  it('una lectura no puede tomar el socket antes de la confirmación', async () => {
    const r = await get('/socket/');
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).not.toContain('secreto');
  });

  it('una escritura, o una lectura declarada con confirmarAntes, espera la confirmación', async () => {
    cuenta = { actual: null, demora: 50 };
    const w = await pedir(url, 'POST', '/escribir/', { token, body: { x: 1 } });
    expect(w.status).toBe(401);
    expect((await get('/confirmada-antes/')).status).toBe(401);
    expect(marcas.manejador).toHaveLength(0);
    expect(escrituras).toBe(0);
    cuenta.actual = ahora(['operadores']);
    expect((await get('/confirmada-antes/')).status).toBe(200);
    expect(marcas.manejador[0]).toBeGreaterThan(marcas.respuesta.at(-1)!);
  });
});
