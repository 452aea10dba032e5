import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import {
  ESTADO_CDMX,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
} from '../../testing/ejercicios.ts';
import { arrancarDespachador } from '../dispatcher/index.ts';
import { CONFIG_PRUEBA, esperarCompletado, esperarQue } from '@pregon/despacho/testing/comun';

// Issue 46.2 and 46.3 end to end: an SMS poll started through the api goes out through the real
// dispatcher to the SMPP simulator with its instruction appended; the handsets' replies come back
// as MO deliver_sm, are stored by the intake, matched to the poll at once, counted, and the one
// asking for help is a case an operator takes.

const TELS = ['5540000001', '5540000002'];

describe.each(MOTORES)('encuesta por SMPP, de punta a punta (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let operador: string;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 5 });
  let id_equipo: number;
  let id: number;

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    operador = (await tokenConRol(api, 'operadores', 'operadora')).token;
    await smsc.iniciar();
    id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMSC encuestas',
      puertos: 1,
    });
    for (const t of TELS) await insertarTelefono(api, t, ESTADO_CDMX, [1]);
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
    });
  });
  afterAll(async () => {
    await despachador?.detener();
    await smsc.detener();
    await api?.cerrar();
  });

  it('sends the poll, reads the replies and queues whoever needs help', async () => {
    id = await crearYGenerar(
      api,
      admin,
      cuerpoEjercicio(id_equipo, {
        titulo: 'Encuesta SMPP',
        accion: 'Simulacro: ¿cómo está?',
        categorias: '1',
        encuesta: {
          opciones: [
            { digito: 1, texto: 'Estoy a salvo' },
            { digito: 2, texto: 'Necesito ayuda', atencion: '1' },
          ],
          anexar_opciones: '1',
        },
      }),
    );
    const inicio = await pedir(api.url, 'POST', '/ejercicio/sms/', {
      token: operador,
      body: { id_ejercicio: id },
    });
    expect(inicio.status).toBe(200);
    await esperarCompletado(api.ctx.db, id);
    const enviados = smsc.registro.filter((m) => TELS.some((t) => m.telefono.endsWith(t)));
    expect(enviados.map((m) => m.texto)).toEqual([
      'Simulacro: ¿cómo está?\nResponda 1 si está a salvo, 2 si necesita ayuda',
      'Simulacro: ¿cómo está?\nResponda 1 si está a salvo, 2 si necesita ayuda',
    ]);

    await smsc.enviarMo({ de: `52${TELS[0]}`, texto: '1 👍' });
    await smsc.enviarMo({ de: `52${TELS[1]}`, texto: 'necesito ayuda!!' });
    const casos = await esperarQue(async () => {
      const r = await pedir(api.url, 'GET', `/ejercicio/${id}/casos/`, { token: operador });
      return r.body.data?.length === 1 ? r.body.data : null;
    }, 'el caso de quien pidió ayuda');
    expect(casos[0]).toMatchObject({ telefono: TELS[1], opcion: 'Necesito ayuda' });
    const r = await pedir(api.url, 'GET', `/ejercicio/${id}/respuestas/`, { token: operador });
    expect(r.body.opciones.map((o: any) => [o.digito, o.total, o.porcentaje])).toEqual([
      [1, 1, 50],
      [2, 1, 50],
    ]);
    expect(r.body.sin_respuesta).toBe(0);
    const tomar = await pedir(api.url, 'POST', `/casos/${casos[0].id_caso}/tomar/`, {
      token: operador,
      body: {},
    });
    expect(tomar.body.mensaje).toBe('Atendiendo: operadora');
  });

  // Issue 46.5: a reply sent while no dispatcher runs waits at the SMSC until a session binds. A
  // dispatcher that starts after every receipt of the poll came has no receipt to wait for, and
  // still binds for the poll's replies.
  it('a dispatcher started after every receipt came binds again for the poll and takes the held reply', async () => {
    await esperarQue(async () => {
      const f = await api.ctx.db.kysely
        .selectFrom('ejercicio_detalle')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .where('id_ejercicio', '=', id)
        .where('estatus', '=', 'enviado')
        .executeTakeFirstOrThrow();
      return Number(f.n) === 0 || null;
    }, 'todos los acuses de la encuesta');
    await despachador.detener();
    const entregada = smsc.enviarMo({ de: `52${TELS[0]}`, texto: 'ahora necesito ayuda' });
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
    });
    await entregada;
    const r = await esperarQue(async () => {
      const x = await pedir(api.url, 'GET', `/ejercicio/${id}/respuestas/`, { token: operador });
      return x.body.opciones?.[1]?.total === 2 ? x.body : null;
    }, 'la respuesta que retuvo el SMSC');
    expect(r.opciones.map((o: any) => [o.digito, o.total])).toEqual([
      [1, 0],
      [2, 2],
    ]);
  });
});
