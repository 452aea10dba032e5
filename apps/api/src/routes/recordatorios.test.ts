import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import {
  ESTADO_CDMX,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
} from '../../testing/ejercicios.ts';
import { arrancarDespachador } from '../dispatcher/index.ts';
import { CONFIG_PRUEBA, esperarCompletado, esperarQue } from '@pregon/despacho/testing/comun';
import {
  CONFIG_PROGRAMADOR_DEFECTO,
  arrancarProgramador,
  type Programador,
} from '../programador.ts';

// Issue 46.2, reminders: an SMS poll re-asks, through the real dispatcher and SMPP simulator,
// exactly the reached people with no current answer, N minutes (the scheduler's clock, moved
// forward) after the previous link finished, at most M times; an answer to a reminder counts in
// the ORIGINAL poll; a stopped exercise gets none. Body validation names its fields.

const TELS = ['5541000001', '5541000002', '5541000003'];
const TELS_ALTO = ['5541000011', '5541000012'];
const TEXTO = 'Simulacro: ¿cómo está?\nResponda 1 si está a salvo, 2 si necesita ayuda';
const MIN = 60_000;

const encuesta = {
  opciones: [
    { digito: 1, texto: 'Estoy a salvo' },
    { digito: 2, texto: 'Necesito ayuda', atencion: '1' },
  ],
  anexar_opciones: '1',
};

describe.each(MOTORES)('recordatorios de una encuesta (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  let programador: Programador | undefined;
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 5 });
  let id_equipo: number;
  /** The scheduler's clock: real time until a test sets it, then stopped there. */
  let fijo: number | null = null;

  const enviadosA = (tels: readonly string[], desde: number) =>
    smsc.registro
      .slice(desde)
      .filter((m) => tels.some((t) => m.telefono.endsWith(t)))
      .map((m) => tels.find((t) => m.telefono.endsWith(t)))
      .sort();
  const recordatorios = (id: number) =>
    api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['id_ejercicio', 'titulo', 'origen_id', 'recordatorio_n', 'destinatarios'])
      .where('recordatorio_de', '=', id)
      .orderBy('recordatorio_n')
      .execute();
  const terminado = async (id: number) =>
    Number(
      (
        await api.ctx.db.kysely
          .selectFrom('ejercicios')
          .select('terminado')
          .where('id_ejercicio', '=', id)
          .executeTakeFirstOrThrow()
      ).terminado,
    );
  /** Sets the scheduler's clock to `ms` after link `id` ended. */
  const relojTras = async (id: number, ms: number) => {
    fijo = (await terminado(id)) + ms;
    programador!.despertar();
    // Two turns of the scheduler's loop.
    await new Promise((r) => setTimeout(r, 600));
  };

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    await smsc.iniciar();
    id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMSC recordatorios',
      puertos: 1,
    });
    for (const t of TELS) await insertarTelefono(api, t, ESTADO_CDMX, [1]);
    for (const t of TELS_ALTO) await insertarTelefono(api, t, ESTADO_CDMX, [2]);
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
    });
    programador = arrancarProgramador(api.ctx, {
      config: { ...CONFIG_PROGRAMADOR_DEFECTO, sondeoMs: 200 },
      comprobacion: async () => ({ equipoMs: 0 }),
      reloj: () => fijo ?? Date.now(),
    });
  });
  afterAll(async () => {
    await programador?.detener();
    await despachador?.detener();
    await smsc.detener();
    await api?.cerrar();
  });

  it('refuses reminders without a poll or half set, naming the field', async () => {
    const sinEncuesta = await pedir(api.url, 'POST', '/ejercicio/', {
      token: admin,
      body: cuerpoEjercicio(id_equipo, { recordatorio_minutos: 10, recordatorios_max: 2 }),
    });
    expect(sinEncuesta.status).toBe(400);
    expect(sinEncuesta.body.campo).toBe('recordatorios_max');
    expect(sinEncuesta.body.mensaje).toBe(
      'El campo recordatorios_max programa recordatorios, que necesitan una encuesta en un ejercicio SMS o WhatsApp',
    );
    const aMedias = await pedir(api.url, 'POST', '/ejercicio/', {
      token: admin,
      body: cuerpoEjercicio(id_equipo, { encuesta, recordatorios_max: 2 }),
    });
    expect(aMedias.status).toBe(400);
    expect(aMedias.body.campo).toBe('recordatorio_minutos');
    const fuera = await pedir(api.url, 'POST', '/ejercicio/', {
      token: admin,
      body: cuerpoEjercicio(id_equipo, {
        encuesta,
        recordatorio_minutos: 1440,
        recordatorios_max: 4,
      }),
    });
    expect(fuera.status).toBe(400);
    expect(fuera.body.mensaje).toBe(
      'El campo recordatorio_minutos no cabe en la ventana de la encuesta (72 h): 1440 min × 4 recordatorios',
    );
  });

  it('re-asks only the unanswered, after N minutes, at most M times; answers count in the poll', async () => {
    const id = await crearYGenerar(
      api,
      admin,
      cuerpoEjercicio(id_equipo, {
        titulo: 'Encuesta con recordatorios',
        accion: 'Simulacro: ¿cómo está?',
        categorias: '1',
        encuesta,
        recordatorio_minutos: '10',
        recordatorios_max: '2',
      }),
    );
    const lista = await pedir(api.url, 'GET', '/ejercicios/', { token: admin });
    expect(lista.body.data.find((e: any) => e.id_ejercicio === id)).toMatchObject({
      recordatorio_minutos: 10,
      recordatorios_max: 2,
    });
    const antes = smsc.registro.length;
    expect(
      (
        await pedir(api.url, 'POST', '/ejercicio/sms/', {
          token: admin,
          body: { id_ejercicio: id },
        })
      ).status,
    ).toBe(200);
    await esperarCompletado(api.ctx.db, id);
    await esperarQue(async () => enviadosA(TELS, antes).length === 3, 'los tres envíos');
    // The first phone answers at once.
    await smsc.enviarMo({ de: `52${TELS[0]}`, texto: '1' });
    await esperarQue(async () => {
      const r = await pedir(api.url, 'GET', `/ejercicio/${id}/respuestas/`, { token: admin });
      return r.body.respondieron === 1;
    }, 'la primera respuesta contada');

    // Nine minutes later: nothing yet.
    await relojTras(id, 9 * MIN);
    expect(await recordatorios(id)).toEqual([]);

    // Ten minutes after the end: 'Recordatorio 1' to the two who did not answer.
    const desde1 = smsc.registro.length;
    await relojTras(id, 10 * MIN);
    const [r1] = await esperarQue(async () => {
      const r = await recordatorios(id);
      return r.length === 1 ? r : null;
    }, 'recordatorio 1');
    expect(r1).toMatchObject({
      titulo: 'Recordatorio 1: Encuesta con recordatorios',
      origen_id: id,
      recordatorio_n: 1,
      destinatarios: 2,
    });
    await esperarCompletado(api.ctx.db, r1!.id_ejercicio);
    await esperarQue(async () => enviadosA(TELS, desde1).length === 2, 'el recordatorio 1');
    expect(enviadosA(TELS, desde1)).toEqual([TELS[1], TELS[2]]);
    expect(smsc.registro.slice(desde1).every((m) => m.texto === TEXTO)).toBe(true);

    // The second answers the reminder: it counts in the original poll, and opens its case.
    await smsc.enviarMo({ de: `52${TELS[1]}`, texto: '2' });
    const resp = await esperarQue(async () => {
      const r = await pedir(api.url, 'GET', `/ejercicio/${id}/respuestas/`, { token: admin });
      return r.body.respondieron === 2 ? r.body : null;
    }, 'la respuesta al recordatorio, en la encuesta original');
    expect(resp.opciones.map((o: any) => [o.digito, o.total])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(resp.sin_respuesta).toBe(1);
    const casos = await pedir(api.url, 'GET', `/ejercicio/${id}/casos/`, { token: admin });
    expect(casos.body.data.map((c: any) => c.telefono)).toEqual([TELS[1]]);

    // Ten minutes after reminder 1 ended: 'Recordatorio 2', to the one still silent.
    const desde2 = smsc.registro.length;
    await relojTras(r1!.id_ejercicio, 10 * MIN);
    const r2 = await esperarQue(async () => {
      const r = await recordatorios(id);
      return r.length === 2 ? r[1] : null;
    }, 'recordatorio 2');
    expect(r2).toMatchObject({ origen_id: r1!.id_ejercicio, recordatorio_n: 2, destinatarios: 1 });
    await esperarCompletado(api.ctx.db, r2.id_ejercicio);
    await esperarQue(async () => enviadosA(TELS, desde2).length === 1, 'el recordatorio 2');
    expect(enviadosA(TELS, desde2)).toEqual([TELS[2]]);

    // At most two: an hour later, nothing more.
    await relojTras(r2.id_ejercicio, 60 * MIN);
    expect((await recordatorios(id)).length).toBe(2);
    expect(enviadosA(TELS, desde2)).toEqual([TELS[2]]);
  });

  it('makes no reminder of a stopped exercise', async () => {
    const id = await crearYGenerar(
      api,
      admin,
      cuerpoEjercicio(id_equipo, {
        titulo: 'Encuesta detenida',
        accion: 'Simulacro: ¿cómo está?',
        categorias: '2',
        encuesta,
        recordatorio_minutos: 5,
        recordatorios_max: 3,
      }),
    );
    // Its messages delivered and nobody answered, paused (as if by its operator), then stopped.
    await api.ctx.db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'entregado', fecha_envio: '2026-01-01', hora_envio: '00:00:00' })
      .where('id_ejercicio', '=', id)
      .execute();
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ en_proceso: 1, en_pausa: 1, iniciado: Date.now() })
      .where('id_ejercicio', '=', id)
      .execute();
    fijo = Date.now() + 30 * MIN;
    programador!.despertar();
    await new Promise((r) => setTimeout(r, 600));
    expect(await recordatorios(id)).toEqual([]);
    const alto = await pedir(api.url, 'POST', '/quiz/stop/', {
      token: admin,
      body: { id_ejercicio: id },
    });
    expect(alto.status).toBe(200);
    await relojTras(id, 30 * MIN);
    expect(await recordatorios(id)).toEqual([]);
    const e = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['recordatorios_hechos', 'detenido'])
      .where('id_ejercicio', '=', id)
      .executeTakeFirstOrThrow();
    expect(e).toEqual({ recordatorios_hechos: 0, detenido: 1 });
  });
});
