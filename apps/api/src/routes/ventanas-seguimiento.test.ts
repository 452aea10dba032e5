import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { tokenConRol } from '../../testing/roles.ts';

// Issue 48.6 over real HTTP on both engines: before a WhatsApp free-text follow-up, how many of
// the recipients it would copy have no 24-hour window open on the device (a window open on
// another device, or closed, does not count as open), and the phone's windows for its history.

describe.each(MOTORES)('ventanas de WhatsApp de un seguimiento (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let wa: number;
  let otro: number;
  let origen: number;
  const ahora = Date.now();

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    wa = await crearEquipo(api.ctx.db, { protocolo: 'whatsapp', alias: 'WA principal' });
    otro = await crearEquipo(api.ctx.db, { protocolo: 'whatsapp', alias: 'WA otro' });
    origen = await crearEjercicio(api.ctx.db, { id_equipo: wa, tipo: 3, n: 6 });
    const k = api.ctx.db.kysely;
    // 5500000001..4 delivered and unread ('No leído'), 5..6 failed.
    await k
      .updateTable('ejercicio_detalle')
      .set((eb) => ({
        estatus: eb.case().when('posicion', '<=', 4).then('entregado').else('fallido').end(),
      }))
      .where('id_ejercicio', '=', origen)
      .execute();
    const ventana = (id_equipo: number, telefono: string, hasta: number) => ({
      id_equipo,
      telefono,
      ultima: hasta - 24 * 3_600_000,
      abierta_hasta: hasta,
    });
    await k
      .insertInto('ventanas_whatsapp')
      .values([
        ventana(wa, '5500000001', ahora + 3_600_000), // open
        ventana(wa, '5500000002', ahora - 60_000), // closed a minute ago
        ventana(otro, '5500000003', ahora + 3_600_000), // open, on another device
        ventana(wa, '5500000005', ahora + 3_600_000), // open, not in the sets
      ])
      .execute();
  });
  afterAll(async () => api?.cerrar());

  const contar = (query: string, t = token) =>
    pedir(api.url, 'GET', `/whatsapp/ventanas/seguimiento/?${query}`, { token: t });

  it('cuenta los destinatarios sin ventana abierta en el equipo elegido', async () => {
    const r = await contar(`origen=${origen}&resultados=whatsapp_no_leido&id_equipo=${wa}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 200, destinatarios: 4, fuera_de_ventana: 3 });
    // On the other device only 5500000003's window is open.
    const o = await contar(`origen=${origen}&resultados=whatsapp_no_leido&id_equipo=${otro}`);
    expect(o.body).toMatchObject({ destinatarios: 4, fuera_de_ventana: 3 });
    // A set with nobody in it.
    const v = await contar(`origen=${origen}&resultados=ocupado&id_equipo=${wa}`);
    expect(v.body).toMatchObject({ destinatarios: 0, fuera_de_ventana: 0 });
    // The role consulta reads it too.
    const { token: lector } = await tokenConRol(api, 'consulta');
    const l = await contar(`origen=${origen}&resultados=whatsapp_no_leido&id_equipo=${wa}`, lector);
    expect(l.status).toBe(200);
  });

  it('un origen que no existe o un resultado desconocido: 400 que nombra el campo', async () => {
    const r = await contar(`origen=999999&resultados=whatsapp_no_leido&id_equipo=${wa}`);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'El campo origen hace referencia a un registro que no existe: 999999',
    );
    const g = await contar(`origen=${origen}&resultados=nada&id_equipo=${wa}`);
    expect(g.status).toBe(400);
    expect(g.body.message).toContain('resultados');
  });

  it('sin sesión: 401', async () => {
    const r = await pedir(
      api.url,
      'GET',
      `/whatsapp/ventanas/seguimiento/?origen=${origen}&resultados=whatsapp_no_leido&id_equipo=${wa}`,
    );
    expect(r.status).toBe(401);
  });
});
