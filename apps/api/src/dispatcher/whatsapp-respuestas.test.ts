import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { msg } from '@pregon/contract/messages';
import { SimuladorWhatsapp } from '@pregon/simulators/whatsapp';
import { zonaProducto } from '../config.ts';
import { buildApp } from '../server.ts';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { fechaHoraDe as fechaHora } from '@pregon/contract/rules/zona-horaria';
import { esperarQue } from '@pregon/despacho/testing/comun';
import { ventanaAbiertaHasta } from '../services/webhook-whatsapp.ts';

// Issue 46.1, replies over the WhatsApp Cloud API, through Meta's signed webhook over real HTTP
// on both engines: users' 'text', 'button' (a template's quick-reply) and 'interactive' messages
// are stored once by their wamid, matched to the WhatsApp poll (a 'Necesito ayuda' opens a case),
// and open the 24-hour window GET /whatsapp/ventanas/ shows; unsigned or forged deliveries are
// refused with nothing stored; a message Meta retries while the api is down is taken once;
// hostile texts and messages without text are kept as what came.

const SECRETO = 'secreto-respuestas-wa';
const TELEFONO_ID = '3000000001';
const BASE = 12_345_000; // recipients 5512345001…

describe.each(MOTORES)('respuestas por WhatsApp (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let id_equipo = 0;
  let id_ejercicio = 0;
  let otraApp: FastifyInstance | undefined;
  let meta: SimuladorWhatsapp;

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    meta = new SimuladorWhatsapp({
      appSecret: SECRETO,
      phoneNumberId: TELEFONO_ID,
      webhookUrl: `${api.url}/webhooks/whatsapp/`,
      reintentoMs: 100,
    });
    id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      alias: 'WhatsApp respuestas',
      url: 'http://127.0.0.1:9/wa',
      credenciales: { token: 'tok', phone_number_id: TELEFONO_ID, app_secret: SECRETO },
    });
    // A WhatsApp poll sent a minute ago to three recipients.
    id_ejercicio = await crearEjercicio(api.ctx.db, {
      id_equipo,
      tipo: 3,
      n: 3,
      base: BASE,
      titulo: 'Encuesta WhatsApp',
    });
    const { fecha, hora } = fechaHora(Date.now() - 60_000, zonaProducto());
    await api.ctx.db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'enviado', intentos: 1, fecha_envio: fecha, hora_envio: hora })
      .where('id_ejercicio', '=', id_ejercicio)
      .execute();
    await api.ctx.db.kysely
      .insertInto('encuestas_ejercicio')
      .values({
        id_ejercicio,
        opciones: JSON.stringify([
          { digito: 1, texto: 'Estoy a salvo', atencion: false },
          { digito: 2, texto: 'Necesito ayuda', atencion: true },
        ]),
        anexar_opciones: 0,
        pregunta: 'Simulacro: ¿cómo está?',
        creado: Date.now(),
      })
      .execute();
  });
  afterAll(async () => {
    await otraApp?.close();
    await api?.cerrar();
  });

  const guardadas = (remitente: string) =>
    api.ctx.db.kysely
      .selectFrom('respuestas_recibidas')
      .selectAll()
      .where('remitente', '=', remitente)
      .orderBy('id_respuesta')
      .execute();
  const total = async () =>
    Number(
      (
        await api.ctx.db.kysely
          .selectFrom('respuestas_recibidas')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** POSTs a body to the webhook with the given signature header (none when undefined). */
  const entregar = async (cuerpo: string, firma?: string) => {
    const r = await fetch(`${api.url}/webhooks/whatsapp/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(firma === undefined ? {} : { 'x-hub-signature-256': firma }),
      },
      body: cuerpo,
    });
    return { status: r.status, body: (await r.json()) as { message?: string } };
  };

  it("texto, botón de plantilla y respuesta interactiva: guardados una vez y contados; 'Necesito ayuda' abre un caso", async () => {
    const uno = await meta.recibirMensaje({ de: '5215512345001', texto: '1' });
    const dos = await meta.recibirMensaje({
      de: '525512345002',
      texto: 'Necesito ayuda',
      tipo: 'button',
      payload: 'AYUDA',
    });
    const tres = await meta.recibirMensaje({
      de: '525512345003',
      texto: 'Estoy a salvo',
      tipo: 'interactive',
      payload: 'opcion-1',
    });
    expect([uno.status, dos.status, tres.status]).toEqual([200, 200, 200]);
    const casos = await esperarQue(async () => {
      const r = await pedir(api.url, 'GET', `/ejercicio/${id_ejercicio}/casos/`, { token: admin });
      return r.body.data?.length === 1 ? r.body.data : null;
    }, 'el caso de quien pidió ayuda');
    expect(casos[0]).toMatchObject({ telefono: '5512345002', opcion: 'Necesito ayuda' });
    const r = await pedir(api.url, 'GET', `/ejercicio/${id_ejercicio}/respuestas/`, {
      token: admin,
    });
    expect(r.body.opciones.map((o: any) => [o.digito, o.total])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    const [boton] = await guardadas('525512345002');
    expect(boton).toMatchObject({
      id_equipo,
      canal: 'whatsapp',
      telefono: '5512345002',
      texto: 'Necesito ayuda',
      codificacion: 'button',
      id_gateway: dos.id,
      id_ejercicio,
    });
    expect(Math.abs(Number(boton!.fecha_gateway) - Date.now())).toBeLessThan(60_000);
    expect(JSON.parse(Buffer.from(boton!.texto_crudo, 'hex').toString('utf8'))).toMatchObject({
      type: 'button',
      button: { text: 'Necesito ayuda', payload: 'AYUDA' },
    });

    // Meta delivers the same message again (no 200 seen): stored once, by its wamid.
    const cuerpo = JSON.stringify(
      meta.cuerpoMensaje(
        { de: '525512345002', texto: 'Necesito ayuda', tipo: 'button' },
        dos.id,
        1,
      ),
    );
    expect((await entregar(cuerpo, meta.firmar(cuerpo))).status).toBe(200);
    expect(await guardadas('525512345002')).toHaveLength(1);
  });

  it('cada mensaje abre la ventana de 24 horas de ese teléfono en ese equipo', async () => {
    const r = await pedir(api.url, 'GET', '/whatsapp/ventanas/?telefono=55%201234%205002', {
      token: admin,
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    const v = r.body.data[0];
    expect(v).toMatchObject({
      id_equipo,
      alias: 'WhatsApp respuestas',
      telefono: '5512345002',
      abierta: true,
    });
    expect(v.abierta_hasta - v.ultima_respuesta).toBe(24 * 3_600_000);
    expect(Math.abs(v.ultima_respuesta - Date.now())).toBeLessThan(60_000);
    expect(await ventanaAbiertaHasta(api.ctx.db, id_equipo, '5512345002')).toBe(v.abierta_hasta);
    // Closed once 24 hours have passed; a phone that never wrote has none.
    expect(
      await ventanaAbiertaHasta(api.ctx.db, id_equipo, '5512345002', v.abierta_hasta + 1),
    ).toBeNull();
    const nadie = await pedir(api.url, 'GET', '/whatsapp/ventanas/?telefono=5599999999', {
      token: admin,
    });
    expect(nadie.body.data).toEqual([]);
    const sinToken = await pedir(api.url, 'GET', '/whatsapp/ventanas/?telefono=5512345002');
    expect(sinToken.status).toBe(401);
  });

  it('sin firma, con otro secreto o para un equipo sin app_secret: 401 y nada guardado', async () => {
    // A second device of another number without app_secret never accepts anything.
    await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: 'http://127.0.0.1:9/wa',
      credenciales: { token: 'tok', phone_number_id: '3000000002' },
    });
    const antes = await total();
    const cuerpo = JSON.stringify(
      meta.cuerpoMensaje({ de: '525512345003', texto: '2' }, 'wamid.falso-1', 1),
    );
    const otro = new SimuladorWhatsapp({ appSecret: 'otro-secreto' });
    const invalida = msg('webhookFirmaInvalida');
    expect(await entregar(cuerpo)).toEqual({
      status: 401,
      body: { status: 401, message: invalida, mensaje: invalida },
    });
    expect((await entregar(cuerpo, otro.firmar(cuerpo))).status).toBe(401);
    expect((await entregar(cuerpo, 'sha256=')).status).toBe(401);
    const ajeno = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'W',
          changes: [
            {
              field: 'messages',
              value: {
                metadata: { phone_number_id: '3000000002' },
                messages: [
                  { from: '525512345003', id: 'wamid.ajeno', timestamp: '1', type: 'text' },
                ],
              },
            },
          ],
        },
      ],
    });
    expect((await entregar(ajeno, otro.firmar(ajeno))).status).toBe(401);
    expect(await total()).toBe(antes);
  });

  it('un mensaje que llega con la api caída se toma cuando vuelve, una sola vez', async () => {
    const puerto = Number(new URL(api.url).port);
    await api.app.close();
    const rechazados = meta.webhooksRechazados;
    const entrega = meta.recibirMensaje({ de: '525512345003', texto: 'ya llegué al punto' });
    await esperarQue(async () => meta.webhooksRechazados > rechazados, 'un intento sin api');
    otraApp = await buildApp(api.ctx);
    await otraApp.listen({ port: puerto, host: '127.0.0.1' });
    const { status, id } = await entrega;
    expect(status).toBe(200);
    const filas = (await guardadas('525512345003')).filter((f) => f.id_gateway === id);
    expect(filas.map((f) => f.texto)).toEqual(['ya llegué al punto']);
  });

  it('textos hostiles y mensajes sin texto: se guardan como llegaron, nada se ejecuta', async () => {
    const inicio = '<img src=x onerror=alert(1)>=CMD|"/c calc"!A0\u0000\u0007\u001b[2J\r\n';
    const texto = (inicio + 'ñ🙂'.repeat(500)).padEnd(1600, 'x');
    const mensajes = [
      {
        from: '525512345001',
        id: 'wamid.hostil',
        timestamp: '99999999999999',
        type: 'text',
        text: { body: texto },
      },
      {
        from: '525512345001',
        id: 'wamid.imagen',
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: 'image',
        image: { id: '1' },
      },
      {
        from: '525512345001',
        id: 'wamid.reaccion',
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: 'reaction',
        reaction: { emoji: '👍' },
      },
    ];
    const cuerpo = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'W',
          changes: [
            {
              field: 'messages',
              value: { metadata: { phone_number_id: TELEFONO_ID }, messages: mensajes },
            },
          ],
        },
      ],
    });
    expect((await entregar(cuerpo, meta.firmar(cuerpo))).status).toBe(200);
    const filas = await api.ctx.db.kysely
      .selectFrom('respuestas_recibidas')
      .select(['id_gateway', 'texto', 'nota', 'fecha_gateway', 'codificacion'])
      .where('id_gateway', 'in', ['wamid.hostil', 'wamid.imagen', 'wamid.reaccion'])
      .orderBy('id_respuesta')
      .execute();
    expect(filas.map((f) => [f.id_gateway, f.codificacion, f.nota])).toEqual([
      ['wamid.hostil', 'text', null],
      ['wamid.imagen', 'image', msg('respuestaSinTexto', { tipo: 'image' })],
      ['wamid.reaccion', 'reaction', null],
    ]);
    expect(filas[0]!.texto).toBe(texto.replace('\u0000', '\uFFFD'));
    expect(filas[0]!.texto).toHaveLength(1600);
    // A timestamp no message can have is not kept as the gateway's time.
    expect(filas[0]!.fecha_gateway).toBeNull();
    expect(filas[1]!.texto).toBe('');
    expect(filas[2]!.texto).toBe('👍');
  });
});
