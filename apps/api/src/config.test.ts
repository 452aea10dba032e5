import { describe, expect, it } from 'vitest';
import { loadConfig, parseDuration } from './config.ts';

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
  });

  it.each([
    ['3600', 3600],
    ['30m', 1800],
    ['8h', 28800],
    ['1d', 86400],
  ])('TOKEN_TTL %s = %i s', (texto, s) => expect(parseDuration(texto)).toBe(s));

  it('rechaza valores inválidos con un mensaje en español', () => {
    expect(() => loadConfig({ TOKEN_TTL: 'mucho' })).toThrow(/TOKEN_TTL inválido/);
    expect(() => loadConfig({ PORT: 'ochenta' })).toThrow(/PORT inválido/);
  });
});
