import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LimitadorIngreso, esperaTras, type ReglasIngreso } from './signin-limiter.ts';
import { MOTORES, levantarApi, type ApiDePrueba } from '../../testing/entorno.ts';

describe('esperaTras', () => {
  const e = { libres: 5, baseMs: 30_000, maxMs: 15 * 60_000 };
  it.each([
    [0, 0],
    [4, 0],
    [5, 30_000],
    [6, 60_000],
    [7, 120_000],
    [9, 480_000],
    [10, 900_000],
    [500, 900_000],
  ])('tras %i fallos espera %i ms', (fallos, ms) => {
    expect(esperaTras(fallos, e)).toBe(ms);
  });
});

const REGLAS: ReglasIngreso = {
  ventanaMs: 60_000,
  usuarioIp: { libres: 3, baseMs: 1_000, maxMs: 8_000 },
  ip: { libres: 5, baseMs: 1_000, maxMs: 8_000 },
  usuario: { libres: 7, baseMs: 5_000, maxMs: 5_000 },
};

describe.each(MOTORES)('LimitadorIngreso en la base (%s)', (motor) => {
  let api: ApiDePrueba;
  beforeAll(async () => {
    api = await levantarApi(motor);
  });
  afterAll(async () => api?.cerrar());

  it('usuario+dirección: esperas crecientes; otra dirección no se entera', async () => {
    const l = new LimitadorIngreso(api.ctx.db.kysely, REGLAS);
    const t = 1_000_000;
    expect(await l.fallo('Ana', '10.0.0.1', t)).toEqual([]);
    expect(await l.fallo('ana', '10.0.0.1', t)).toEqual([]);
    const [b] = await l.fallo('ana', '10.0.0.1', t);
    expect(b).toEqual({ clave: 'ua:ana|10.0.0.1', fallos: 3, hasta: t + 1_000 });
    expect(await l.espera('ana', '10.0.0.1', t + 500)).toBe(500);
    expect(await l.espera('ana', '10.0.0.1', t + 1_000)).toBe(0);
    await l.fallo('ana', '10.0.0.1', t + 1_000);
    expect(await l.espera('ana', '10.0.0.1', t + 1_000)).toBe(2_000);
    expect(await l.espera('ana', '10.0.0.2', t + 1_000)).toBe(0);
    await l.exito('ana', '10.0.0.1');
    expect(await l.espera('ana', '10.0.0.1', t + 1_000)).toBe(0);
  });

  it('la cuenta vuelve a empezar tras la ventana sin fallos', async () => {
    const l = new LimitadorIngreso(api.ctx.db.kysely, REGLAS);
    const t = 2_000_000;
    for (let i = 0; i < 3; i++) await l.fallo('beto', '10.1.0.1', t);
    expect(await l.espera('beto', '10.1.0.1', t)).toBe(1_000);
    expect(await l.fallo('beto', '10.1.0.1', t + 61_000)).toEqual([]);
  });

  it('el tope por usuario detiene solo a las direcciones que fallaron', async () => {
    const l = new LimitadorIngreso(api.ctx.db.kysely, REGLAS);
    const t = 3_000_000;
    // 7 failures from 7 addresses (one each: neither the address nor user+address rules act).
    for (let i = 0; i < 7; i++) await l.fallo('carla', `10.2.0.${i}`, t);
    expect(await l.espera('carla', '10.2.0.3', t)).toBe(5_000);
    expect(await l.espera('carla', '10.2.9.9', t)).toBe(0);
    expect(await l.desbloquear('Carla')).toBe(8);
    expect(await l.espera('carla', '10.2.0.3', t)).toBe(0);
  });
});
