import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorAndroid } from '@pregon/simulators/android';
import { duplicados } from '@pregon/simulators/comun';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { SimuladorWhatsapp } from '@pregon/simulators/whatsapp';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { arrancarDespachador } from './index.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import {
  CONFIG_PRUEBA,
  banderas,
  esperarCompletado,
  esperarQue,
  filas,
  porEstatus,
} from '@pregon/despacho/testing/comun';

// SMS and WhatsApp exercises run to completion through the simulators over real sockets, on
// both engines: every recipient gets one outcome, one message, and its receipt.

describe.each(MOTORES)('despachador (%s)', (motor) => {
  let api: ApiDePrueba;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const smsc = new SimuladorSmpp({ system_id: 'pregon', password: 'secreto', retrasoReciboMs: 50 });
  const android = new SimuladorAndroid({
    usuario: 'pregon',
    password: 'secreto',
    retrasoReciboMs: 50,
  });
  const wa = new SimuladorWhatsapp({
    token: 'tok',
    phoneNumberId: '1234567890',
    appSecret: 'secreto-app',
    retrasoReciboMs: 50,
    // Free text reaches only recipients inside the 24-hour window (templates: whatsapp.test.ts).
    ventanaAbierta: true,
  });

  beforeAll(async () => {
    api = await levantarApi(motor);
    await Promise.all([smsc.iniciar(), android.iniciar(), wa.iniciar()]);
    wa.webhookUrl = `${api.url}/webhooks/whatsapp/`;
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
      bitacora: { info: () => {}, error: (t) => console.error(t) },
    });
  });
  afterAll(async () => {
    await despachador?.detener();
    await Promise.all([smsc.detener(), android.detener(), wa.detener()]);
    await api?.cerrar();
  });

  async function comprobar(id: number, registro: { id: string; telefono: string }[], n: number) {
    await esperarCompletado(api.ctx.db, id);
    await esperarQue(
      async () => (await porEstatus(api.ctx.db, id)).entregado === n,
      `todos los recibos aplicados ${JSON.stringify(await porEstatus(api.ctx.db, id))}`,
    );
    const rs = await filas(api.ctx.db, id);
    const enviados = rs.filter((r) => r.estatus === 'entregado');
    expect(enviados).toHaveLength(n);
    const porId = new Map(registro.map((m) => [m.id, m.telefono]));
    for (const r of enviados) {
      expect(r.recibida).toBe(1);
      expect(r.intentos).toBe(1);
      expect(r.fecha_envio).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r.hora_envio).toMatch(/^\d{2}:\d{2}:\d{2}$/);
      expect(porId.get(r.id_gateway!)?.replace(/^\+?52/, '')).toBe(r.telefono);
    }
    const invalidos = rs.filter((r) => r.estatus === 'invalido');
    expect(invalidos).toHaveLength(1);
    expect(invalidos[0]!.motivo).toBeTruthy();
    expect(duplicados(registro as never).size).toBe(0);
    const f = await banderas(api.ctx.db, id);
    expect(f).toMatchObject({ completado: 1, en_proceso: 0, en_pausa: 0 });
    expect(f.terminado).toBeGreaterThan(0);
    const audit = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .selectAll()
      .where('accion', '=', 'completar')
      .where('id_entidad', '=', String(id))
      .execute();
    expect(audit).toHaveLength(1);
  }

  it('SMS por SMPP: bind, submit_sm, recibos deliver_sm, todos completos', async () => {
    const id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      credenciales: { system_id: 'pregon', password: 'secreto' },
    });
    const antes = Date.now();
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 300, extra: ['12ab'] });
    api.ctx.eventos.emit('ejercicio', id);
    await comprobar(id, smsc.registro, 300);
    expect(smsc.registro).toHaveLength(300);
    // Real sends move the device's 'Último contacto' (issue 26.7: only test sends did).
    const token = await ingresar(api);
    const r = await pedir(api.url, 'GET', `/equipos/${id_equipo}/`, { token });
    expect(r.body.data.ultimo_contacto).toBeGreaterThanOrEqual(antes);
    expect(r.body.data.ultimo_contacto).toBeLessThanOrEqual(Date.now());
  });

  it('SMS por la pasarela Android: id idempotente, estado leído con GET /message/{id}', async () => {
    const id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'android',
      url: android.url,
      credenciales: { usuario: 'pregon', password: 'secreto' },
    });
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 200, extra: ['12ab'] });
    api.ctx.eventos.emit('ejercicio', id);
    await comprobar(id, android.registro, 200);
    expect(android.registro).toHaveLength(200);
    expect((await filas(api.ctx.db, id))[0]!.id_gateway).toMatch(/^pregon-[0-9a-f]{8}-\d+$/);
  });

  it('WhatsApp Cloud API: mensajes de texto y estados por webhook firmado', async () => {
    const id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: wa.url,
      credenciales: { token: 'tok', phone_number_id: '1234567890', app_secret: 'secreto-app' },
    });
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 150, tipo: 3, extra: ['12ab'] });
    api.ctx.eventos.emit('ejercicio', id);
    await comprobar(id, wa.registro, 150);
    expect(wa.registro).toHaveLength(150);
    expect(wa.webhooksEntregados).toBeGreaterThan(0);
  });
});
