import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slotsCuestionario } from '@pregon/contract/rules/questionnaire';
import { contextoLlamada, contextoQuiz } from '@pregon/contract/rules/dialplan';
import { verificarFirmaDialplan } from '@pregon/servidor/auth/firma-dialplan';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import {
  crearPorApi,
  cuerpoEjercicio,
  sembrarEquipos,
  type Equipos,
} from '../../testing/ejercicios.ts';
import { tokenConRol } from '../../testing/roles.ts';

describe.each(MOTORES)('plan de marcado generado (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let consulta: string;
  let eq: Equipos;

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    consulta = (await tokenConRol(api, 'consulta', 'lector')).token;
    eq = await sembrarEquipos(api);
  });
  afterAll(async () => api?.cerrar());

  it('GET /call/extensions/ has one context per call exercise not completed, with its audio and tiempo', async () => {
    const a = await crearPorApi(
      api,
      token,
      cuerpoEjercicio(eq.llamadas, {
        tipo_ejercicio: '2',
        accion: 'aviso_sismo',
        tiempo: 3,
        titulo: 'Llamada; [x]',
      }),
    );
    const b = await crearPorApi(
      api,
      token,
      cuerpoEjercicio(eq.llamadas, { tipo_ejercicio: '2', accion: 'aviso-b', tiempo: 1 }),
    );
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ completado: 1 })
      .where('id_ejercicio', '=', b)
      .execute();
    const r = await pedir(api.url, 'GET', '/call/extensions/', { token: consulta });
    expect(r.status).toBe(200);
    const texto = r.body.archivo_01 as string;
    expect(texto).toContain(`[${contextoLlamada(a)}]`);
    expect(texto).toContain('same => n,Set(TIMEOUT(absolute)=180)');
    expect(texto).toContain('same => n,Playback(pregon/aviso_sismo)');
    expect(texto).not.toContain(contextoLlamada(b));
    expect(texto).not.toContain('Llamada;');
    // Signed for pregon-llamadas.conf over exactly these bytes, by the api's key only.
    const firma = r.body.firma as string;
    expect(
      await verificarFirmaDialplan(api.ctx.claves.publica, firma, 'pregon-llamadas.conf', texto),
    ).toEqual({ ok: true });
    expect(
      (
        await verificarFirmaDialplan(
          api.ctx.claves.publica,
          firma,
          'pregon-llamadas.conf',
          `${texto} `,
        )
      ).ok,
    ).toBe(false);
    expect(
      (await verificarFirmaDialplan(api.ctx.claves.publica, firma, 'pregon-quiz-1.conf', texto)).ok,
    ).toBe(false);
  });

  it('GET /quiz/file/{id}/ renders the questionnaire with its digits, and names what is missing', async () => {
    const id = await crearPorApi(
      api,
      token,
      cuerpoEjercicio(eq.quiz, { tipo_ejercicio: 4, accion: '2', titulo: 'Quiz' }),
    );
    const vacio = await pedir(api.url, 'GET', `/quiz/file/${id}/`, { token });
    expect(vacio.status).toBe(409);
    const preguntas = [
      {
        texto: '¿Escuchó la alerta?',
        audio: 'alerta.gsm',
        respuestas: [
          { respuesta: 'Sí', digito: 1 },
          { respuesta: 'No', digito: 2 },
        ],
      },
      { texto: '¿Dónde está?', audio: 'lugar.gsm', respuestas: [{ respuesta: 'Casa', digito: 3 }] },
    ];
    const q = await pedir(api.url, 'POST', '/quiz/', {
      token,
      body: slotsCuestionario(id, preguntas),
    });
    expect(q.status).toBe(200);
    const id_cuestionario = q.body.id_cuestionario as number;
    const sinRespuestas = await pedir(api.url, 'GET', `/quiz/file/${id}/`, { token });
    expect(sinRespuestas.status).toBe(409);
    expect(sinRespuestas.body.message).toBe('La pregunta 1 no tiene respuestas');
    for (const [i, p] of preguntas.entries())
      for (const a of p.respuestas)
        expect(
          (
            await pedir(api.url, 'POST', '/quiz/respuesta/', {
              token,
              body: {
                id_cuestionario,
                reactivo: `reactivo_0${i + 1}`,
                respuesta: a.respuesta,
                digito: a.digito,
              },
            })
          ).status,
        ).toBe(200);
    const r = await pedir(api.url, 'GET', `/quiz/file/${id}/`, { token: consulta });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe(200);
    expect(r.body.id_quiz).toBe(id_cuestionario);
    const salida = r.body.salida as string;
    expect(salida).toContain(`[${contextoQuiz(id)}]`);
    expect(salida).toContain('Set(TIMEOUT(absolute)=120)');
    expect(salida).toContain('Read(PREGON_DIGITO,pregon/alerta,1,,1,5)');
    expect(salida).toContain('GotoIf($["${PREGON_DIGITO}" = "1" | "${PREGON_DIGITO}" = "2"]?p1ok)');
    expect(salida).toContain('GotoIf($["${PREGON_DIGITO}" = "3"]?p2ok)');
    expect(salida).not.toContain('Escuchó');
    expect(
      await verificarFirmaDialplan(
        api.ctx.claves.publica,
        r.body.firma as string,
        `pregon-quiz-${id_cuestionario}.conf`,
        salida,
      ),
    ).toEqual({ ok: true });

    const sms = await crearPorApi(api, token, cuerpoEjercicio(eq.sms));
    expect((await pedir(api.url, 'GET', `/quiz/file/${sms}/`, { token })).status).toBe(409);
    expect((await pedir(api.url, 'GET', '/quiz/file/999999/', { token })).status).toBe(404);
  });

  it('GET /config/ is public and names the telephony base', async () => {
    const r = await pedir(api.url, 'GET', '/config/');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: 200,
      pbx: { base: 'http://127.0.0.1:8090', software: 'asterisk' },
      // The retry policy as the server applies it (issue 26.7: the help says what will happen).
      llamadas: {
        reintentos: 2,
        espera_reintento: 10,
        espera_reintento_s: 600,
        intentos_red: 8,
        espera_red_min_s: 1,
        espera_red_max_s: 60,
      },
      zona_horaria: 'America/Mexico_City',
      plazo_agente_s: 30,
      // Issue 47.1: the drill marker and the test list's category (their defaults).
      marca_simulacro: 'SIMULACRO: ',
      categoria_prueba: 'Lista de prueba',
      // Issue 47.2: the emergency start is off unless APROBACION_EMERGENCIA enables it.
      aprobacion_emergencia: false,
      // Issue 45.5: the wait for a device that does not answer (DESPACHO_PAUSA_SIN_CONEXION_MS).
      espera_equipo_s: 300,
    });
  });

  it('requires a session', async () => {
    for (const ruta of ['/call/extensions/', '/quiz/file/1/']) {
      const r = await pedir(api.url, 'GET', ruta);
      expect(r.status).toBe(401);
      expect(r.body.message).toBe('FALLO: SESION EXPIRADA');
    }
  });
});
