import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { CryptoKey } from 'jose';
import { cargarClaves } from '@pregon/servidor/auth/keys';
import { firmarToken, tokenDeCabecera, verificarToken } from '@pregon/servidor/auth/tokens';
import { firmarDialplan } from '@pregon/servidor/auth/firma-dialplan';
import { sesionActual } from '@pregon/contract/api/auth';
import { ARCHIVO_LLAMADAS, archivoDialplanQuiz } from '@pregon/contract/rules/dialplan';
import type { Rol } from '@pregon/contract/constants';
import { clavesPbx, crearAppPbx } from './app.ts';
import { cargarConfigPbx, type ConfigPbx } from './config.ts';

/** An agent listening on a loopback port in a temp folder, for tests over real HTTP. */
export interface AgenteDePrueba {
  url: string;
  config: ConfigPbx;
  dir: string;
  /** A token per role, signed by the private key the agent never sees. */
  tokens: Record<Rol, string>;
  /** A dialplan write's body as the api would sign it: `destino` is 'llamadas' or an id_quiz. */
  plan: (
    destino: 'llamadas' | number,
    contenido: string,
    ttlSegundos?: number,
  ) => Promise<{ contenido: string; firma: string }>;
  cerrar: () => Promise<void>;
}

/**
 * A stand-in for the main api's GET /auth/sesion/ over real HTTP on loopback: every token with a
 * valid signature has an open session with the roles it carries. The agent's tests that are not
 * about sessions ask it; revocacion.test.ts runs the agent against a real api instead.
 */
export async function apiDeSesionesDePrueba(
  publica: CryptoKey,
): Promise<{ url: string; cerrar: () => Promise<void> }> {
  const servidor = http.createServer((req, res) => {
    void (async () => {
      const sesion =
        req.method === 'GET' && req.url === sesionActual.path
          ? await verificarToken(publica, tokenDeCabecera(req.headers.authorization))
          : null;
      const [status, cuerpo] = sesion
        ? [200, { status: 200, ...sesion }]
        : [401, { status: 401, message: 'FALLO: SESION EXPIRADA' }];
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(cuerpo));
    })();
  });
  await new Promise<void>((r) => servidor.listen(0, '127.0.0.1', r));
  const a = servidor.address();
  return {
    url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`,
    cerrar: () => new Promise((r) => servidor.close(() => r())),
  };
}

/** Starts the agent with a fresh key pair (only the public key is left on disk) and the given
 * configuration changes (AMI, limits); it confirms sessions with apiDeSesionesDePrueba unless
 * `cambios.apiUrl` names another api; its log goes to `opts.logStream` when given. */
export async function agenteDePrueba(
  cambios: Partial<ConfigPbx> = {},
  opts: { logStream?: NodeJS.WritableStream } = {},
): Promise<AgenteDePrueba> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-pbx-'));
  const claves = await cargarClaves(dir);
  const apiSesiones = cambios.apiUrl ? undefined : await apiDeSesionesDePrueba(claves.publica);
  const tokens = {} as Record<Rol, string>;
  for (const rol of ['administradores', 'operadores', 'consulta'] as const)
    tokens[rol] = await firmarToken(
      claves.privada,
      { id_usuario: 1, usuario: rol, nombre: rol, role: [rol] },
      600,
    );
  // The private key stays in this process (as the api's would) and leaves the agent's disk.
  const plan = async (destino: 'llamadas' | number, contenido: string, ttlSegundos?: number) => ({
    contenido,
    firma: await firmarDialplan(
      claves.privada,
      destino === 'llamadas' ? ARCHIVO_LLAMADAS : archivoDialplanQuiz(destino),
      contenido,
      ttlSegundos,
    ),
  });
  fs.rmSync(path.join(dir, 'jwt-privada.pem'));
  const config = {
    ...cargarConfigPbx({ DATA_DIR: dir, LOG_LEVEL: 'silent' }),
    ...(apiSesiones ? { apiUrl: apiSesiones.url } : {}),
    ...cambios,
  };
  const app = await crearAppPbx(config, await clavesPbx(config), opts);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const a = app.server.address();
  return {
    url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`,
    config,
    dir,
    tokens,
    plan,
    cerrar: async () => {
      await app.close();
      await apiSesiones?.cerrar();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every file under the agent's three folders (relative names), to prove nothing was left. */
export function archivosDelAgente(config: ConfigPbx): string[] {
  return [config.sonidosDir, config.dialplanDir, config.pjsipDir]
    .flatMap((d) => fs.readdirSync(d).map((f) => path.join(path.basename(d), f)))
    .sort();
}
