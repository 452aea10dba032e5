import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slotsCuestionario, type Pregunta } from '@pregon/contract/rules/questionnaire';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import {
  ESTADO_CDMX,
  crearPorApi,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
  sembrarEquipos,
  type Equipos,
} from '../../testing/ejercicios.ts';
import { tokenConRol } from '../../testing/roles.ts';

const PREGUNTAS: Pregunta[] = [
  {
    texto: '¿Escuchó la alerta?',
    audio: 'alerta.GSM',
    respuestas: [
      { respuesta: 'Sí', digito: 1 },
      { respuesta: 'No', digito: 2 },
    ],
  },
  {
    texto: '¿Dónde está, "ahora"?',
    audio: 'ubicación 2.gsm',
    respuestas: [
      { respuesta: 'Casa', digito: 3 },
      { respuesta: 'Trabajo', digito: 7 },
    ],
  },
];

describe.each(MOTORES)('cuestionarios (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let consulta: string;
  let eq: Equipos;
  let quiz: number;

  const cuerpoQuiz = (id: number) => slotsCuestionario(id, PREGUNTAS);
  const guardarConRespuestas = async (id: number) => {
    const r = await pedir(api.url, 'POST', '/quiz/', { token, body: cuerpoQuiz(id) });
    expect(r.status).toBe(200);
    for (const [i, p] of PREGUNTAS.entries()) {
      for (const a of p.respuestas) {
        const rr = await pedir(api.url, 'POST', '/quiz/respuesta/', {
          token,
          body: {
            id_cuestionario: r.body.id_cuestionario,
            reactivo: `reactivo_0${i + 1}`,
            respuesta: a.respuesta,
            digito: a.digito,
          },
        });
        expect(rr.status).toBe(200);
      }
    }
    return r.body.id_cuestionario as number;
  };

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    consulta = (await tokenConRol(api, 'consulta', 'lector')).token;
    eq = await sembrarEquipos(api);
    await insertarTelefono(api, '5520000001', ESTADO_CDMX, [1]);
    quiz = await crearPorApi(
      api,
      token,
      cuerpoEjercicio(eq.quiz, { tipo_ejercicio: 4, accion: '2', titulo: 'Quiz' }),
    );
  });
  afterAll(async () => api?.cerrar());

  it('ida y vuelta de los 40 espacios: guardar, respuestas, leer, llenar dígitos', async () => {
    const r = await pedir(api.url, 'POST', '/quiz/', { token, body: cuerpoQuiz(quiz) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 200, preguntas: 2 });
    const id_cuestionario = r.body.id_cuestionario;
    expect(id_cuestionario).toBeGreaterThan(0);

    // Without answers, fill-digits names the first empty question.
    let f = await pedir(api.url, 'POST', '/quiz/digitos/fill/', {
      token,
      body: { id_cuestionario },
    });
    expect(f.status).toBe(409);
    expect(f.body.message).toBe('La pregunta 1 no tiene respuestas');

    for (const [i, p] of PREGUNTAS.entries()) {
      for (const a of p.respuestas) {
        const rr = await pedir(api.url, 'POST', '/quiz/respuesta/', {
          token,
          body: {
            id_cuestionario,
            reactivo: `reactivo_0${i + 1}`,
            respuesta: a.respuesta,
            digito: String(a.digito),
          },
        });
        expect(rr.status).toBe(200);
        expect(rr.body).toMatchObject({ status: 200, mensaje: 'Respuesta agregada' });
      }
    }

    const leido = await pedir(api.url, 'GET', `/quiz/${quiz}/`, { token: consulta });
    expect(leido.status).toBe(200);
    expect(leido.body).toEqual([
      {
        reactivo_text: '¿Escuchó la alerta?',
        respuestas: [
          { respuesta: 'Sí', digito_respuesta: 1 },
          { respuesta: 'No', digito_respuesta: 2 },
        ],
        numero: 1,
        file: 'alerta',
        id_cuestionario,
        // Issue 48.3: the version the questionnaire dialog sends back.
        version: expect.any(Number),
      },
      {
        reactivo_text: '¿Dónde está, "ahora"?',
        respuestas: [
          { respuesta: 'Casa', digito_respuesta: 3 },
          { respuesta: 'Trabajo', digito_respuesta: 7 },
        ],
        numero: 2,
        file: 'ubicacion_2',
        id_cuestionario,
        // Issue 48.3: the version the questionnaire dialog sends back.
        version: expect.any(Number),
      },
    ]);

    f = await pedir(api.url, 'POST', '/quiz/digitos/fill/', { token, body: { id_cuestionario } });
    expect(f.status).toBe(200);
    expect(f.body).toEqual({
      status: 200,
      id_cuestionario,
      preguntas: [
        { numero: 1, digitos: [1, 2] },
        { numero: 2, digitos: [3, 7] },
      ],
    });

    // Saving again replaces the questions and keeps the id.
    const una = slotsCuestionario(quiz, [PREGUNTAS[1]!]);
    const r2 = await pedir(api.url, 'POST', '/quiz/', { token, body: una });
    expect(r2.body).toMatchObject({ status: 200, id_cuestionario, preguntas: 1 });
    const leido2 = await pedir(api.url, 'GET', `/quiz/${quiz}/`, { token });
    expect(leido2.body).toHaveLength(1);
    expect(leido2.body[0]).toMatchObject({
      reactivo_text: '¿Dónde está, "ahora"?',
      respuestas: [],
      numero: 1,
    });
  });

  it('respuestas: dígito único por pregunta, máximo 10, pregunta inexistente', async () => {
    const id = await crearPorApi(
      api,
      token,
      cuerpoEjercicio(eq.quiz, { tipo_ejercicio: 4, accion: '2', titulo: 'Q2' }),
    );
    const r = await pedir(api.url, 'POST', '/quiz/', { token, body: cuerpoQuiz(id) });
    const id_cuestionario = r.body.id_cuestionario;
    const agregar = (digito: number, reactivo = 'reactivo_01', respuesta = `R${digito}`) =>
      pedir(api.url, 'POST', '/quiz/respuesta/', {
        token,
        body: { id_cuestionario, reactivo, respuesta, digito },
      });
    expect((await agregar(4)).status).toBe(200);
    const dup = await agregar(4);
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('El dígito 4 ya está asignado a otra respuesta de la pregunta 1');
    // The same digit in another question is fine.
    expect((await agregar(4, 'reactivo_02')).status).toBe(200);
    const nada = await agregar(5, 'reactivo_09');
    expect(nada.status).toBe(404);
    expect(nada.body.message).toBe(
      `La pregunta reactivo_09 no existe en el cuestionario ${id_cuestionario}`,
    );
    const mal = await agregar(0);
    expect(mal.status).toBe(400);
    expect(mal.body.message).toContain('digito');
    const malReactivo = await agregar(5, 'reactivo_41');
    expect(malReactivo.status).toBe(400);
    expect(malReactivo.body.message).toContain('reactivo');
    const vacia = await agregar(5, 'reactivo_01', '  ');
    expect(vacia.status).toBe(400);
    expect(vacia.body.message).toContain('respuesta');

    // Nine digits exist, so the 10-answer limit cannot be reached with unique digits 1..9;
    // the limit is checked after the digit, and every digit 1..9 can be used once.
    for (const d of [1, 2, 3, 5, 6, 7, 8, 9]) expect((await agregar(d)).status).toBe(200);
    const lleno = await agregar(9);
    expect(lleno.status).toBe(409);
  });

  it('validación del cuerpo de 40 espacios y tipo de ejercicio', async () => {
    const sms = await crearPorApi(api, token, cuerpoEjercicio(eq.sms));
    let r = await pedir(api.url, 'POST', '/quiz/', { token, body: cuerpoQuiz(sms) });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('Solo los ejercicios de tipo CUESTIONARIO tienen cuestionario');

    r = await pedir(api.url, 'POST', '/quiz/', {
      token,
      body: { ...cuerpoQuiz(quiz), file_02: '' },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('file_02');

    r = await pedir(api.url, 'POST', '/quiz/', {
      token,
      body: { ...cuerpoQuiz(quiz), file_01: '../etc/passwd' },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('file_01');

    r = await pedir(api.url, 'POST', '/quiz/', { token, body: { id_ejercicio: quiz } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      message: 'El cuestionario no tiene preguntas: agregue al menos una',
      campo: 'reactivo_01',
    });

    r = await pedir(api.url, 'POST', '/quiz/', {
      token,
      body: { ...cuerpoQuiz(quiz), id_ejercicio: undefined },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('Falta id_ejercicio');

    r = await pedir(api.url, 'POST', '/quiz/', { token, body: cuerpoQuiz(99999) });
    expect(r.status).toBe(404);
    expect((await pedir(api.url, 'GET', '/quiz/99999/', { token })).status).toBe(404);
    expect(
      (
        await pedir(api.url, 'POST', '/quiz/digitos/fill/', {
          token,
          body: { id_cuestionario: 99999 },
        })
      ).status,
    ).toBe(404);
    // An exercise without a questionnaire reads as an empty list.
    const otro = await crearPorApi(
      api,
      token,
      cuerpoEjercicio(eq.quiz, { tipo_ejercicio: 4, accion: '1', titulo: 'Q3' }),
    );
    expect((await pedir(api.url, 'GET', `/quiz/${otro}/`, { token })).body).toEqual([]);
  });

  it('no se modifica el cuestionario de un ejercicio iniciado', async () => {
    const id = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.quiz, { tipo_ejercicio: 4, accion: '2', titulo: 'Q4' }),
    );
    const id_cuestionario = await guardarConRespuestas(id);
    const ini = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token,
      body: { id_ejercicio: id, time: 120000 },
    });
    expect(ini.status).toBe(200);
    const r = await pedir(api.url, 'POST', '/quiz/', { token, body: cuerpoQuiz(id) });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('No se puede modificar el cuestionario: el ejercicio ya inició');
    const a = await pedir(api.url, 'POST', '/quiz/respuesta/', {
      token,
      body: { id_cuestionario, reactivo: 'reactivo_01', respuesta: 'Tal vez', digito: 9 },
    });
    expect(a.status).toBe(409);
  });

  it('sin token 401 y consulta 403 en escrituras', async () => {
    for (const [m, p, body] of [
      ['POST', '/quiz/', cuerpoQuiz(quiz)],
      [
        'POST',
        '/quiz/respuesta/',
        { id_cuestionario: 1, reactivo: 'reactivo_01', respuesta: 'x', digito: 1 },
      ],
      ['POST', '/quiz/digitos/fill/', { id_cuestionario: 1 }],
    ] as const) {
      const sin = await pedir(api.url, m, p, { body });
      expect(sin.status, p).toBe(401);
      expect(sin.body.message).toBe('FALLO: SESION EXPIRADA');
      const r = await pedir(api.url, m, p, { token: consulta, body });
      expect(r.status, p).toBe(403);
    }
    expect((await pedir(api.url, 'GET', `/quiz/${quiz}/`)).status).toBe(401);
  });
});
