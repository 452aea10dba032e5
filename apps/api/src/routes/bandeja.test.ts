import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import {
  ESTADO_CDMX,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
  sembrarEquipos,
} from '../../testing/ejercicios.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { storePara } from '../dispatcher/index.ts';
import { fechaHoraDe as fechaHora } from '@pregon/contract/rules/zona-horaria';
import { leerTodo } from '../services/leer-respuestas.ts';

// The replies screen's inbox (issue 46.3): GET /respuestas/bandeja/?incluir_no_reconocidas=1
// lists, newest first, the replies that belong to no poll and the unrecognised replies of a
// poll, with the count of each kind, the polls' options and the devices' aliases; an
// unrecognised reply classified by hand leaves it. Without the flag the inbox is as it was.

describe.each(MOTORES)('bandeja de respuestas con las no reconocidas (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let consulta: string;
  let id: number;
  let sms: number;
  const t0 = Date.now();
  const TEL = '5512348888';
  const bandeja = async (q = '?incluir_no_reconocidas=1', t = token) => {
    const r = await pedir(api.url, 'GET', `/respuestas/bandeja/${q}`, { token: t });
    expect(r.status).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    consulta = (await tokenConRol(api, 'consulta', 'lectora')).token;
    const eq = await sembrarEquipos(api);
    sms = eq.sms;
    await insertarTelefono(api, TEL, ESTADO_CDMX, [1], 'Luz Bandeja');
    id = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.sms, {
        titulo: 'Encuesta de la bandeja',
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
    const { fecha, hora } = fechaHora(t0 - 60_000, api.config.tz);
    const k = api.ctx.db.kysely;
    await k
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'entregado', intentos: 1, fecha_envio: fecha, hora_envio: hora })
      .where('id_ejercicio', '=', id)
      .execute();
    await k
      .updateTable('ejercicios')
      .set({ iniciado: t0 - 120_000, en_proceso: 1 })
      .where('id_ejercicio', '=', id)
      .execute();
    const store = storePara(api.ctx.db);
    let gw = 0;
    const responder = (tel: string, texto: string, ms: number) =>
      store.guardarRespuesta(
        {
          id_equipo: eq.sms,
          canal: 'smpp',
          remitente: `52${tel}`,
          telefono: tel,
          texto,
          codificacion: 'gsm7',
          texto_crudo: Buffer.from(texto).toString('hex'),
          id_gateway: `bandeja-${motor}-${++gw}`,
        },
        t0 + ms,
      );
    await responder('5599990000', 'hola, ¿quién es?', 1000);
    await responder(TEL, 'mañana le aviso', 2000);
    await responder(TEL, '1', 3000);
    // The store matches in the background (passes spaced under load): read them all first.
    await leerTodo(api.ctx.db);
  });
  afterAll(async () => api?.cerrar());

  it('without the flag: only the replies of no poll, as before', async () => {
    const b = await bandeja('');
    expect(b.data.map((r: any) => r.texto)).toEqual(['hola, ¿quién es?']);
    expect(b.total).toBe(1);
    expect(b.encuestas).toBeUndefined();
  });

  it('with it: the unrecognised poll replies too, newest first, with counts, options and aliases', async () => {
    const b = await bandeja();
    expect(
      b.data.map((r: any) => [r.texto, r.telefono, r.nombre, r.id_ejercicio, r.clasificacion]),
    ).toEqual([
      ['mañana le aviso', TEL, 'Luz Bandeja', id, { tipo: 'no_reconocida' }],
      ['hola, ¿quién es?', '5599990000', null, null, { tipo: 'no_reconocida' }],
    ]);
    expect([b.total, b.sin_encuesta, b.no_reconocidas]).toEqual([2, 1, 1]);
    expect(b.encuestas).toEqual([
      {
        id_ejercicio: id,
        ejercicio: 'Encuesta de la bandeja',
        opciones: [
          { digito: 1, texto: 'Estoy a salvo' },
          { digito: 2, texto: 'Necesito ayuda' },
        ],
      },
    ]);
    expect(b.equipos).toEqual([{ id_equipo: sms, alias: 'SMS principal' }]);
    expect((await bandeja('?incluir_no_reconocidas=1', consulta)).total).toBe(2);
  });

  it('a bad flag is a 400 naming it', async () => {
    const r = await pedir(api.url, 'GET', '/respuestas/bandeja/?incluir_no_reconocidas=si', {
      token,
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('incluir_no_reconocidas');
  });

  it('classified by hand, it leaves the list and counts for its option', async () => {
    const fila = (await bandeja()).data[0];
    const c = await pedir(api.url, 'POST', `/respuestas/${fila.id_respuesta}/clasificar/`, {
      token,
      body: { digito: 1 },
    });
    expect(c.status).toBe(200);
    const b = await bandeja();
    expect(b.data.map((r: any) => r.texto)).toEqual(['hola, ¿quién es?']);
    expect([b.total, b.sin_encuesta, b.no_reconocidas]).toEqual([1, 1, 0]);
    const r = await pedir(api.url, 'GET', `/ejercicio/${id}/respuestas/`, { token });
    expect(r.body.opciones[0].total).toBe(1);
  });
});
