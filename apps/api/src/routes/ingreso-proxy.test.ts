import { afterEach, describe, expect, it } from 'vitest';
import { MOTORES, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';

// Sign-in throttling keys on the address the connection came from (issue 22, part 3): a client
// that writes its own X-Forwarded-For gets no new address from it, unless the connection comes
// from a proxy named in TRUST_PROXY. The audit records the same address the limiter uses.

const entrar = (api: ApiDePrueba, ip: string, password: string) =>
  pedir(api.url, 'POST', '/auth/signin/', {
    body: { usuario: 'admin', password },
    headers: { 'x-forwarded-for': ip },
  });

/** The addresses the audit recorded for failed sign-ins and locks. */
const ipsAuditadas = async (api: ApiDePrueba) =>
  (
    await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select('detalle')
      .where('accion', 'in', ['ingreso_fallido', 'bloqueo_ingreso', 'ingreso'])
      .execute()
  ).map((f) => JSON.parse(f.detalle!).ip as string);

describe.each(MOTORES)('dirección de origen del ingreso (%s)', (motor) => {
  let api: ApiDePrueba | undefined;
  afterEach(async () => {
    await api?.cerrar();
    api = undefined;
  });

  it('sin proxy de confianza, 30 contraseñas malas con otra X-Forwarded-For falsa cada una se rechazan desde la 6.ª', async () => {
    api = await levantarApi(motor);
    const estados: number[] = [];
    for (let i = 0; i < 30; i++)
      estados.push((await entrar(api, `203.0.113.${i + 1}`, `mala-${i}`)).status);
    expect(estados.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(estados.slice(5))).toEqual(new Set([429]));
    const ips = await ipsAuditadas(api);
    expect(ips.length).toBeGreaterThan(0);
    expect(new Set(ips)).toEqual(new Set(['127.0.0.1']));
  });

  it('con TRUST_PROXY=127.0.0.1 cuenta la dirección que informa el proxy, también en la auditoría', async () => {
    api = await levantarApi(motor, { TRUST_PROXY: '127.0.0.1' });
    const estados: number[] = [];
    for (let i = 0; i < 6; i++)
      estados.push((await entrar(api, '203.0.113.9', `mala-${i}`)).status);
    expect(estados).toEqual([401, 401, 401, 401, 401, 429]);
    // Another client behind the same proxy is not held back.
    expect((await entrar(api, '198.51.100.4', api.adminPassword)).status).toBe(200);
    // A client that forges the header in front of the proxy: the proxy appends the address it
    // saw, and that one counts.
    expect((await entrar(api, '10.9.9.9, 203.0.113.9', api.adminPassword)).status).toBe(429);
    expect(new Set(await ipsAuditadas(api))).toEqual(new Set(['203.0.113.9', '198.51.100.4']));
  });

  it('una conexión que no viene de un proxy de la lista no cambia de dirección (TRUST_PROXY=10.0.0.0/8)', async () => {
    api = await levantarApi(motor, { TRUST_PROXY: '10.0.0.0/8, 192.168.1.10' });
    const estados: number[] = [];
    for (let i = 0; i < 6; i++)
      estados.push((await entrar(api, `203.0.113.${i + 1}`, `mala-${i}`)).status);
    expect(estados).toEqual([401, 401, 401, 401, 401, 429]);
    expect(new Set(await ipsAuditadas(api))).toEqual(new Set(['127.0.0.1']));
  });
});
