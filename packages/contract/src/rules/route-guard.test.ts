import { describe, expect, it } from 'vitest';
import {
  decidirRuta,
  decodificarToken,
  rolesDelToken,
  tieneRol,
  tokenExpirado,
  type DecisionRuta,
  type EntradaRuta,
  type PayloadToken,
} from './route-guard.ts';

/** A JWT-shaped token (unsigned) with the given payload, base64url-encoded as a server would. */
function token(payload: unknown): string {
  const b64url = (s: string) =>
    btoa(String.fromCharCode(...new TextEncoder().encode(s)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  return `${b64url('{"alg":"EdDSA","typ":"JWT"}')}.${b64url(JSON.stringify(payload))}.firma`;
}

const AHORA = 1_700_000_000_000;
const VIGENTE = AHORA / 1000 + 3600;
const VENCIDO = AHORA / 1000 - 1;

describe('decodificarToken', () => {
  it.each<[string, string | null, PayloadToken | null]>([
    ['a valid payload', token({ role: ['operadores'], exp: 5 }), { role: ['operadores'], exp: 5 }],
    [
      'accents and base64url characters',
      token({ nombre: 'José Núñez ¿?>>>', exp: 1 }),
      { nombre: 'José Núñez ¿?>>>', exp: 1 },
    ],
    ['no payload part', 'abc', null],
    ['not base64', 'a.@@@.c', null],
    ['not JSON', `a.${btoa('no json')}.c`, null],
    ['a JSON array', token([1, 2]), null],
    ['a JSON number', token(7), null],
    ['empty', '', null],
    ['null', null, null],
  ])('%s', (_, t, esperado) => {
    expect(decodificarToken(t)).toEqual(esperado);
  });
});

describe('roles', () => {
  it.each<[PayloadToken | null, string[], boolean]>([
    [{ role: ['administradores'] }, ['administradores'], true],
    [{ role: ['operadores', 'administradores'] }, ['administradores'], true],
    [{ role: 'administradores' }, ['administradores'], true],
    [{ role: 'operadores,administradores' }, ['administradores'], true],
    [{ role: 'operadores' }, ['administradores'], false],
    [{ role: 'noadministradores' }, ['administradores'], false],
    [{ role: [] }, ['administradores'], false],
    [{}, ['administradores'], false],
    [null, ['administradores'], false],
    [{ role: ['consulta'] }, [], false],
  ])('%j has one of %j: %s', (payload, roles, esperado) => {
    expect(tieneRol(payload, roles)).toBe(esperado);
  });

  it.each<[PayloadToken, string[]]>([
    [{ role: ' a, b  c ' }, ['a', 'b', 'c']],
    [{ role: ['a', 3 as unknown as string] }, ['a']],
    [{}, []],
  ])('rolesDelToken(%j) → %j', (payload, roles) => {
    expect(rolesDelToken(payload)).toEqual(roles);
  });
});

describe('tokenExpirado', () => {
  it.each<[PayloadToken | null, boolean]>([
    [{ exp: VENCIDO }, true],
    [{ exp: VIGENTE }, false],
    [{ exp: AHORA / 1000 }, false], // exp × 1000 equal to now is not earlier than now
    [{}, false],
    [null, false],
    [{ exp: 'x' as unknown as number }, false],
  ])('%j → %s', (payload, esperado) => {
    expect(tokenExpirado(payload, AHORA)).toBe(esperado);
  });
});

describe('decidirRuta (SPEC 6)', () => {
  const admin = token({ role: ['administradores'], exp: VIGENTE });
  const operador = token({ role: 'operadores', exp: VIGENTE });
  const vencido = token({ role: ['administradores'], exp: VENCIDO });
  const basura = 'no.es-un.token';

  it.each<[string, Omit<EntradaRuta, 'ahoraMs'>, DecisionRuta]>([
    [
      'no token, private route',
      { token: null, publica: false },
      { tipo: 'signin', limpiar: false },
    ],
    ['no token, empty string', { token: '', publica: false }, { tipo: 'signin', limpiar: false }],
    ['no token, /signin', { token: null, publica: true }, { tipo: 'permitir' }],
    ['valid token, /', { token: operador, publica: false }, { tipo: 'permitir' }],
    ['valid token, /signin', { token: operador, publica: true }, { tipo: 'permitir' }],
    ['expired token', { token: vencido, publica: false }, { tipo: 'signin', limpiar: true }],
    [
      'expired token on /users',
      { token: vencido, publica: false, rolesRuta: ['administradores'] },
      { tipo: 'signin', limpiar: true },
    ],
    [
      'expired token on /signin',
      { token: vencido, publica: true },
      { tipo: 'signin', limpiar: true },
    ],
    [
      'admin on /users',
      { token: admin, publica: false, rolesRuta: ['administradores'] },
      { tipo: 'permitir' },
    ],
    [
      'operator on /users',
      { token: operador, publica: false, rolesRuta: ['administradores'] },
      { tipo: 'inicio' },
    ],
    [
      'route with an empty role list',
      { token: operador, publica: false, rolesRuta: [] },
      { tipo: 'permitir' },
    ],
    [
      'undecodable token on /users: role check fails',
      { token: basura, publica: false, rolesRuta: ['administradores'] },
      { tipo: 'inicio' },
    ],
    [
      'undecodable token on /: not expired',
      { token: basura, publica: false },
      { tipo: 'permitir' },
    ],
  ])('%s', (_, entrada, esperado) => {
    expect(decidirRuta({ ...entrada, ahoraMs: AHORA })).toEqual(esperado);
  });
});
