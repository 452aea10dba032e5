import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorWhatsapp } from '@pregon/simulators/whatsapp';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { cuerpoEjercicio } from '../../testing/ejercicios.ts';
import { crearEquipo } from '../../testing/fabrica.ts';

// Issue 25.2: the create and edit bodies' fallback fields. Lenient with the SPEC client's empty
// strings (none), strict in what is stored: an existing SMS device and a text, Spanish errors
// naming the field; only calls and quizzes. The fallback's companion exercise never shows as a
// row of its own.

describe.each(MOTORES)('respaldo por SMS al crear y editar (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let sms: number;
  let llamadas: number;

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    sms = await crearEquipo(api.ctx.db, { protocolo: 'smpp', alias: 'SMS respaldo' });
    llamadas = await crearEquipo(api.ctx.db, { protocolo: 'asterisk', alias: 'LLAMADAS' });
  });
  afterAll(async () => {
    await api?.cerrar();
  });

  /** A quiz body (type 4, 2 minutes per call) with these fallback fields. */
  const quiz = (extra: Record<string, unknown>) =>
    cuerpoEjercicio(llamadas, {
      titulo: 'Cuestionario',
      tipo_ejercicio: '4',
      accion: '2',
      ...extra,
    });
  const fila = async (id: number) => {
    const r = await pedir(api.url, 'GET', '/ejercicios/', { token });
    return r.body.data.find((f: { id_ejercicio: number }) => f.id_ejercicio === id);
  };
  const filasTotales = async () =>
    (await pedir(api.url, 'GET', '/ejercicios/', { token })).body.data.length as number;

  it('stored with a device and a text; the list shows them on the drill and no companion row', async () => {
    const antes = await filasTotales();
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: quiz({ respaldo_equipo: String(sms), respaldo_texto: '  Le llamamos: simulacro  ' }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.id_ejercicio as number;
    expect(await filasTotales()).toBe(antes + 1);
    const f = await fila(id);
    expect([f.respaldo_equipo, f.respaldo_texto]).toEqual([sms, 'Le llamamos: simulacro']);

    // Edit: another text is kept; both fields '' remove the fallback.
    const cambio = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: quiz({ respaldo_equipo: sms, respaldo_texto: 'Otro texto' }),
    });
    expect(cambio.status, JSON.stringify(cambio.body)).toBe(200);
    expect((await fila(id)).respaldo_texto).toBe('Otro texto');
    const quitar = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: quiz({ respaldo_equipo: '', respaldo_texto: '' }),
    });
    expect(quitar.status).toBe(200);
    expect([(await fila(id)).respaldo_equipo, (await fila(id)).respaldo_texto]).toEqual([
      null,
      null,
    ]);
    const companeros = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select('id_ejercicio')
      .where('respaldo_de', '=', id)
      .execute();
    expect(companeros).toEqual([]);
  });

  it('empty strings from the SPEC client are no fallback', async () => {
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: quiz({ respaldo_equipo: '', respaldo_texto: ' ' }),
    });
    expect(r.status).toBe(200);
    expect((await fila(r.body.id_ejercicio)).respaldo_equipo).toBeNull();
  });

  it('refused naming the field: a device that is not an SMS one, a missing one, no text, an SMS drill', async () => {
    const casos: [Record<string, unknown>, string, string][] = [
      [
        { respaldo_equipo: llamadas, respaldo_texto: 'Hola' },
        'respaldo_equipo',
        'El campo Equipo de respaldo debe ser un equipo de SMS (SMPP o Android)',
      ],
      [
        { respaldo_equipo: 99_999, respaldo_texto: 'Hola' },
        'respaldo_equipo',
        'El campo Equipo de respaldo hace referencia a un registro que no existe: 99999',
      ],
      [
        { respaldo_equipo: sms, respaldo_texto: '' },
        'respaldo_texto',
        'El campo Texto del SMS de respaldo es obligatorio',
      ],
      [{ respaldo_texto: 'Hola' }, 'respaldo_equipo', 'El campo Equipo de respaldo es obligatorio'],
      [
        { respaldo_equipo: sms, respaldo_texto: 'x'.repeat(2001) },
        'respaldo_texto',
        'El campo Texto del SMS de respaldo admite como máximo 2000 caracteres',
      ],
    ];
    const antes = await filasTotales();
    for (const [extra, campo, mensaje] of casos) {
      const r = await pedir(api.url, 'POST', '/ejercicio/', { token, body: quiz(extra) });
      expect(r.status, mensaje).toBe(400);
      expect(r.body, mensaje).toMatchObject({ campo, message: mensaje });
    }
    const smsConRespaldo = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: cuerpoEjercicio(sms, { respaldo_equipo: sms, respaldo_texto: 'Hola' }),
    });
    expect(smsConRespaldo.status).toBe(400);
    expect(smsConRespaldo.body).toMatchObject({
      campo: 'respaldo_equipo',
      message: 'El campo Equipo de respaldo solo aplica a llamadas y cuestionarios',
    });
    expect(await filasTotales()).toBe(antes);
  });
});

describe.each(MOTORES)('respaldo por WhatsApp al crear y editar (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let sms: number;
  let wa: number;
  let llamadas: number;
  const meta = new SimuladorWhatsapp({ token: 'tok', phoneNumberId: '888000', wabaId: 'waba-9' });
  const plantilla = {
    plantilla: 'aviso_simulacro',
    idioma: 'es_MX',
    parametros: ['la Zona Norte', 'la salida'],
  };

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    await meta.iniciar();
    sms = await crearEquipo(api.ctx.db, { protocolo: 'smpp', alias: 'SMS respaldo' });
    wa = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: meta.url,
      alias: 'WA respaldo',
      credenciales: { token: 'tok', phone_number_id: '888000', app_secret: 's', waba_id: 'waba-9' },
    });
    llamadas = await crearEquipo(api.ctx.db, { protocolo: 'asterisk', alias: 'LLAMADAS' });
  });
  afterAll(async () => {
    await meta.detener();
    await api?.cerrar();
  });

  const llamada = (extra: Record<string, unknown>) =>
    cuerpoEjercicio(llamadas, {
      titulo: 'Llamada',
      tipo_ejercicio: '2',
      accion: 'aviso',
      ...extra,
    });
  const fila = async (id: number) => {
    const r = await pedir(api.url, 'GET', '/ejercicios/', { token });
    return r.body.data.find((f: { id_ejercicio: number }) => f.id_ejercicio === id);
  };
  const companero = (id: number) =>
    api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['id_ejercicio', 'id_tipo_ejercicio', 'id_equipo', 'accion'])
      .where('respaldo_de', '=', id)
      .execute();

  it('stored as a hidden WhatsApp exercise sending the template; the list gives it back; edit keeps, changes and removes it', async () => {
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: llamada({
        respaldo_canal: 'whatsapp',
        respaldo_equipo: String(wa),
        respaldo_texto: '',
        // As a WhatsApp exercise's accion stores it (the SPEC client sends text fields).
        respaldo_plantilla: JSON.stringify({
          ...plantilla,
          parametros: [' la Zona Norte ', 'la salida'],
        }),
      }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.id_ejercicio as number;
    const f = await fila(id);
    expect([f.respaldo_canal, f.respaldo_equipo, f.respaldo_texto, f.respaldo_plantilla]).toEqual([
      'whatsapp',
      wa,
      null,
      plantilla,
    ]);
    const [c] = await companero(id);
    expect([c!.id_tipo_ejercicio, c!.id_equipo, JSON.parse(c!.accion)]).toEqual([3, wa, plantilla]);

    // Edit with the same fallback: the companion stays as it was (same row).
    const igual = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: llamada({
        respaldo_canal: 'whatsapp',
        respaldo_equipo: wa,
        respaldo_plantilla: plantilla,
      }),
    });
    expect(igual.status, JSON.stringify(igual.body)).toBe(200);
    expect((await companero(id)).map((x) => x.id_ejercicio)).toEqual([c!.id_ejercicio]);

    // Another template, then SMS instead: the same companion changes type, device and content.
    const otra = { plantilla: 'fin_simulacro', idioma: 'es_MX', parametros: [] };
    await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: llamada({ respaldo_canal: 'whatsapp', respaldo_equipo: wa, respaldo_plantilla: otra }),
    });
    expect((await fila(id)).respaldo_plantilla).toEqual(otra);
    const aSms = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: llamada({
        respaldo_canal: 'sms',
        respaldo_equipo: sms,
        respaldo_texto: 'Le llamamos',
        respaldo_plantilla: '',
      }),
    });
    expect(aSms.status, JSON.stringify(aSms.body)).toBe(200);
    const g = await fila(id);
    expect([g.respaldo_canal, g.respaldo_equipo, g.respaldo_texto, g.respaldo_plantilla]).toEqual([
      'sms',
      sms,
      'Le llamamos',
      null,
    ]);
    expect((await companero(id)).map((x) => [x.id_ejercicio, x.id_tipo_ejercicio])).toEqual([
      [c!.id_ejercicio, 1],
    ]);
    // Every field '' (the SPEC client): no fallback.
    const quitar = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: llamada({
        respaldo_canal: '',
        respaldo_equipo: '',
        respaldo_texto: '',
        respaldo_plantilla: '',
      }),
    });
    expect(quitar.status).toBe(200);
    expect((await fila(id)).respaldo_canal).toBeNull();
    expect(await companero(id)).toEqual([]);
  });

  it('refused naming the field: not a WhatsApp device, a template not approved or with other parameters, no template, an SMS text, a bad channel', async () => {
    const w = (extra: Record<string, unknown>) =>
      llamada({ respaldo_canal: 'whatsapp', respaldo_equipo: wa, ...extra });
    const casos: [Record<string, unknown>, number, string, string][] = [
      [
        w({ respaldo_equipo: sms, respaldo_plantilla: plantilla }),
        400,
        'respaldo_equipo',
        'El campo Equipo de respaldo debe ser un equipo de WhatsApp',
      ],
      [
        w({ respaldo_plantilla: { ...plantilla, plantilla: 'borrador_aviso', parametros: ['x'] } }),
        400,
        'respaldo_plantilla',
        'El campo Plantilla de WhatsApp de respaldo nombra la plantilla «borrador_aviso» (es_MX), que no existe o no está aprobada en WA respaldo',
      ],
      [
        w({ respaldo_plantilla: { ...plantilla, idioma: 'en_US' } }),
        400,
        'respaldo_plantilla',
        'El campo Plantilla de WhatsApp de respaldo nombra la plantilla «aviso_simulacro» (en_US), que no existe o no está aprobada en WA respaldo',
      ],
      [
        w({ respaldo_plantilla: { ...plantilla, parametros: ['uno'] } }),
        400,
        'respaldo_plantilla',
        'El campo Plantilla de WhatsApp de respaldo: la plantilla «aviso_simulacro» lleva 2 parámetros y se dieron 1',
      ],
      [
        w({ respaldo_plantilla: { ...plantilla, parametros: ['uno', '  '] } }),
        400,
        'respaldo_plantilla',
        'El campo Plantilla de WhatsApp de respaldo tiene parámetros vacíos: escriba cada parámetro de la plantilla',
      ],
      [
        w({ respaldo_plantilla: '' }),
        400,
        'respaldo_plantilla',
        'El campo Plantilla de WhatsApp de respaldo es obligatorio',
      ],
      [
        w({ respaldo_plantilla: 'aviso_simulacro' }),
        400,
        'respaldo_plantilla',
        'El campo Plantilla de WhatsApp de respaldo debe tener el formato {"plantilla": "nombre", "idioma": "es_MX", "parametros": ["…"]}',
      ],
      [
        w({ respaldo_plantilla: plantilla, respaldo_texto: 'Hola' }),
        400,
        'respaldo_texto',
        'El campo Texto del SMS de respaldo solo aplica al respaldo por SMS',
      ],
      [
        llamada({ respaldo_canal: 'telegram', respaldo_equipo: wa }),
        400,
        'respaldo_canal',
        'El campo Canal de respaldo debe ser sms o whatsapp',
      ],
      [
        llamada({ respaldo_equipo: sms, respaldo_texto: 'Hola', respaldo_plantilla: plantilla }),
        400,
        'respaldo_plantilla',
        'El campo Plantilla de WhatsApp de respaldo solo aplica al respaldo por WhatsApp',
      ],
    ];
    const antes = (await pedir(api.url, 'GET', '/ejercicios/', { token })).body.data.length;
    for (const [body, status, campo, mensaje] of casos) {
      const r = await pedir(api.url, 'POST', '/ejercicio/', { token, body });
      expect(r.status, mensaje).toBe(status);
      expect(r.body, mensaje).toMatchObject({ campo, message: mensaje });
    }
    expect((await pedir(api.url, 'GET', '/ejercicios/', { token })).body.data.length).toBe(antes);
  });

  it('Meta cannot be read: 502 saying so, nothing stored', async () => {
    const caido = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: 'http://127.0.0.1:9',
      alias: 'WA caído',
      credenciales: { token: 'tok', phone_number_id: '1', app_secret: 's', waba_id: 'waba-x' },
    });
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: llamada({
        respaldo_canal: 'whatsapp',
        respaldo_equipo: caido,
        respaldo_plantilla: plantilla,
      }),
    });
    expect(r.status).toBe(502);
    expect(r.body.message).toContain('No se pudieron leer las plantillas de WA caído');
    expect(r.body.campo).toBe('respaldo_plantilla');
  });

  it('without a session: 401', async () => {
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      body: llamada({
        respaldo_canal: 'whatsapp',
        respaldo_equipo: wa,
        respaldo_plantilla: plantilla,
      }),
    });
    expect(r.status).toBe(401);
  });
});
