import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEquipo } from '../../testing/fabrica.ts';

// Issue 15 part 3: every request of SPEC section 7 as the original web client shapes it (form
// values as strings, hidden fields as '', categorias as a comma string, the {id_ejercicio, time}
// start body), replayed over real HTTP on both engines; what is wrong for the type is still refused.

const SLOTS = Array.from({ length: 40 }, (_, i) => String(i + 1).padStart(2, '0'));

describe.each(MOTORES)('el cliente original de SPEC 7 (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  const p = (metodo: string, ruta: string, body?: unknown) =>
    pedir(api.url, metodo, ruta, { token, body });
  const ok = async (metodo: string, ruta: string, body?: unknown) => {
    const r = await p(metodo, ruta, body);
    expect(r.status, `${metodo} ${ruta} ${JSON.stringify(r.body)}`).toBe(200);
    return r.body;
  };
  let estado: string;
  let cats: string;
  const equipos: Record<string, string> = {};

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    for (const protocolo of ['smpp', 'asterisk', 'whatsapp'] as const) {
      equipos[protocolo] = String(await crearEquipo(api.ctx.db, { protocolo }));
    }
  });
  afterAll(async () => api?.cerrar());

  /** The creation form as the SPEC's client posts it: every value a string, tiempo hidden and ''. */
  const formulario = (
    tipo: string,
    equipo: string,
    accion: string,
    extra: Record<string, string> = {},
  ) => ({
    titulo: `Simulacro tipo ${tipo}`,
    tipo_ejercicio: tipo,
    fecha_ini: '2026-09-19',
    hora_ini: '11:00:00',
    equipo,
    numero_puertos: '1',
    puerto_ini: '1',
    puerto_fin: '1',
    accion,
    estado,
    categorias: cats,
    tiempo: '',
    ...extra,
  });

  it('catálogos, teléfonos y sus categorías, crear los cuatro tipos, generar, ordenar, tiempo', async () => {
    const cat = await ok('GET', '/ejercicios/catalogos/');
    expect(cat).toHaveProperty('tipo_ejercicio');
    const filaEstado = await api.ctx.db.kysely
      .selectFrom('estados')
      .select('id_estado')
      .orderBy('id_estado')
      .executeTakeFirstOrThrow();
    const categorias = await api.ctx.db.kysely
      .selectFrom('categorias')
      .select('id_categoria')
      .orderBy('id_categoria')
      .limit(2)
      .execute();
    estado = String(filaEstado.id_estado);
    cats = categorias.map((c) => c.id_categoria).join(',');

    for (const [i, telefono] of ['5512345601', '5512345602', '5512345603'].entries()) {
      const t = await ok('POST', '/telefono/', {
        telefono,
        nombre: `Persona ${i}`,
        id_estado: estado,
        categorias: cats,
      });
      for (const id_categoria of cats.split(',')) {
        await ok('POST', '/telefono/categoria/', {
          id_telefono: String(t.id_telefono),
          id_categoria,
        });
      }
    }
    const lista = await ok('GET', `/telefonos/${estado}/?categorias=${cats}`);
    expect(JSON.stringify(lista)).toContain('5512345601');

    const ids: Record<string, number> = {};
    for (const [tipo, protocolo, accion] of [
      ['1', 'smpp', 'Simulacro: esto es una prueba'],
      ['2', 'asterisk', 'alerta_sismica'],
      ['3', 'whatsapp', 'Simulacro por WhatsApp'],
      ['4', 'asterisk', '3'],
    ] as const) {
      const r = await ok('POST', '/ejercicio/', formulario(tipo, equipos[protocolo]!, accion));
      ids[tipo] = r.id_ejercicio;
      const g = await ok('POST', '/ejercicio/generar/', {
        ejercicio: r.id_ejercicio,
        estado: Number(estado),
        categorias: cats,
      });
      expect(g.total).toBe(3);
    }
    const fila = (await ok('GET', '/ejercicios/')).data.find(
      (f: { id_ejercicio: number }) => f.id_ejercicio === ids['1'],
    );
    expect(fila).toMatchObject({
      tiempo: null,
      numero_puertos: 1,
      categorias: cats,
      destinatarios: 3,
      sms_total: 3,
    });
    await ok('PUT', '/ejercicio/ordenar/', { id_ejercicio: String(ids['1']), orden: 'telefono' });
    await ok('PUT', '/ejercicio/tiempo/', { id_ejercicio: String(ids['2']), tiempo: '2' });
    expect((await ok('GET', `/ejercicio/tiempo/${ids['2']}/`)).tiempo).toBe(2);

    // Questionnaire: the 40 slots, unused ones ''; one answer; the digits; read back.
    const slots = Object.fromEntries(
      SLOTS.flatMap((s) => [
        [`file_${s}`, ''],
        [`reactivo_${s}`, ''],
      ]),
    );
    const q = await ok('POST', '/quiz/', {
      ...slots,
      id_ejercicio: String(ids['4']),
      file_01: 'pregunta_1',
      reactivo_01: '¿Está bien?',
    });
    await ok('POST', '/quiz/respuesta/', {
      id_cuestionario: String(q.id_cuestionario),
      reactivo: 'reactivo_01',
      respuesta: 'Sí',
      digito: '1',
    });
    await ok('POST', '/quiz/digitos/fill/', { id_cuestionario: String(q.id_cuestionario) });
    const leido = (await p('GET', `/quiz/${ids['4']}/`)).body;
    expect(leido[0]).toMatchObject({
      reactivo_text: '¿Está bien?',
      respuestas: [{ respuesta: 'Sí', digito_respuesta: 1 }],
    });

    // Start ({id_ejercicio, time}), pause and resume with string flags, semáforo, reports, stop.
    expect(
      (await ok('POST', '/ejercicio/sms/', { id_ejercicio: String(ids['1']), time: 0 })).mensaje,
    ).toBe('Ejercicio iniciado');
    expect(
      (await ok('POST', '/ejercicio/calls/', { id_ejercicio: ids['2'], time: 120000 })).time,
    ).toBe(120000);
    expect(
      (await ok('POST', '/ejercicio/calls/', { id_ejercicio: String(ids['4']), time: '180000' }))
        .time,
    ).toBe(180000);
    await ok('POST', '/ejercicio/pausa/', {
      id_ejercicio: String(ids['1']),
      proceso: '0',
      pausa: '1',
    });
    await ok('POST', '/ejercicio/pausa/', {
      id_ejercicio: String(ids['1']),
      proceso: '1',
      pausa: '0',
    });
    await ok('GET', `/ejercicio/semaforo/${ids['1']}/`);
    expect((await ok('GET', `/ejercicio/reporte/${ids['1']}/`)).data).toHaveLength(3);
    for (const r of ['reporte2', 'resumen']) await ok('GET', `/reportes/${r}/${ids['1']}/`);
    for (const r of ['reporte3', 'reporte4'])
      expect((await p('GET', `/reportes/${r}/${ids['4']}/`)).status).toBe(200);
    await ok('POST', '/quiz/stop/', { id_ejercicio: String(ids['1']) });
    const csv = await fetch(`${api.url}/csv/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify({ tipo: 'reporte', id_ejercicio: String(ids['1']) }),
    });
    expect(csv.status).toBe(200);
  });

  it.each([
    [
      'tiempo de llamada que no es número',
      { tipo: '2', accion: 'alerta_sismica', tiempo: 'dos' },
      'tiempo',
    ],
    ['tiempo de llamada en cero', { tipo: '2', accion: 'alerta_sismica', tiempo: '0' }, 'tiempo'],
    ['llamada sin audio', { tipo: '2', accion: '' }, 'accion'],
    ['SMS sin mensaje', { tipo: '1', accion: '' }, 'accion'],
    ['cuestionario con minutos fuera de lista', { tipo: '4', accion: '11' }, 'accion'],
    [
      'puerto vacío donde aplica no rompe, pero puerto con letras sí',
      { tipo: '1', accion: 'x', puerto_ini: 'uno' },
      'puerto_ini',
    ],
    ['categorías vacías', { tipo: '1', accion: 'x', categorias: '' }, 'categorias'],
  ])('sigue rechazando lo que está mal para el tipo: %s', async (_, c, campo) => {
    const { tipo, accion, ...extra } = c as Record<string, string>;
    const r = await p('POST', '/ejercicio/', formulario(tipo!, equipos.smpp!, accion!, extra));
    expect(r.status).toBe(400);
    expect(r.body.campo).toBe(campo);
    expect(r.body.mensaje).toMatch(/[a-záéíóú]/i);
  });

  it('campos que no aplican vacíos: puertos y tiempo en "" toman su valor por defecto', async () => {
    const r = await ok(
      'POST',
      '/ejercicio/',
      formulario('1', equipos.smpp!, 'Aviso', {
        numero_puertos: '',
        puerto_ini: '',
        puerto_fin: '',
        tiempo: ' ',
      }),
    );
    const fila = (await ok('GET', '/ejercicios/')).data.find(
      (f: { id_ejercicio: number }) => f.id_ejercicio === r.id_ejercicio,
    );
    expect(fila).toMatchObject({ tiempo: null, numero_puertos: 1, puerto_ini: 1, puerto_fin: 1 });
  });

  it('reintentos de llamada por ejercicio: vacíos toman lo configurado, se guardan para llamadas y cuestionarios, fuera de rango es 400 que nombra el campo', async () => {
    const config = await ok('GET', '/config/');
    expect(config.llamadas).toEqual({
      reintentos: 2,
      espera_reintento: 10,
      espera_reintento_s: 600,
      intentos_red: 8,
      espera_red_min_s: 1,
      espera_red_max_s: 60,
    });
    const fila = async (id: number) =>
      (await ok('GET', '/ejercicios/')).data.find(
        (f: { id_ejercicio: number }) => f.id_ejercicio === id,
      );
    const propio = await ok(
      'POST',
      '/ejercicio/',
      formulario('2', equipos.asterisk!, 'alerta', { reintentos: '0', espera_reintento: '15' }),
    );
    expect(await fila(propio.id_ejercicio)).toMatchObject({ reintentos: 0, espera_reintento: 15 });
    const quiz = await ok(
      'POST',
      '/ejercicio/',
      formulario('4', equipos.asterisk!, '3', { reintentos: '4', espera_reintento: '' }),
    );
    expect(await fila(quiz.id_ejercicio)).toMatchObject({ reintentos: 4, espera_reintento: null });
    const vacio = await ok(
      'POST',
      '/ejercicio/',
      formulario('2', equipos.asterisk!, 'alerta', { reintentos: '', espera_reintento: '' }),
    );
    expect(await fila(vacio.id_ejercicio)).toMatchObject({
      reintentos: null,
      espera_reintento: null,
    });
    // An SMS has no calls to retry: the fields are ignored.
    const sms = await ok(
      'POST',
      '/ejercicio/',
      formulario('1', equipos.smpp!, 'Simulacro', { reintentos: '3', espera_reintento: '5' }),
    );
    expect(await fila(sms.id_ejercicio)).toMatchObject({
      reintentos: null,
      espera_reintento: null,
    });
    for (const [campo, valor] of [
      ['reintentos', '9'],
      ['reintentos', 'dos'],
      ['espera_reintento', '0'],
    ] as const) {
      const r = await p(
        'POST',
        '/ejercicio/',
        formulario('2', equipos.asterisk!, 'alerta', { [campo]: valor }),
      );
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.campo).toBe(campo);
      expect(r.body.mensaje).toMatch(campo);
    }
  });

  it('vigencia de un SMS: se guarda en minutos, vacía toma la de la pasarela, se ignora en otros tipos y fuera de rango es 400', async () => {
    const fila = async (id: number) =>
      (await ok('GET', '/ejercicios/')).data.find(
        (f: { id_ejercicio: number }) => f.id_ejercicio === id,
      );
    const sms = await ok(
      'POST',
      '/ejercicio/',
      formulario('1', equipos.smpp!, 'Simulacro', { vigencia: '90' }),
    );
    expect(await fila(sms.id_ejercicio)).toMatchObject({ vigencia: 90 });
    const vacia = await ok(
      'POST',
      '/ejercicio/',
      formulario('1', equipos.smpp!, 'Simulacro', { vigencia: '' }),
    );
    expect(await fila(vacia.id_ejercicio)).toMatchObject({ vigencia: null });
    const llamada = await ok(
      'POST',
      '/ejercicio/',
      formulario('2', equipos.asterisk!, 'alerta', { vigencia: '30' }),
    );
    expect(await fila(llamada.id_ejercicio)).toMatchObject({ vigencia: null });
    for (const valor of ['0', '4321', 'una hora']) {
      const r = await p(
        'POST',
        '/ejercicio/',
        formulario('1', equipos.smpp!, 'Simulacro', { vigencia: valor }),
      );
      expect(r.status, valor).toBe(400);
      expect(r.body.campo).toBe('vigencia');
      expect(r.body.mensaje).toMatch('vigencia');
    }
  });
});
