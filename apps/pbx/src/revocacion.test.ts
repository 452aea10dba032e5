import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MOTORES,
  ingresar,
  levantarApi,
  pedir,
  type ApiDePrueba,
} from '@pregon/api/testing/entorno';
import { clavesPbx, crearAppPbx } from './app.ts';
import { cargarConfigPbx } from './config.ts';

// The telephony agent has no database: it asks the api whether a token's session is still open
// and with which roles (issue 22, part 2). A deactivated, demoted or signed-out user is refused
// within 5 s; when the api does not answer, the agent refuses too (503).

const PASSWORD = 'Clave-de-prueba-1';

/** Starts the agent with its folders under `dataDir` (the api's public key) asking `apiUrl`. */
async function agente(dataDir: string, apiUrl: string) {
  const config = cargarConfigPbx({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PBX_API_URL: apiUrl });
  const app = await crearAppPbx(config, await clavesPbx(config));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const a = app.server.address();
  return { app, url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}` };
}

/** Asks `pedirAlAgente` every 100 ms until it answers `status`; the time it took (ms), or null
 * after 8 s. */
async function hasta(status: number, pedirAlAgente: () => Promise<number>) {
  const inicio = Date.now();
  while (Date.now() - inicio < 8000) {
    if ((await pedirAlAgente()) === status) return Date.now() - inicio;
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

describe.each(MOTORES)('el agente sigue a la sesión (%s)', (motor) => {
  let api: ApiDePrueba;
  let ag: { app: FastifyInstance; url: string };
  let admin: string;
  let n = 0;
  const crearUsuario = async (role: string[]) => {
    const usuario = `agente.${++n}`;
    const r = await pedir(api.url, 'POST', '/usuarios/', {
      token: admin,
      body: { usuario, nombre: usuario, role, password: PASSWORD },
    });
    expect(r.status).toBe(200);
    return { id: r.body.id_usuario as number, token: await ingresar(api, usuario, PASSWORD) };
  };
  const agentePide = async (method: string, ruta: string, token: string) =>
    (await fetch(`${ag.url}${ruta}`, { method, headers: { authorization: token } })).status;

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    ag = await agente(api.config.dataDir, api.url);
  });
  afterAll(async () => {
    await ag?.app.close();
    await api?.cerrar();
  });

  it('rechaza el token de un usuario desactivado en 5 s o menos (lecturas y audio)', async () => {
    const op = await crearUsuario(['operadores']);
    expect(await agentePide('GET', '/trunks/sip/', op.token)).toBe(200);
    expect(await agentePide('HEAD', '/asterisk/audio/no-existe', op.token)).toBe(404);
    await pedir(api.url, 'PUT', `/usuarios/${op.id}/`, { token: admin, body: { activo: false } });
    const ms = await hasta(401, () => agentePide('GET', '/trunks/sip/', op.token));
    console.info(`[${motor}] agente: token de usuario desactivado rechazado tras ${ms} ms`);
    expect(ms).not.toBeNull();
    expect(ms!).toBeLessThanOrEqual(5000);
    expect(await agentePide('HEAD', '/asterisk/audio/no-existe', op.token)).toBe(401);
  });

  it('aplica los roles actuales: un operador degradado a consulta ya no escribe en 5 s o menos', async () => {
    const op = await crearUsuario(['operadores']);
    // A write the role allows reaches the handler (no such trunk: 404).
    expect(await agentePide('DELETE', '/trunks/sip/no-existe', op.token)).toBe(404);
    await pedir(api.url, 'PUT', `/usuarios/${op.id}/`, {
      token: admin,
      body: { role: ['consulta'] },
    });
    const ms = await hasta(403, () => agentePide('DELETE', '/trunks/sip/no-existe', op.token));
    console.info(`[${motor}] agente: operador degradado rechazado tras ${ms} ms`);
    expect(ms).not.toBeNull();
    expect(ms!).toBeLessThanOrEqual(5000);
    expect(await agentePide('GET', '/trunks/sip/', op.token)).toBe(200);
  });

  it('rechaza un token cuya sesión se cerró en 5 s o menos', async () => {
    const op = await crearUsuario(['consulta']);
    expect(await agentePide('GET', '/trunks/sip/', op.token)).toBe(200);
    expect((await pedir(api.url, 'POST', '/auth/signout/', { token: op.token })).status).toBe(200);
    const ms = await hasta(401, () => agentePide('GET', '/trunks/sip/', op.token));
    console.info(`[${motor}] agente: sesión cerrada rechazada tras ${ms} ms`);
    expect(ms).not.toBeNull();
    expect(ms!).toBeLessThanOrEqual(5000);
  });

  it('sin respuesta del api, rechaza con 503 y un mensaje que nombra el api', async () => {
    const op = await crearUsuario(['consulta']);
    const sinApi = await agente(api.config.dataDir, 'http://127.0.0.1:9');
    try {
      const r = await fetch(`${sinApi.url}/trunks/sip/`, { headers: { authorization: op.token } });
      expect(r.status).toBe(503);
      expect(((await r.json()) as { message: string }).message).toBe(
        'No se pudo confirmar la sesión con el api principal (http://127.0.0.1:9). Intente de nuevo en unos segundos.',
      );
    } finally {
      await sinApi.app.close();
    }
  });
});
