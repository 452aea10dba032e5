import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sesion } from '@pregon/servidor/auth/tokens';
import { HttpError } from '@pregon/servidor/http/errores';
import { sesionDesdeApi } from './sesion-api.ts';

// How the agent asks the api about a token: one question per token per cache period (shared by
// concurrent calls), the api's current roles, and a refusal (503) that is never remembered when
// the api fails.

const SESION: Sesion = {
  sub: '7',
  id_usuario: 7,
  usuario: 'ana',
  nombre: 'Ana',
  role: ['administradores'],
  exp: Math.floor(Date.now() / 1000) + 600,
  sid: 's1',
};

describe('sesionDesdeApi', () => {
  let servidor: http.Server;
  let url: string;
  let preguntas = 0;
  /** What the stand-in api answers next: status and body. */
  let respuesta: [number, unknown] = [200, {}];
  beforeAll(async () => {
    servidor = http.createServer((req, res) => {
      preguntas++;
      expect(req.url).toBe('/auth/sesion/');
      expect(req.headers.authorization).toBe('el-token');
      res.writeHead(respuesta[0], { 'content-type': 'application/json' });
      res.end(JSON.stringify(respuesta[1]));
    });
    await new Promise<void>((r) => servidor.listen(0, '127.0.0.1', r));
    const a = servidor.address();
    url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  });
  afterAll(() => new Promise((r) => servidor.close(r)));

  it('usa los roles actuales del api y pregunta una vez por periodo de caché', async () => {
    preguntas = 0;
    respuesta = [
      200,
      { status: 200, id_usuario: 7, usuario: 'ana', nombre: 'Ana R.', role: ['consulta'] },
    ];
    const v = sesionDesdeApi(url, { cacheMs: 300 });
    const [a, b] = await Promise.all([
      v.vigente(SESION, 'el-token'),
      v.vigente(SESION, 'el-token'),
    ]);
    expect(a).toEqual({ ...SESION, nombre: 'Ana R.', role: ['consulta'] });
    expect(b).toEqual(a);
    expect(preguntas).toBe(1);
    respuesta = [401, { status: 401, message: 'FALLO: SESION EXPIRADA' }];
    expect(await v.vigente(SESION, 'el-token')).toEqual(a);
    await new Promise((r) => setTimeout(r, 350));
    expect(await v.vigente(SESION, 'el-token')).toBeNull();
    expect(preguntas).toBe(2);
  });

  it('sin respuesta válida del api rechaza con 503 y vuelve a preguntar la siguiente vez', async () => {
    preguntas = 0;
    const v = sesionDesdeApi(url);
    for (const r of [
      [500, { status: 500 }],
      [200, { status: 200, id_usuario: 8, usuario: 'otro', nombre: 'Otro', role: [] }],
      [200, 'no es json'],
    ] as [number, unknown][]) {
      respuesta = r;
      const e = await v.vigente(SESION, 'el-token').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(HttpError);
      expect(e).toMatchObject({
        statusCode: 503,
        message: `No se pudo confirmar la sesión con el api principal (${url}). Intente de nuevo en unos segundos.`,
      });
    }
    expect(preguntas).toBe(3);
  });
});
