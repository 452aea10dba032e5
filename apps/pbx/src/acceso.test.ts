import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cargarClaves } from '@pregon/servidor/auth/keys';
import { firmarToken } from '@pregon/servidor/auth/tokens';
import { agenteDePrueba, type AgenteDePrueba } from './agente-de-prueba.ts';

// Who may reach the agent: tokens signed by the api's key only (not another key, not expired),
// and browsers only from the web app's origins (CORS).

describe('acceso al agente', () => {
  let ag: AgenteDePrueba;
  let otroDir: string;
  beforeAll(async () => {
    ag = await agenteDePrueba({ amiUrl: '', origenes: ['http://localhost:8080'] });
    otroDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-otra-clave-'));
  });
  afterAll(async () => {
    await ag?.cerrar();
    fs.rmSync(otroDir, { recursive: true, force: true });
  });

  it('refuses a token signed by another key, or expired, with 401 FALLO: SESION EXPIRADA', async () => {
    const otra = await cargarClaves(otroDir);
    const usuario = {
      id_usuario: 1,
      usuario: 'x',
      nombre: 'x',
      role: ['administradores' as const],
    };
    const ajeno = await firmarToken(otra.privada, usuario, 600);
    const vencido = await firmarToken(otra.privada, usuario, -10);
    for (const token of [ajeno, vencido, `Bearer ${ajeno}`, 'Bearer ', 'x'.repeat(5000)]) {
      const r = await fetch(`${ag.url}/trunks/sip/`, { headers: { authorization: token } });
      expect(r.status).toBe(401);
      expect(await r.json()).toMatchObject({ status: 401, message: 'FALLO: SESION EXPIRADA' });
    }
    const bien = await fetch(`${ag.url}/trunks/sip/`, {
      headers: { authorization: `Bearer ${ag.tokens.consulta}` },
    });
    expect(bien.status).toBe(200);
  });

  it('answers CORS preflights for the web app origin only', async () => {
    const preflight = (origin: string) =>
      fetch(`${ag.url}/calls/extensions/`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    const propio = await preflight('http://localhost:8080');
    expect(propio.status).toBe(204);
    expect(propio.headers.get('access-control-allow-origin')).toBe('http://localhost:8080');
    expect(propio.headers.get('access-control-allow-methods')).toContain('PUT');
    const ajeno = await preflight('http://malicioso.example');
    expect(ajeno.headers.get('access-control-allow-origin')).toBeNull();
    const get = await fetch(`${ag.url}/trunks/sip/`, {
      headers: { origin: 'http://localhost:8080', authorization: ag.tokens.consulta },
    });
    expect(get.headers.get('access-control-allow-origin')).toBe('http://localhost:8080');
  });
});
