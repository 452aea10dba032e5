import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import {
  cuerpoEjercicio,
  crearYGenerar,
  ESTADO_CDMX,
  insertarTelefono,
  sembrarEquipos,
  type Equipos,
} from '../../testing/ejercicios.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { storePara } from '../dispatcher/index.ts';
import { leerTodo } from '../services/leer-respuestas.ts';
import { fechaHoraDe as fechaHora } from '@pregon/contract/rules/zona-horaria';
import type { Store } from '@pregon/despacho/store';
import { procesarRespuesta } from '../services/respuestas.ts';
import { abrirFlujoSse } from '../../testing/flujo-sse.ts';
import { loadConfig, ventanaEncuestaMs } from '../config.ts';

// Issue 46.2 and 46.3 over real HTTP on both engines: a poll on an SMS exercise; replies stored
// by the dispatcher's store (the call the SMPP channel makes for a mobile-originated message)
// are matched to the poll, counted per option (the latest answer is the current one), and the
// people who need help are queued as cases that one operator at a time takes, notes and closes.

const POLL = {
  opciones: [
    { digito: 1, texto: 'Estoy a salvo' },
    { digito: 2, texto: 'Necesito ayuda', atencion: true },
  ],
  anexar_opciones: true,
};

const TELS = ['5512340001', '5512340002', '5512340003', '5512340004'];

describe('ENCUESTA_VENTANA_HORAS', () => {
  it('sets the poll window in whole hours (72 by default) and a bad value stops the start', () => {
    expect(ventanaEncuestaMs({})).toBe(72 * 3_600_000);
    expect(ventanaEncuestaMs({ ENCUESTA_VENTANA_HORAS: '24' })).toBe(24 * 3_600_000);
    for (const v of ['0', '721', '1.5', 'tres'])
      expect(() => loadConfig({ ENCUESTA_VENTANA_HORAS: v })).toThrow(
        `ENCUESTA_VENTANA_HORAS inválido: '${v}'`,
      );
  });
});

describe.each(MOTORES)('encuestas, respuestas y casos (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let eq: Equipos;
  let store: Store;
  let id: number;
  let op1: string;
  let op2: string;
  let consulta: string;
  let gw = 0;
  const t0 = Date.now();

  /** Stores a reply from `tel` as the SMPP channel does, received at t0 + `ms`, and waits for a
   * matching pass that reads it (the dispatcher's store matches in the background since 1dc5608:
   * guardarYLeerLuego). */
  const responder = async (tel: string, texto: string, ms: number) => {
    const res = await store.guardarRespuesta(
      {
        id_equipo: eq.sms,
        canal: 'smpp',
        remitente: tel,
        telefono: tel,
        texto,
        codificacion: 'gsm7',
        texto_crudo: Buffer.from(texto).toString('hex'),
        id_gateway: `mo-${motor}-${++gw}`,
      },
      t0 + ms,
    );
    await leerTodo(api.ctx.db);
    return res;
  };

  const get = (ruta: string, t = token) => pedir(api.url, 'GET', ruta, { token: t });
  const post = (ruta: string, body: unknown = {}, t = token) =>
    pedir(api.url, 'POST', ruta, { token: t, body });

  const respuestas = async () => {
    const r = await get(`/ejercicio/${id}/respuestas/`);
    expect(r.status).toBe(200);
    return r.body;
  };
  const casos = async () => {
    const r = await get(`/ejercicio/${id}/casos/`);
    expect(r.status).toBe(200);
    return r.body.data as any[];
  };

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    eq = await sembrarEquipos(api);
    store = storePara(api.ctx.db);
    for (const [i, t] of TELS.entries())
      await insertarTelefono(api, t, ESTADO_CDMX, [1], `Persona ${i + 1}`);
    op1 = (await tokenConRol(api, 'operadores', 'operador1')).token;
    op2 = (await tokenConRol(api, 'operadores', 'operador2')).token;
    consulta = (await tokenConRol(api, 'consulta', 'lector')).token;
    id = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.sms, {
        titulo: 'Simulacro con encuesta',
        accion: 'Simulacro de sismo. ¿Cómo está?',
        categorias: '1',
        encuesta: POLL,
      }),
    );
    // Sent and delivered a minute before the replies, as the dispatcher writes it.
    const { fecha, hora } = fechaHora(t0 - 60_000, api.config.tz);
    await api.ctx.db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'entregado', intentos: 1, fecha_envio: fecha, hora_envio: hora })
      .where('id_ejercicio', '=', id)
      .execute();
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ iniciado: t0 - 120_000, en_proceso: 1 })
      .where('id_ejercicio', '=', id)
      .execute();
  });
  afterAll(async () => api?.cerrar());

  it('the exercise keeps its poll and sends the question with the instruction', async () => {
    const r = await get('/ejercicios/');
    const fila = r.body.data.find((e: any) => e.id_ejercicio === id);
    // The drill marker comes first (issue 47.1: the api adds it to a drill text that lacks it).
    expect(fila.accion).toBe(
      'SIMULACRO: Simulacro de sismo. ¿Cómo está?\nResponda 1 si está a salvo, 2 si necesita ayuda',
    );
    expect(fila.encuesta).toMatchObject({
      pregunta: 'Simulacro de sismo. ¿Cómo está?',
      anexar_opciones: true,
      opciones: [
        { digito: 1, texto: 'Estoy a salvo', atencion: false },
        { digito: 2, texto: 'Necesito ayuda', atencion: true },
      ],
    });
    expect(fila.destinatarios).toBe(TELS.length);
  });

  it('a poll is refused for calls, and the SPEC client sending none (or "") is accepted', async () => {
    const llamada = await post(
      '/ejercicio/',
      cuerpoEjercicio(eq.llamadas, {
        tipo_ejercicio: '2',
        tiempo: 5,
        accion: 'audio.wav',
        encuesta: POLL,
      }),
    );
    expect(llamada.status).toBe(400);
    expect(llamada.body.message).toContain('solo aplica a ejercicios SMS y WHATSAPP');
    expect(llamada.body.message).toMatch(/encuesta/i);
    const vacia = await post('/ejercicio/', cuerpoEjercicio(eq.sms, { encuesta: '' }));
    expect(vacia.status).toBe(200);
    const mala = await post(
      '/ejercicio/',
      cuerpoEjercicio(eq.sms, { encuesta: { opciones: [{ digito: 1, texto: 'Sí' }] } }),
    );
    expect(mala.status).toBe(400);
    expect(mala.body.message).toContain('de 2 a 9 opciones');
  });

  it('editing sets, keeps (never appending twice) and removes a poll; WhatsApp polls append nothing', async () => {
    const cuerpo = cuerpoEjercicio(eq.sms, { titulo: 'Editable', accion: '¿Está bien?' });
    const otro = (await post('/ejercicio/', cuerpo)).body.id_ejercicio as number;
    const fila = async () =>
      (await get('/ejercicios/')).body.data.find((e: any) => e.id_ejercicio === otro);
    expect((await fila()).encuesta).toBeNull();
    const put = (body: unknown) => pedir(api.url, 'PUT', `/ejercicio/${otro}/`, { token, body });
    expect((await put({ ...cuerpo, encuesta: JSON.stringify(POLL) })).status).toBe(200);
    const conInstruccion =
      'SIMULACRO: ¿Está bien?\nResponda 1 si está a salvo, 2 si necesita ayuda';
    expect((await fila()).accion).toBe(conInstruccion);
    // A client that sends back the text it read gets it once.
    expect((await put({ ...cuerpo, accion: conInstruccion, encuesta: POLL })).status).toBe(200);
    expect((await fila()).accion).toBe(conInstruccion);
    expect((await fila()).encuesta.pregunta).toBe('¿Está bien?');
    expect((await put({ ...cuerpo, encuesta: '' })).status).toBe(200);
    expect(await fila()).toMatchObject({ accion: 'SIMULACRO: ¿Está bien?', encuesta: null });
    const wa = await post(
      '/ejercicio/',
      cuerpoEjercicio(eq.whatsapp, { tipo_ejercicio: '3', encuesta: POLL }),
    );
    expect(wa.status).toBe(400);
    expect(wa.body.message).toContain('anexar_opciones solo aplica a ejercicios SMS');
    const waSin = await post(
      '/ejercicio/',
      cuerpoEjercicio(eq.whatsapp, {
        tipo_ejercicio: '3',
        accion: '{"plantilla":"encuesta","idioma":"es_MX","parametros":[]}',
        encuesta: { ...POLL, anexar_opciones: false },
      }),
    );
    expect(waSin.status).toBe(200);
  });

  it("'1' counts for option 1 and opens no case", async () => {
    expect(await responder(TELS[0]!, '1', 1000)).toBe('nueva');
    const r = await respuestas();
    expect(r.alcanzados).toBe(4);
    expect(r.opciones.map((o: any) => [o.digito, o.total])).toEqual([
      [1, 1],
      [2, 0],
    ]);
    expect(r.opciones[0].porcentaje).toBe(25);
    expect(r.sin_respuesta).toBe(3);
    expect(await casos()).toEqual([]);
  });

  it("'2 necesito ayuda' opens a case with the person's name, phone, state and text", async () => {
    await responder(TELS[1]!, '2 necesito ayuda', 2000);
    const c = await casos();
    expect(c).toHaveLength(1);
    expect(c[0]).toMatchObject({
      nombre: 'Persona 2',
      telefono: TELS[1],
      digito: 2,
      opcion: 'Necesito ayuda',
      texto: '2 necesito ayuda',
      fecha: t0 + 2000,
      estado_caso: 'abierto',
      etiqueta: 'Abierto',
    });
    expect(c[0].estado).toBeTruthy();
    expect(c[0].categorias).not.toBe('');
  });

  it("'1' then '2': the current answer is 2 and a case opens; a repeated '2' opens no other", async () => {
    await responder(TELS[2]!, '1', 3000);
    expect((await casos()).filter((c) => c.telefono === TELS[2])).toHaveLength(0);
    await responder(TELS[2]!, 'opción 2', 4000);
    const r = await respuestas();
    expect(r.opciones.map((o: any) => [o.digito, o.total])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(r.respondieron).toBe(3);
    await responder(TELS[2]!, '2', 5000);
    const c = await casos();
    expect(c.filter((x) => x.telefono === TELS[2])).toHaveLength(1);
    // Newest first.
    expect(c.map((x) => x.telefono)).toEqual([TELS[2], TELS[1]]);
    // Every answer is kept with its time.
    const todas = await api.ctx.db.kysely
      .selectFrom('respuestas_recibidas')
      .select(['texto', 'clasificacion', 'fecha_recibida'])
      .where('telefono', '=', TELS[2]!)
      .orderBy('id_respuesta')
      .execute();
    expect(todas.map((f) => [f.texto, f.clasificacion, Number(f.fecha_recibida)])).toEqual([
      ['1', 'opcion:1:digito', t0 + 3000],
      ['opción 2', 'opcion:2:digito', t0 + 4000],
      ['2', 'opcion:2:digito', t0 + 5000],
    ]);
  });

  it('matching a reply twice changes nothing', async () => {
    const f = await api.ctx.db.kysely
      .selectFrom('respuestas_recibidas')
      .select('id_respuesta')
      .where('telefono', '=', TELS[1]!)
      .executeTakeFirstOrThrow();
    const antes = await casos();
    expect(await procesarRespuesta(api.ctx.db, Number(f.id_respuesta))).toBeNull();
    expect(await casos()).toEqual(antes);
  });

  it('two operators take one case at once: one gets it, the other 409 naming who attends it', async () => {
    const caso = (await casos()).find((c) => c.telefono === TELS[1])!;
    const [a, b] = await Promise.all([
      post(`/casos/${caso.id_caso}/tomar/`, {}, op1),
      post(`/casos/${caso.id_caso}/tomar/`, {}, op2),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const [gano, perdio] = a.status === 200 ? [a, b] : [b, a];
    const quien = gano === a ? 'operador1' : 'operador2';
    expect(gano.body.mensaje).toBe(`Atendiendo: ${quien}`);
    expect(perdio.body.message).toBe(`Atendiendo: ${quien}`);
    const token = gano === a ? op1 : op2;
    const otro = gano === a ? op2 : op1;
    // Only whoever attends it writes its note.
    expect((await post(`/casos/${caso.id_caso}/nota/`, { nota: 'Llamé' }, otro)).status).toBe(409);
    const nota = await post(
      `/casos/${caso.id_caso}/nota/`,
      { nota: 'Llamé, va Protección Civil' },
      token,
    );
    expect(nota.status).toBe(200);
    expect(nota.body.caso.nota).toBe('Llamé, va Protección Civil');
    expect((await post(`/casos/${caso.id_caso}/cerrar/`, {}, otro)).status).toBe(409);
    const cerrado = await post(`/casos/${caso.id_caso}/cerrar/`, {}, token);
    expect(cerrado.status).toBe(200);
    expect(cerrado.body.mensaje).toBe('Atendido');
    expect(cerrado.body.caso).toMatchObject({ estado_caso: 'atendido', etiqueta: 'Atendido' });
    const otraVez = await post(`/casos/${caso.id_caso}/tomar/`, {}, otro);
    expect(otraVez.status).toBe(409);
    // Attended cases go after the pending ones.
    expect((await casos()).map((c) => c.estado_caso)).toEqual(['abierto', 'atendido']);
    // Each step audited.
    const audit = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select(['usuario', 'detalle'])
      .where('entidad', '=', 'caso')
      .where('id_entidad', '=', String(caso.id_caso))
      .where('accion', '=', 'modificar')
      .orderBy('id_auditoria')
      .execute();
    expect(audit.map((x) => [x.usuario, JSON.parse(x.detalle!).accion])).toEqual([
      [quien, 'tomar'],
      [quien, 'nota'],
      [quien, 'cerrar'],
    ]);
  });

  it("an unrecognised 'quien es?' is listed, and classified by hand it counts and opens a case", async () => {
    await responder(TELS[3]!, 'quien es?', 6000);
    let r = await respuestas();
    expect(r.no_reconocidas.map((x: any) => [x.telefono, x.texto, x.nombre])).toEqual([
      [TELS[3], 'quien es?', 'Persona 4'],
    ]);
    const idr = r.no_reconocidas[0].id_respuesta;
    const malo = await post(`/respuestas/${idr}/clasificar/`, { digito: 7 });
    expect(malo.status).toBe(400);
    expect(malo.body.message).toContain('digito');
    // Issue 47.4: a subscriber to 'caso.abierto' is told who asked for help and what they wrote.
    const k = api.ctx.db.kysely;
    const { id_webhook } = await k
      .insertInto('webhooks')
      .values({
        url: 'http://127.0.0.1:9/casos',
        eventos: 'caso.abierto',
        secreto: 'whsec_prueba',
        creado: Date.now(),
        creado_por: 'admin',
      })
      .returning('id_webhook')
      .executeTakeFirstOrThrow();
    const c = await post(`/respuestas/${idr}/clasificar/`, { digito: 2 }, op1);
    await k
      .updateTable('webhooks')
      .set({ activo: 0 })
      .where('id_webhook', '=', id_webhook)
      .execute();
    expect(c.status).toBe(200);
    expect(c.body.caso_abierto).toBe(true);
    const [evento] = await k
      .selectFrom('webhook_entregas')
      .select('cuerpo')
      .where('id_webhook', '=', id_webhook)
      .execute();
    expect(JSON.parse(evento!.cuerpo).datos).toMatchObject({
      id_respuesta: idr,
      digito: 2,
      telefono: TELS[3],
      nombre: 'Persona 4',
      texto: 'quien es?',
      canal: 'smpp',
    });
    expect(c.body.respuesta.clasificacion).toEqual({ tipo: 'opcion', digito: 2, como: 'manual' });
    r = await respuestas();
    expect(r.no_reconocidas).toEqual([]);
    expect(r.opciones.map((o: any) => [o.digito, o.total])).toEqual([
      [1, 1],
      [2, 3],
    ]);
    expect((await post(`/respuestas/${idr}/clasificar/`, { digito: 1 })).status).toBe(409);
    expect((await casos()).filter((x) => x.telefono === TELS[3])).toHaveLength(1);
  });

  it('a reply from an unknown number stays in the inbox', async () => {
    await responder('5599999999', '1', 7000);
    const b = await get('/respuestas/bandeja/');
    expect(b.status).toBe(200);
    expect(b.body.data.map((x: any) => [x.telefono, x.texto, x.id_ejercicio])).toEqual([
      ['5599999999', '1', null],
    ]);
    expect(b.body.total).toBe(1);
    const inbox = b.body.data[0].id_respuesta;
    expect((await post(`/respuestas/${inbox}/clasificar/`, { digito: 1 })).status).toBe(409);
  });

  it("'BAJA' puts the phone on the SMS opt-out list and 'ALTA' takes it off; its answer stays", async () => {
    const k = api.ctx.db.kysely;
    await responder(TELS[0]!, 'BAJA', 8000);
    const bajas = await k.selectFrom('bajas').select(['canal', 'telefono', 'origen']).execute();
    expect(bajas).toEqual([{ canal: 'sms', telefono: TELS[0], origen: 'respuesta' }]);
    const f = await k
      .selectFrom('respuestas_recibidas')
      .select(['clasificacion', 'id_ejercicio'])
      .where('texto', '=', 'BAJA')
      .executeTakeFirstOrThrow();
    expect(f).toEqual({ clasificacion: 'baja', id_ejercicio: id });
    expect((await respuestas()).opciones[0].total).toBe(1);
    await responder(TELS[0]!, 'alta', 9000);
    expect(await k.selectFrom('bajas').selectAll().execute()).toEqual([]);
  });

  it('a reply past the 72 h window goes to the inbox', async () => {
    await responder(TELS[0]!, '2', 73 * 3_600_000);
    const b = await get('/respuestas/bandeja/');
    expect(b.body.data.map((x: any) => [x.telefono, x.texto])).toEqual([
      [TELS[0], '2'],
      ['5599999999', '1'],
    ]);
    expect((await respuestas()).opciones[1].total).toBe(3);
  });

  it('consulta reads but may not take, note, close or classify', async () => {
    expect((await get(`/ejercicio/${id}/respuestas/`, consulta)).status).toBe(200);
    expect((await get(`/ejercicio/${id}/casos/`, consulta)).status).toBe(200);
    expect((await get('/respuestas/bandeja/', consulta)).status).toBe(200);
    const abierto = (await casos()).find((c) => c.estado_caso === 'abierto')!;
    expect((await post(`/casos/${abierto.id_caso}/tomar/`, {}, consulta)).status).toBe(403);
    expect((await post(`/casos/${abierto.id_caso}/nota/`, { nota: 'x' }, consulta)).status).toBe(
      403,
    );
    expect((await post(`/casos/${abierto.id_caso}/cerrar/`, {}, consulta)).status).toBe(403);
    expect((await post('/respuestas/1/clasificar/', { digito: 1 }, consulta)).status).toBe(403);
    expect(
      (await get(`/ejercicio/${id}/casos/`)).body.data.find(
        (c: any) => c.id_caso === abierto.id_caso,
      ).estado_caso,
    ).toBe('abierto');
  });

  it('the general dashboard counts the cases not yet attended', async () => {
    const r = await get('/tablero/general/');
    expect(r.status).toBe(200);
    expect(r.body.casos_abiertos).toEqual([
      { id_ejercicio: id, ejercicio: 'Simulacro con encuesta', abiertos: 2 },
    ]);
  });

  it('the exercise dashboard carries the poll, and its stream stays live after the drill ends', async () => {
    const t = await get(`/tablero/ejercicio/${id}/`);
    expect(t.status).toBe(200);
    expect(t.body.encuesta).toMatchObject({
      alcanzados: 4,
      opciones: [
        { digito: 1, total: 1 },
        { digito: 2, total: 3 },
      ],
      no_reconocidas: 0,
      casos_abiertos: 2,
    });
    expect(t.body.encuesta.casos.map((c: any) => c.telefono)).toEqual([TELS[3], TELS[2]]);
    // The drill ended: only the poll's window keeps the stream recomputing.
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ en_proceso: 0, completado: 1, terminado: Date.now() })
      .where('id_ejercicio', '=', id)
      .execute();
    const tk = await post('/vivo/ticket/', { flujo: 'ejercicio', id_ejercicio: id });
    const flujo = await abrirFlujoSse<any>(
      `${api.url}/vivo/ejercicio/${id}/?ticket=${tk.body.ticket}`,
    );
    try {
      await flujo.esperar(
        (d) => d.ejercicio.completado === '1',
        'el tablero del simulacro terminado',
      );
      await responder(TELS[3]!, 'no entiendo', 10_000);
      const d = await flujo.esperar(
        (d) => d.encuesta?.no_reconocidas === 1,
        'la respuesta nueva en el tablero en vivo',
      );
      expect(d.encuesta.opciones.map((o: any) => o.total)).toEqual([1, 3]);
    } finally {
      flujo.cerrar();
    }
  });

  it('a poll sent later closes the earlier one: the reply counts for the later poll', async () => {
    const segunda = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.sms, { titulo: 'Segunda encuesta', categorias: '1', encuesta: POLL }),
    );
    const { fecha, hora } = fechaHora(t0 + 600_000, api.config.tz);
    await api.ctx.db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'entregado', intentos: 1, fecha_envio: fecha, hora_envio: hora })
      .where('id_ejercicio', '=', segunda)
      .execute();
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ iniciado: t0 + 500_000, en_proceso: 1 })
      .where('id_ejercicio', '=', segunda)
      .execute();
    await responder(TELS[0]!, 'estoy a salvo', 660_000);
    const r = await get(`/ejercicio/${segunda}/respuestas/`);
    expect(r.body.opciones.map((o: any) => [o.digito, o.total])).toEqual([
      [1, 1],
      [2, 0],
    ]);
    expect((await respuestas()).opciones.map((o: any) => o.total)).toEqual([1, 3]);
  });
});
