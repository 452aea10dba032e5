import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { buildApp, crearContexto } from '../server.ts';
import { pedir } from '../../testing/entorno.ts';
import type { FastifyInstance } from 'fastify';
import type { Contexto } from '../contexto.ts';

// pino logs at the most verbose level never carry a password or a token.
describe('bitácora', () => {
  let app: FastifyInstance;
  let ctx: Contexto;
  let url: string;
  let lineas = '';
  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-log-'));
    ({ ctx } = await crearContexto(
      loadConfig({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'Secreto-Muy-Unico-77', LOG_LEVEL: 'trace' }),
    ));
    const stream = new PassThrough();
    stream.on('data', (d) => (lineas += d.toString()));
    app = await buildApp(ctx, { logStream: stream });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const a = app.server.address();
    url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.db.close();
  });

  it('no registra contraseñas ni tokens', async () => {
    const ok = await pedir(url, 'POST', '/auth/signin/', {
      body: { usuario: 'admin', password: 'Secreto-Muy-Unico-77' },
    });
    expect(ok.status).toBe(200);
    await pedir(url, 'POST', '/auth/signin/', {
      body: { usuario: 'admin', password: 'Mala-Clave-Unica-99' },
    });
    await pedir(url, 'GET', '/ejercicios/catalogos/', { token: ok.body.token });
    await pedir(url, 'GET', '/ejercicios/catalogos/', { token: `Bearer ${ok.body.token}` });
    expect(lineas).toContain('/ejercicios/catalogos/');
    expect(lineas).not.toContain('Secreto-Muy-Unico-77');
    expect(lineas).not.toContain('Mala-Clave-Unica-99');
    expect(lineas).not.toContain(ok.body.token);
    expect(lineas).not.toContain(ok.body.token.split('.')[2]);
  });
});
