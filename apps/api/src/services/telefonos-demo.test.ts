import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonizarTelefono } from '@pregon/contract/rules/phone';
import { MOTORES, levantarApi, type ApiDePrueba } from '../../testing/entorno.ts';
import { ESTADOS_DEMO, sembrarTelefonosDemo, TELEFONOS_DEMO } from './telefonos-demo.ts';

// The demo phone list (issue 13 item 5): seeded once with the simulators on, never without.
describe.each(MOTORES)('teléfonos de demostración (%s)', (motor) => {
  let api: ApiDePrueba;
  beforeAll(async () => {
    api = await levantarApi(motor);
  });
  afterAll(async () => api?.cerrar());

  const contar = async () =>
    Number(
      (
        await api.ctx.db.kysely
          .selectFrom('telefonos')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('sin simuladores no siembra nada', async () => {
    expect(await sembrarTelefonosDemo(api.ctx.db, {})).toBe(0);
    expect(await sembrarTelefonosDemo(api.ctx.db, { SIM_DEMO: '1', SIMULADORES: '0' })).toBe(0);
    expect(await contar()).toBe(0);
  });

  it('siembra una vez miles de números válidos repartidos en estados y categorías', async () => {
    expect(await sembrarTelefonosDemo(api.ctx.db, { SIM_DEMO: '1' })).toBe(TELEFONOS_DEMO);
    expect(await sembrarTelefonosDemo(api.ctx.db, { SIM_DEMO: '1' })).toBe(0);
    expect(await contar()).toBe(TELEFONOS_DEMO);
    const k = api.ctx.db.kysely;
    const porEstado = await k
      .selectFrom('telefonos as t')
      .innerJoin('estados as e', 'e.id_estado', 't.id_estado')
      .select(['e.estado', (eb) => eb.fn.countAll().as('n')])
      .groupBy('e.estado')
      .execute();
    expect(porEstado.map((r) => r.estado).sort()).toEqual([...ESTADOS_DEMO].sort());
    const porCategoria = await k
      .selectFrom('telefono_categoria as tc')
      .innerJoin('categorias as c', 'c.id_categoria', 'tc.id_categoria')
      .select(['c.categoria', (eb) => eb.fn.countAll().as('n')])
      .groupBy('c.categoria')
      .execute();
    const n = Object.fromEntries(porCategoria.map((r) => [r.categoria, Number(r.n)]));
    expect(n['Demostración']).toBe(TELEFONOS_DEMO);
    expect(Object.keys(n).length).toBeGreaterThanOrEqual(4);
    // Deleting the demo phones and keeping the category does not bring them back.
    await k.deleteFrom('telefono_categoria').execute();
    await k.deleteFrom('telefonos').execute();
    expect(await sembrarTelefonosDemo(api.ctx.db, { SIM_DEMO: '1' })).toBe(0);
    expect(await contar()).toBe(0);
  });

  it('el número sembrado está en la forma canónica que guarda la API', async () => {
    await api.ctx.db.kysely
      .deleteFrom('categorias')
      .where('categoria', '=', 'Demostración')
      .execute();
    await sembrarTelefonosDemo(api.ctx.db, { SIM_DEMO: '1' });
    const fila = await api.ctx.db.kysely
      .selectFrom('telefonos')
      .select('telefono')
      .orderBy('id_telefono')
      .executeTakeFirstOrThrow();
    expect(canonizarTelefono(fila.telefono)).toEqual({ ok: true, telefono: fila.telefono });
  });
});
