import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { SimuladorWhatsapp } from '@pregon/simulators/whatsapp';
import { MOTORES, levantarApi, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { arrancarDespachador } from './index.ts';
import {
  CONFIG_PRUEBA,
  banderas,
  esperarCompletado,
  esperarQue,
  filas,
  porEstatus,
} from '@pregon/despacho/testing/comun';

// Meta's errors and webhooks over real sockets, on both engines (issue 16): request errors 100 and
// 131009 never blame the recipient and pause the exercise when repeated; an unknown
// phone_number_id pauses at once; throughput limits (HTTP 400, 130429) retry until everyone gets
// the message; webhook deliveries that mix statuses with users' messages, template and account
// updates and another phone number's statuses are answered 200 and only this device's statuses
// applied; failed statuses keep Meta's code and title in the reason.

const MAX_ERRORES = 8;

describe.each(MOTORES)('WhatsApp: errores de Meta y webhooks mixtos (%s)', (motor) => {
  let api: ApiDePrueba;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const wa = new SimuladorWhatsapp({
    token: 'tok',
    phoneNumberId: '1000000001',
    appSecret: 'secreto-app',
    retrasoReciboMs: 30,
    ventanaAbierta: true,
  });
  // A second number of another Meta app whose deliveries look like a real subscription's.
  const mixto = new SimuladorWhatsapp({
    token: 'tok2',
    phoneNumberId: '1000000002',
    appSecret: 'otro-secreto',
    retrasoReciboMs: 30,
    ventanaAbierta: true,
    webhooksMixtos: true,
    otroTelefonoId: '1000000099',
  });
  let id_equipo = 0;
  let id_mixto = 0;

  beforeAll(async () => {
    api = await levantarApi(motor);
    await Promise.all([wa.iniciar(), mixto.iniciar()]);
    wa.webhookUrl = mixto.webhookUrl = `${api.url}/webhooks/whatsapp/`;
    despachador = await arrancarDespachador(
      api.ctx.db,
      { ...CONFIG_PRUEBA, maxErroresConsecutivos: MAX_ERRORES },
      { eventos: api.ctx.eventos, bitacora: { info: () => {}, error: () => {} } },
    );
    id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: wa.url,
      credenciales: { token: 'tok', phone_number_id: '1000000001', app_secret: 'secreto-app' },
    });
    id_mixto = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: mixto.url,
      credenciales: { token: 'tok2', phone_number_id: '1000000002', app_secret: 'otro-secreto' },
    });
  });
  afterAll(async () => {
    await despachador?.detener();
    await Promise.all([wa.detener(), mixto.detener()]);
    await api?.cerrar();
  });

  const reanudar = async (id: number) => {
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ en_pausa: 0, motivo_pausa: null })
      .where('id_ejercicio', '=', id)
      .execute();
    api.ctx.eventos.emit('ejercicio', id);
  };

  it.each([100, 131009])(
    '%i repetido: nadie queda inválido, el ejercicio se pausa en segundos y al reanudar todos reciben',
    async (codigo) => {
      wa.errorFijo = codigo;
      onTestFinished(() => {
        wa.errorFijo = undefined;
      });
      const antes = wa.registro.length;
      const id = await crearEjercicio(api.ctx.db, {
        id_equipo,
        n: 10,
        tipo: 3,
        base: codigo === 100 ? 100 : 200,
        puertos: 2,
      });
      const t0 = Date.now();
      api.ctx.eventos.emit('ejercicio', id);
      await esperarQue(async () => (await banderas(api.ctx.db, id)).en_pausa === 1, 'pausado');
      // No circuit breaker for a refused request: two ports pause at full speed instead of
      // probing one row per backoff step (about 4 s here, 13 minutes with the defaults).
      expect(Date.now() - t0).toBeLessThan(2_500);
      const f = await banderas(api.ctx.db, id);
      expect(f.motivo_pausa).toContain(
        msg('pausaAutomatica', { n: MAX_ERRORES, alias: 'SIM', error: '' }).slice(0, 40),
      );
      expect(f.motivo_pausa).toContain(`(${codigo}: `);
      expect(f.motivo_pausa).toContain('no por el destinatario');
      const rs = await esperarQue(async () => {
        const x = await filas(api.ctx.db, id);
        return x.every((r) => r.estatus === 'pendiente') ? x : undefined;
      }, 'todas las filas pendientes');
      // Eight refusals, over as many rows or fewer (a refused row is claimed again after its
      // backoff), none of them marked against the recipient.
      const rechazadas = rs.filter((r) => r.intentos > 0);
      expect(rs.reduce((s, r) => s + r.intentos, 0)).toBeGreaterThanOrEqual(MAX_ERRORES);
      for (const r of rechazadas) {
        expect(r.motivo).toContain(`(${codigo}: `);
        expect(r.fecha_envio).toBeNull();
      }
      expect(wa.registro.length).toBe(antes);

      wa.errorFijo = undefined;
      await reanudar(id);
      await esperarCompletado(api.ctx.db, id);
      await esperarQue(
        async () => (await porEstatus(api.ctx.db, id)).entregado === 10,
        '10 entregados',
      );
      expect(wa.registro.length - antes).toBe(10);
    },
  );

  it('un 131009 aislado entre envíos buenos: la fila se reintenta y llega, nadie inválido', async () => {
    wa.erroresForzados.push(131009);
    onTestFinished(() => {
      wa.erroresForzados.splice(0);
    });
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 3, tipo: 3, base: 300 });
    api.ctx.eventos.emit('ejercicio', id);
    await esperarCompletado(api.ctx.db, id);
    await esperarQue(
      async () => (await porEstatus(api.ctx.db, id)).entregado === 3,
      '3 entregados',
    );
    const rs = await filas(api.ctx.db, id);
    expect(rs.reduce((s, r) => s + r.intentos, 0)).toBe(4);
    expect((await banderas(api.ctx.db, id)).en_pausa).toBe(0);
  });

  it('phone_number_id que Meta no conoce (100, subcódigo 33): pausa al primer envío, filas pendientes', async () => {
    const id_malo = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: wa.url,
      credenciales: { token: 'tok', phone_number_id: '777', app_secret: 'secreto-app' },
    });
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: id_malo,
      n: 3,
      tipo: 3,
      base: 400,
      puertos: 1,
    });
    api.ctx.eventos.emit('ejercicio', id);
    await esperarQue(async () => (await banderas(api.ctx.db, id)).en_pausa === 1, 'pausado');
    const f = await banderas(api.ctx.db, id);
    expect(f.motivo_pausa).toContain('phone_number_id 777');
    expect(f.motivo_pausa).toContain('100: Unsupported post request');
    const rs = await esperarQue(async () => {
      const x = await filas(api.ctx.db, id);
      return x.every((r) => r.estatus === 'pendiente') ? x : undefined;
    }, 'filas pendientes');
    expect(rs.reduce((s, r) => s + r.intentos, 0)).toBe(1);
  });

  it('límite de ritmo real (130429, HTTP 400 por encima de 15/s): se reintenta con espera y todos llegan', async () => {
    wa.o.maxPorSegundo = 15;
    try {
      const antes = wa.registro.length;
      const limitados = wa.limitados;
      // Four sends in flight: a burst beyond the second's budget fails at most four in a row
      // before the circuit breaker probes one at a time (rate limits count toward the pause).
      const id = await crearEjercicio(api.ctx.db, {
        id_equipo,
        n: 40,
        tipo: 3,
        base: 500,
        puertos: 4,
      });
      api.ctx.eventos.emit('ejercicio', id);
      await esperarCompletado(api.ctx.db, id);
      await esperarQue(
        async () => (await porEstatus(api.ctx.db, id)).entregado === 40,
        '40 entregados',
      );
      expect(wa.limitados).toBeGreaterThan(limitados);
      expect(wa.registro.length - antes).toBe(40);
      const rs = await filas(api.ctx.db, id);
      expect(rs.some((r) => r.intentos > 1)).toBe(true);
      expect((await banderas(api.ctx.db, id)).en_pausa).toBe(0);
    } finally {
      wa.o.maxPorSegundo = undefined;
    }
  });

  it('webhooks mixtos (varias entradas y cambios, mensajes de usuarios, plantillas, cuenta, otro número): 200, y solo los estados de este equipo se aplican', async () => {
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: id_mixto,
      n: 20,
      tipo: 3,
      base: 600,
      iniciar: false,
    });
    const rs0 = await filas(api.ctx.db, id);
    const sin = [rs0[4]!.telefono, rs0[11]!.telefono];
    for (const t of sin) mixto.sinWhatsapp.add(`52${t}`);
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ en_proceso: 1, iniciado: Date.now() })
      .where('id_ejercicio', '=', id)
      .execute();
    api.ctx.eventos.emit('ejercicio', id);
    await esperarCompletado(api.ctx.db, id);
    const rs = await esperarQue(async () => {
      const x = await filas(api.ctx.db, id);
      return x.every((r) => r.recibida === 1) ? x : undefined;
    }, 'todos los estados aplicados');
    for (const r of rs) {
      if (sin.includes(r.telefono)) {
        expect(r.estatus).toBe('fallido');
        expect(r.motivo).toContain(msg('whatsappNoEntregable'));
        expect(r.motivo).toContain('131026: Message undeliverable');
      } else expect(r.estatus).toBe('entregado');
    }
    expect(mixto.webhooksEntregados).toBeGreaterThan(0);
    expect(mixto.webhooksRechazados).toBe(0);
  });

  it('entregas sueltas: plantilla, cuenta o número desconocido → 200 sin tocar filas; firma mala → 401', async () => {
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: id_mixto,
      n: 1,
      tipo: 3,
      base: 700,
      iniciar: false,
    });
    const [fila] = await filas(api.ctx.db, id);
    await api.ctx.db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'enviado', id_gateway: 'wamid.suelto' })
      .where('id_detalle', '=', fila!.id_detalle)
      .execute();
    const estado = (telefonoId: string) => ({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'waba',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '1555', phone_number_id: telefonoId },
                statuses: [
                  {
                    id: 'wamid.suelto',
                    status: 'failed',
                    timestamp: '1',
                    recipient_id: '1',
                    errors: [{ code: 131049, title: 'Healthy ecosystem engagement' }],
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const plantilla = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'waba',
          time: 1,
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: 'REJECTED',
                message_template_id: 1,
                message_template_name: 'x',
                message_template_language: 'es_MX',
                reason: 'INVALID_FORMAT',
              },
            },
          ],
        },
      ],
    };
    const cuenta = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'waba',
          changes: [{ field: 'account_update', value: { event: 'ACCOUNT_RESTRICTION' } }],
        },
      ],
    };
    expect(await mixto.entregarWebhook(plantilla)).toBe(200);
    expect(await mixto.entregarWebhook(cuenta)).toBe(200);
    expect(await mixto.entregarWebhook('{no es json')).toBe(200);
    expect(await mixto.entregarWebhook(estado('1000000099'))).toBe(200);
    // The other app's secret does not make this device's statuses authentic.
    expect(await wa.entregarWebhook(estado('1000000002'))).toBe(200);
    expect(await mixto.entregarWebhook(estado('1000000002'), 'sha256=00')).toBe(401);
    await new Promise((r) => setTimeout(r, 100));
    expect((await filas(api.ctx.db, id))[0]).toMatchObject({ estatus: 'enviado', recibida: 0 });
    expect(await mixto.entregarWebhook(estado('1000000002'))).toBe(200);
    const f = await esperarQue(async () => {
      const x = (await filas(api.ctx.db, id))[0]!;
      return x.recibida === 1 ? x : undefined;
    }, 'estado aplicado');
    expect(f.estatus).toBe('fallido');
    expect(f.motivo).toBe(
      `${msg('whatsappEntregaFallida')} (131049: Healthy ecosystem engagement)`,
    );
  });
});
