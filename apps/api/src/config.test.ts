import { describe, expect, it } from 'vitest';
import { loadConfig, parseDuration, parseTrustProxy } from './config.ts';

describe('configuración', () => {
  it('tiene valores por defecto para todo', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.dataDir).toMatch(/data$/);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.adminUser).toBe('admin');
    expect(c.adminPassword).toBeUndefined();
    expect(c.tz).toBe('America/Mexico_City');
    expect(c.tokenTtlSeconds).toBe(8 * 3600);
    expect(c.trustProxy).toEqual([]);
    expect(c.pbxIdioma).toBe('es');
    expect(loadConfig({ PBX_IDIOMA: 'es_MX' }).pbxIdioma).toBe('es_MX');
  });

  it('TRUST_PROXY: direcciones, rangos CIDR y nombres de rango; nada por defecto', () => {
    expect(parseTrustProxy(undefined)).toEqual([]);
    expect(parseTrustProxy('  ')).toEqual([]);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const malo of [
      'true',
      '*',
      '1',
      'proxy.example.com',
      '10.0.0.0/33',
      '::/129',
      '10.0.0.1/8/2',
      '300.1.1.1',
    ])
      expect(() => loadConfig({ TRUST_PROXY: malo }), malo).toThrow(
        `TRUST_PROXY inválido: '${malo}' (use las direcciones o rangos CIDR de sus proxies, separados por comas, por ejemplo 127.0.0.1,10.0.0.0/8)`,
      );
  });

  it.each([
    ['3600', 3600],
    ['30m', 1800],
    ['8h', 28800],
    ['1d', 86400],
  ])('TOKEN_TTL %s = %i s', (texto, s) => expect(parseDuration(texto)).toBe(s));

  it('la política de reintentos de llamada dice lo que hará el despachador (issue 26.7)', () => {
    const c = loadConfig({ DESPACHO_LLAMADA_ESPERA_MS: '30000', DESPACHO_MAX_INTENTOS: '8' });
    expect(c.llamadas).toMatchObject({ reintentos: 2, espera_reintento_s: 30, intentos_red: 8 });
  });

  it('rechaza valores inválidos con un mensaje en español', () => {
    expect(() => loadConfig({ TOKEN_TTL: 'mucho' })).toThrow(/TOKEN_TTL inválido/);
    expect(() => loadConfig({ PORT: 'ochenta' })).toThrow(/PORT inválido/);
    // Nothing that could carry dialplan reaches CHANNEL(language).
    for (const idioma of ['es)', 'es,x', 'ES', 'es\n same => n,System(id)', '${SHELL(id)}'])
      expect(() => loadConfig({ PBX_IDIOMA: idioma }), idioma).toThrow(/PBX_IDIOMA inválido/);
  });
});
