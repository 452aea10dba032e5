import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { equiposParaTipo } from '@pregon/contract/rules/equipment';
import {
  TIPO_CUESTIONARIO,
  TIPO_LLAMADA,
  TIPO_SMS,
  TIPO_WHATSAPP,
} from '@pregon/contract/constants';
import { levantarApi, type ApiDePrueba } from '../../testing/entorno.ts';
import { sembrarEquiposDemo } from './equipos-demo.ts';

// The demo devices of `npm start` must be offered by the create dialog for their types.
describe('equipos de demostración', () => {
  let api: ApiDePrueba;
  beforeAll(async () => {
    api = await levantarApi('sqlite');
  });
  afterAll(async () => api?.cerrar());

  it('los dos SMS se ofrecen para el tipo 1, el de WhatsApp para el 3 y los de Asterisk para el 2 y el 4; sembrar dos veces no duplica', async () => {
    await sembrarEquiposDemo(api.ctx.db, { SIM_DEMO: '1' });
    await sembrarEquiposDemo(api.ctx.db, { SIM_DEMO: '1' });
    const equipos = await api.ctx.db.kysely
      .selectFrom('equipos')
      .select(['id_equipo', 'alias', 'protocolo'])
      .execute();
    expect(equipos).toHaveLength(5);
    expect(
      equiposParaTipo(equipos, TIPO_SMS)
        .map((e) => e.protocolo)
        .sort(),
    ).toEqual(['android', 'smpp']);
    expect(equiposParaTipo(equipos, TIPO_WHATSAPP).map((e) => e.protocolo)).toEqual(['whatsapp']);
    expect(equiposParaTipo(equipos, TIPO_LLAMADA).map((e) => e.alias)).toEqual([
      'LLAMADAS (simulador Asterisk)',
    ]);
    expect(equiposParaTipo(equipos, TIPO_CUESTIONARIO).map((e) => e.alias)).toEqual([
      'CUESTIONARIO (simulador Asterisk)',
    ]);
  });
});
