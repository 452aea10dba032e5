import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearCuestionario } from '../../testing/fabrica.ts';
import {
  ESTADO_CDMX,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
  sembrarEquipos,
} from '../../testing/ejercicios.ts';
import { storePara } from '../dispatcher/index.ts';
import { fechaHoraDe as fechaHora } from '@pregon/contract/rules/zona-horaria';
import { leerTodo } from '../services/leer-respuestas.ts';

// Issue 25.4, each phone's history: what it received and answered across every exercise, newest
// exercise first, paged on the server.

describe.each(MOTORES)('historial de un teléfono (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let tel: number;
  const ids: number[] = [];

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    const eq = await sembrarEquipos(api);
    tel = await insertarTelefono(api, '5512340000', ESTADO_CDMX, [1], 'Rosa Historial');
    await insertarTelefono(api, '5512340001', ESTADO_CDMX, [1], 'Otra Persona');
    const k = api.ctx.db.kysely;
    const detalle = async (id: number) =>
      (
        await k
          .selectFrom('ejercicio_detalle')
          .select('id_detalle')
          .where('id_ejercicio', '=', id)
          .where('telefono', '=', '5512340000')
          .executeTakeFirstOrThrow()
      ).id_detalle;
    // 1: SMS delivered; 2: call, busy; 3: quiz answered in part.
    ids.push(
      await crearYGenerar(
        api,
        token,
        cuerpoEjercicio(eq.sms, { titulo: 'Aviso SMS', categorias: '1' }),
      ),
    );
    await k
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'entregado', fecha_envio: '2026-11-01', hora_envio: '10:00:00', intentos: 1 })
      .where('id_detalle', '=', await detalle(ids[0]!))
      .execute();
    ids.push(
      await crearYGenerar(
        api,
        token,
        cuerpoEjercicio(eq.llamadas, {
          titulo: 'Llamada',
          tipo_ejercicio: '2',
          tiempo: 1,
          accion: 'aviso',
          categorias: '1',
        }),
      ),
    );
    await k
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'ocupado', fecha_envio: '2026-11-02', hora_envio: '11:00:00', intentos: 3 })
      .where('id_detalle', '=', await detalle(ids[1]!))
      .execute();
    ids.push(
      await crearYGenerar(
        api,
        token,
        cuerpoEjercicio(eq.quiz, {
          titulo: 'Encuesta',
          tipo_ejercicio: '4',
          accion: '3',
          categorias: '1',
        }),
      ),
    );
    await crearCuestionario(api.ctx.db, ids[2]!, [
      { archivo: 'q1', respuestas: ['Sí', 'No'] },
      { archivo: 'q2', respuestas: ['A salvo', 'Necesito ayuda'] },
    ]);
    const d3 = await detalle(ids[2]!);
    await k
      .updateTable('ejercicio_detalle')
      .set({
        estatus: 'contestado',
        alcance: 'respondio_parcial',
        respondidas: 1,
        fecha_envio: '2026-11-03',
        hora_envio: '12:00:00',
        intentos: 1,
      })
      .where('id_detalle', '=', d3)
      .execute();
    await k
      .insertInto('quiz_respuestas')
      .values({ id_ejercicio: ids[2]!, id_detalle: d3, numero: 1, digito: 1, fecha: Date.now() })
      .execute();
  });
  afterAll(async () => api?.cerrar());

  it('newest exercise first, with channel, outcome and answers', async () => {
    const r = await pedir(api.url, 'GET', `/telefono/${tel}/historial/`, { token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ telefono: '5512340000', nombre: 'Rosa Historial', total: 3 });
    expect(r.body.data).toEqual([
      {
        id_ejercicio: ids[2],
        ejercicio: 'Encuesta',
        tipo_ejercicio: 'CUESTIONARIO',
        fecha_envio: '2026-11-03',
        hora_envio: '12:00:00',
        estatus: 'contestado',
        resultado: 'Respondió 1 de 2',
        intentos: 1,
        respuestas: '1: Sí',
        enviado_en: expect.any(Number),
      },
      expect.objectContaining({
        id_ejercicio: ids[1],
        tipo_ejercicio: 'LLAMADA',
        resultado: 'Ocupado',
        intentos: 3,
        respuestas: '',
      }),
      expect.objectContaining({
        id_ejercicio: ids[0],
        tipo_ejercicio: 'SMS',
        resultado: 'Entregado',
      }),
    ]);
  });

  it('paged: size and page, the total stays', async () => {
    const p2 = await pedir(api.url, 'GET', `/telefono/${tel}/historial/?page=2&size=2`, { token });
    expect(p2.body.total).toBe(3);
    expect(p2.body.data.map((f: { id_ejercicio: number }) => f.id_ejercicio)).toEqual([ids[0]]);
  });

  it('an unknown phone: 404; a size past the limit: 400 naming it', async () => {
    const r = await pedir(api.url, 'GET', '/telefono/999999/historial/', { token });
    expect(r.status).toBe(404);
    const t = await pedir(api.url, 'GET', `/telefono/${tel}/historial/?size=1000`, { token });
    expect(t.status).toBe(400);
    expect(t.body.message).toContain('size');
  });
});

// Issue 46 (replies beside sends): the history carries the phone's replies of the page's span of
// time, each worded by its classification and the exercise it matched, and its opt-out state.
describe.each(MOTORES)('historial con respuestas y bajas (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let tel: number;
  let viejo: number;
  let nuevo: number;
  const NUM = '5512347777';
  const t0 = Date.now();
  const H = 3_600_000;
  const historial = async (q = '') => {
    const r = await pedir(api.url, 'GET', `/telefono/${tel}/historial/${q}`, { token });
    expect(r.status).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    const eq = await sembrarEquipos(api);
    tel = await insertarTelefono(api, NUM, ESTADO_CDMX, [1], 'Paz Respuestas');
    const k = api.ctx.db.kysely;
    const enviar = async (id: number, ms: number) => {
      const { fecha, hora } = fechaHora(ms, api.config.tz);
      await k
        .updateTable('ejercicio_detalle')
        .set({ estatus: 'entregado', intentos: 1, fecha_envio: fecha, hora_envio: hora })
        .where('id_ejercicio', '=', id)
        .execute();
      await k
        .updateTable('ejercicios')
        .set({ iniciado: ms - 1000, en_proceso: 1 })
        .where('id_ejercicio', '=', id)
        .execute();
    };
    // Two days ago a plain SMS; an hour ago an SMS poll.
    viejo = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.sms, { titulo: 'Aviso sin encuesta', categorias: '1' }),
    );
    await enviar(viejo, t0 - 48 * H);
    nuevo = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.sms, {
        titulo: 'Simulacro con encuesta',
        accion: 'Simulacro. ¿Cómo está?',
        categorias: '1',
        encuesta: {
          opciones: [
            { digito: 1, texto: 'Estoy a salvo' },
            { digito: 2, texto: 'Necesito ayuda', atencion: true },
          ],
          anexar_opciones: true,
        },
      }),
    );
    await enviar(nuevo, t0 - H);
    const store = storePara(api.ctx.db);
    let gw = 0;
    const responder = (texto: string, ms: number) =>
      store.guardarRespuesta(
        {
          id_equipo: eq.sms,
          canal: 'smpp',
          remitente: `52${NUM}`,
          telefono: NUM,
          texto,
          codificacion: 'gsm7',
          texto_crudo: Buffer.from(texto).toString('hex'),
          id_gateway: `hist-${motor}-${++gw}`,
        },
        ms,
      );
    // A day ago (no poll open: the inbox), then three replies to the poll.
    await responder('<b>hola</b>', t0 - 24 * H);
    await responder('1', t0 - 50 * 60_000);
    await responder('quizás mañana', t0 - 40 * 60_000);
    await responder('BAJA', t0 - 30 * 60_000);
    // The store matches in the background (passes spaced under load): read them all first.
    await leerTodo(api.ctx.db);
    const b = await pedir(api.url, 'POST', '/telefonos/bajas/', {
      token,
      body: { telefono: NUM, canal: 'whatsapp' },
    });
    expect(b.status).toBe(200);
  });
  afterAll(async () => api?.cerrar());

  it('one page: every send with its instant, every reply worded, and the opt-out state', async () => {
    const h = await historial();
    expect(h.total).toBe(2);
    const { fecha, hora } = fechaHora(t0 - H, api.config.tz);
    expect(h.data[0]).toMatchObject({ id_ejercicio: nuevo, fecha_envio: fecha, hora_envio: hora });
    expect(h.data[0].enviado_en).toBe(Math.floor((t0 - H) / 1000) * 1000);
    expect(h.data[1].enviado_en).toBe(Math.floor((t0 - 48 * H) / 1000) * 1000);
    expect(
      h.respuestas_recibidas.map((r: any) => [
        r.texto,
        r.tipo,
        r.etiqueta,
        r.ejercicio,
        r.canal_etiqueta,
      ]),
    ).toEqual([
      ['BAJA', 'baja', 'Baja', 'Simulacro con encuesta', 'SMS'],
      [
        'quizás mañana',
        'no_reconocida',
        'Respuesta no reconocida',
        'Simulacro con encuesta',
        'SMS',
      ],
      ['1', 'opcion', 'Opción 1: Estoy a salvo', 'Simulacro con encuesta', 'SMS'],
      ['<b>hola</b>', 'no_reconocida', 'Respuesta no reconocida', null, 'SMS'],
    ]);
    expect(h.respuestas_recibidas[3].fecha).toBe(t0 - 24 * H);
    expect(h.bajas).toEqual([
      {
        canal: 'sms',
        canal_etiqueta: 'SMS',
        fecha: expect.any(Number),
        origen: 'Respuesta del teléfono',
        texto: 'BAJA',
        usuario: null,
      },
      {
        canal: 'whatsapp',
        canal_etiqueta: 'WhatsApp',
        fecha: expect.any(Number),
        origen: 'Operador',
        texto: null,
        usuario: 'admin',
      },
    ]);
  });

  it('paged: each reply on the page of the sends it came after, once', async () => {
    const p1 = await historial('?page=1&size=1');
    const p2 = await historial('?page=2&size=1');
    expect(p1.data.map((f: any) => f.id_ejercicio)).toEqual([nuevo]);
    expect(p1.respuestas_recibidas.map((r: any) => r.texto)).toEqual([
      'BAJA',
      'quizás mañana',
      '1',
    ]);
    expect(p2.data.map((f: any) => f.id_ejercicio)).toEqual([viejo]);
    expect(p2.respuestas_recibidas.map((r: any) => r.texto)).toEqual(['<b>hola</b>']);
    expect((await historial('?page=3&size=1')).respuestas_recibidas).toEqual([]);
  });

  it("after 'Dar de alta' the phone's state says so", async () => {
    const r = await pedir(api.url, 'DELETE', `/telefonos/bajas/whatsapp/${NUM}/`, { token });
    expect(r.status).toBe(200);
    expect((await historial()).bajas.map((b: any) => b.canal)).toEqual(['sms']);
  });
});
