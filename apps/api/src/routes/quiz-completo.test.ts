import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { archivoDialplanQuiz } from '@pregon/contract/rules/dialplan';
import { verificarFirmaDialplan } from '@pregon/servidor/auth/firma-dialplan';
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

// Issue 26.2: PUT /quiz/completo/ saves a whole questionnaire all or nothing, after its audio is on
// the telephony agent and the agent took its dialplan; issue 26.1: edited in place before the
// start, refused after. The agent here is a stand-in over real HTTP that records what it is asked.

/** Three questions, the third with two answers. */
const cuerpo = (
  id_ejercicio: number,
  cambios: { q3?: { respuesta: string; digito: number }[] } = {},
) => ({
  id_ejercicio,
  preguntas: [
    {
      reactivo: '¿Escuchó la alerta?',
      file: 'q1-0123456789abcdef',
      respuestas: [
        { respuesta: 'Sí', digito: 1 },
        { respuesta: 'No', digito: 2 },
      ],
    },
    {
      reactivo: '¿Salió de su casa?',
      file: 'q2-0123456789abcdef',
      respuestas: [{ respuesta: 'Sí, salí', digito: 1 }],
    },
    {
      reactivo: '¿Llegó al punto de reunión?',
      file: 'q3-0123456789abcdef',
      respuestas: cambios.q3 ?? [
        { respuesta: 'Sí', digito: 1 },
        { respuesta: 'No', digito: 9 },
      ],
    },
  ],
});

/** What the stand-in agent was asked: HEAD of audio and dialplan writes. */
interface Pedido {
  metodo: string;
  url: string;
  auth?: string;
  cuerpo?: { contenido: string; firma: string };
}

describe.each(MOTORES)('PUT /quiz/completo/ (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let consulta: string;
  let eq: Equipos;
  let agente: http.Server;
  let baseAgente: string;
  let cerrado: string;
  const pedidos: Pedido[] = [];
  const audios = new Set(['q1-0123456789abcdef', 'q2-0123456789abcdef', 'q3-0123456789abcdef']);
  let rechazarPlan = false;

  const conteos = async () => {
    const k = api.ctx.db.kysely;
    const n = async (t: 'cuestionarios' | 'preguntas' | 'respuestas') =>
      Number(
        (
          await k
            .selectFrom(t)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { c: await n('cuestionarios'), p: await n('preguntas'), r: await n('respuestas') };
  };
  const leer = async (id: number) => (await pedir(api.url, 'GET', `/quiz/${id}/`, { token })).body;
  const guardar = (body: unknown, t = token) =>
    pedir(api.url, 'PUT', '/quiz/completo/', { token: t, body });
  const nuevoQuiz = (titulo: string) =>
    crearPorApi(api, token, cuerpoEjercicio(eq.quiz, { tipo_ejercicio: 4, accion: '2', titulo }));

  beforeAll(async () => {
    agente = http.createServer((req, res) => {
      const trozos: Buffer[] = [];
      req.on('data', (d: Buffer) => trozos.push(d));
      req.on('end', () => {
        const p: Pedido = { metodo: req.method!, url: req.url!, auth: req.headers.authorization };
        if (trozos.length) p.cuerpo = JSON.parse(Buffer.concat(trozos).toString());
        pedidos.push(p);
        const audio = /^\/asterisk\/audio\/([^/]+)$/.exec(req.url!);
        if (req.method === 'HEAD' && audio)
          return res.writeHead(audios.has(decodeURIComponent(audio[1]!)) ? 200 : 404).end();
        if (req.method === 'PUT' && /^\/quizzes\/extensions\/\d+\/$/.test(req.url!)) {
          if (rechazarPlan)
            return res
              .writeHead(502, { 'content-type': 'application/json' })
              .end(
                JSON.stringify({ status: 502, message: 'El PBX no aceptó la recarga (prueba)' }),
              );
          return res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ status: 200, mensaje: 'Guardado y recargado en el PBX' }));
        }
        res.writeHead(404).end();
      });
    });
    await new Promise<void>((r) => agente.listen(0, '127.0.0.1', r));
    baseAgente = `http://127.0.0.1:${(agente.address() as AddressInfo).port}`;
    const libre = net.createServer();
    await new Promise<void>((r) => libre.listen(0, '127.0.0.1', r));
    cerrado = `http://127.0.0.1:${(libre.address() as AddressInfo).port}`;
    await new Promise((r) => libre.close(r));

    api = await levantarApi(motor, { PBX_BASE: baseAgente, COMPROBACION_EQUIPO_MS: '0' });
    token = await ingresar(api);
    consulta = (await tokenConRol(api, 'consulta', 'lector')).token;
    eq = await sembrarEquipos(api);
    await insertarTelefono(api, '5520000001', ESTADO_CDMX, [1]);
  });
  afterAll(async () => {
    await api?.cerrar();
    await new Promise((r) => agente?.close(r));
  });
  beforeEach(() => {
    pedidos.length = 0;
    rechazarPlan = false;
    (api.ctx.config as { pbxBase?: string }).pbxBase = baseAgente;
  });

  it('crea el cuestionario completo tras comprobar los audios y escribir el plan en el agente', async () => {
    const id = await nuevoQuiz('Completo 1');
    const r = await guardar(cuerpo(id));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 200,
      preguntas: 3,
      modificado: false,
      mensaje: 'EXITO',
    });
    const id_cuestionario = r.body.id_cuestionario as number;
    expect(r.body.plan).toMatchObject({ id_quiz: id_cuestionario, escrito: true });

    const leido = await leer(id);
    expect(
      leido.map((q: any) => [q.numero, q.reactivo_text, q.file, q.respuestas, q.id_cuestionario]),
    ).toEqual([
      [
        1,
        '¿Escuchó la alerta?',
        'q1-0123456789abcdef',
        [
          { respuesta: 'Sí', digito_respuesta: 1 },
          { respuesta: 'No', digito_respuesta: 2 },
        ],
        id_cuestionario,
      ],
      [
        2,
        '¿Salió de su casa?',
        'q2-0123456789abcdef',
        [{ respuesta: 'Sí, salí', digito_respuesta: 1 }],
        id_cuestionario,
      ],
      [
        3,
        '¿Llegó al punto de reunión?',
        'q3-0123456789abcdef',
        [
          { respuesta: 'Sí', digito_respuesta: 1 },
          { respuesta: 'No', digito_respuesta: 9 },
        ],
        id_cuestionario,
      ],
    ]);

    // The agent was asked for each audio with the caller's token, then given the signed plan,
    // the same GET /quiz/file/ renders from the saved rows.
    expect(pedidos.map((p) => `${p.metodo} ${p.url}`)).toEqual([
      'HEAD /asterisk/audio/q1-0123456789abcdef',
      'HEAD /asterisk/audio/q2-0123456789abcdef',
      'HEAD /asterisk/audio/q3-0123456789abcdef',
      `PUT /quizzes/extensions/${id_cuestionario}/`,
    ]);
    expect(pedidos.every((p) => p.auth === token)).toBe(true);
    const plan = pedidos[3]!.cuerpo!;
    const archivo = await pedir(api.url, 'GET', `/quiz/file/${id}/`, { token });
    expect(plan.contenido).toBe(archivo.body.salida);
    expect(plan.contenido).toBe(r.body.plan.contenido);
    expect(
      await verificarFirmaDialplan(
        api.ctx.claves.publica,
        plan.firma,
        archivoDialplanQuiz(id_cuestionario),
        plan.contenido,
      ),
    ).toEqual({ ok: true });

    const audit = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select(['accion', 'usuario'])
      .where('entidad', '=', 'cuestionario')
      .where('id_entidad', '=', String(id_cuestionario))
      .execute();
    expect(audit).toEqual([{ accion: 'crear', usuario: 'admin' }]);
  });

  it('se edita en su lugar antes del inicio: mismo id, preguntas y respuestas reemplazadas', async () => {
    const id = await nuevoQuiz('Completo edición');
    const primero = await guardar(cuerpo(id));
    const id_cuestionario = primero.body.id_cuestionario;
    const otro = {
      id_ejercicio: id,
      preguntas: [
        {
          reactivo: '¿Ya está a salvo?',
          file: 'q2-0123456789abcdef',
          respuestas: [
            { respuesta: 'Sí', digito: 5 },
            { respuesta: 'Necesito ayuda', digito: 6 },
          ],
        },
      ],
    };
    const r = await guardar(otro);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id_cuestionario,
      preguntas: 1,
      modificado: true,
      mensaje: 'Cuestionario actualizado',
    });
    expect(await leer(id)).toEqual([
      {
        reactivo_text: '¿Ya está a salvo?',
        respuestas: [
          { respuesta: 'Sí', digito_respuesta: 5 },
          { respuesta: 'Necesito ayuda', digito_respuesta: 6 },
        ],
        numero: 1,
        file: 'q2-0123456789abcdef',
        id_cuestionario,
        // Issue 48.3: the version the questionnaire dialog sends back.
        version: expect.any(Number),
      },
    ]);
    const n = await api.ctx.db.kysely
      .selectFrom('cuestionarios')
      .select('id_cuestionario')
      .where('id_ejercicio', '=', id)
      .execute();
    expect(n).toHaveLength(1);
  });

  it('una respuesta mala en la pregunta 3 no deja nada, ni en la base ni en el agente', async () => {
    const id = await nuevoQuiz('Completo inválido');
    const antes = await conteos();
    // A digit repeated within question 3: the dialog's message, naming the question.
    let r = await guardar(
      cuerpo(id, {
        q3: [
          { respuesta: 'Sí', digito: 2 },
          { respuesta: 'No', digito: 2 },
        ],
      }),
    );
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      message: 'El dígito 2 ya está asignado a otra respuesta de la pregunta 3',
      campo: 'preguntas.2',
    });
    // Question 3 without answers.
    r = await guardar(cuerpo(id, { q3: [] }));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('La pregunta 3 no tiene respuestas');
    // A digit out of range: the schema names the field and where it is.
    r = await guardar(cuerpo(id, { q3: [{ respuesta: 'Sí', digito: 0 }] }));
    expect(r.status).toBe(400);
    expect(r.body.campo).toBe('preguntas.2.respuestas.0.digito');
    expect(r.body.message).toContain('Dígito');
    // No questions at all.
    r = await guardar({ id_ejercicio: id, preguntas: [] });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('El cuestionario no tiene preguntas: agregue al menos una');
    expect(await conteos()).toEqual(antes);
    expect(pedidos).toEqual([]);
    expect(await leer(id)).toEqual([]);
  });

  it('un fallo de la base a media transacción (respuesta de la pregunta 3) revierte todo', async () => {
    const k = api.ctx.db.kysely;
    // A real failure inside the transaction, after questions 1-3 and their answers were written.
    if (motor === 'sqlite') {
      await sql
        .raw(
          `create trigger falla_respuesta before insert on respuestas when new.respuesta = 'FALLA'
           begin select raise(abort, 'falla de prueba'); end`,
        )
        .execute(k);
    } else {
      await sql
        .raw(
          `create function falla_respuesta() returns trigger language plpgsql as $$
           begin if new.respuesta = 'FALLA' then raise exception 'falla de prueba'; end if;
           return new; end $$`,
        )
        .execute(k);
      await sql
        .raw(
          `create trigger falla_respuesta before insert on respuestas
           for each row execute function falla_respuesta()`,
        )
        .execute(k);
    }
    try {
      const malo = cuerpo(0, { q3: [{ respuesta: 'FALLA', digito: 4 }] });
      // A new questionnaire: nothing of it remains (not even its row).
      const nuevo = await nuevoQuiz('Completo rollback nuevo');
      const antes = await conteos();
      let r = await guardar({ ...malo, id_ejercicio: nuevo });
      expect(r.status).toBe(500);
      expect(await conteos()).toEqual(antes);
      expect(await leer(nuevo)).toEqual([]);

      // An edit in place: the previous questionnaire stays as it was, and the agent gets its
      // plan back.
      const editado = await nuevoQuiz('Completo rollback edición');
      expect((await guardar(cuerpo(editado))).status).toBe(200);
      const previo = await leer(editado);
      const planPrevio = (await pedir(api.url, 'GET', `/quiz/file/${editado}/`, { token })).body
        .salida;
      const antesEdicion = await conteos();
      pedidos.length = 0;
      r = await guardar({ ...malo, id_ejercicio: editado });
      expect(r.status).toBe(500);
      expect(await leer(editado)).toEqual(previo);
      expect(await conteos()).toEqual(antesEdicion);
      const escrituras = pedidos.filter((p) => p.metodo === 'PUT');
      expect(escrituras).toHaveLength(2);
      expect(escrituras[0]!.cuerpo!.contenido).not.toBe(planPrevio);
      expect(escrituras[1]!.cuerpo!.contenido).toBe(planPrevio);
    } finally {
      await sql
        .raw('drop trigger falla_respuesta' + (motor === 'postgres' ? ' on respuestas' : ''))
        .execute(k);
      if (motor === 'postgres') await sql.raw('drop function falla_respuesta()').execute(k);
    }
  });

  it('con el agente caído no cambia nada y el mensaje nombra al agente y su dirección', async () => {
    const nuevo = await nuevoQuiz('Completo agente caído');
    const editado = await nuevoQuiz('Completo agente caído edición');
    expect((await guardar(cuerpo(editado))).status).toBe(200);
    const previo = await leer(editado);
    const antes = await conteos();
    (api.ctx.config as { pbxBase?: string }).pbxBase = cerrado;
    for (const id of [nuevo, editado]) {
      const r = await guardar(cuerpo(id, { q3: [{ respuesta: 'Tal vez', digito: 3 }] }));
      expect(r.status).toBe(502);
      expect(r.body.message).toBe(
        `El agente de telefonía no responde en ${cerrado} (ECONNREFUSED): no se guardó nada. Compruebe que esté en marcha e intente de nuevo`,
      );
    }
    expect(await conteos()).toEqual(antes);
    expect(await leer(nuevo)).toEqual([]);
    expect(await leer(editado)).toEqual(previo);

    // Back: the same request succeeds.
    (api.ctx.config as { pbxBase?: string }).pbxBase = baseAgente;
    expect((await guardar(cuerpo(nuevo))).status).toBe(200);
  });

  it('un audio que el agente no tiene, o un plan que rechaza, no guarda nada', async () => {
    const id = await nuevoQuiz('Completo sin audio');
    const antes = await conteos();
    const sinAudio = cuerpo(id);
    sinAudio.preguntas[1]!.file = 'q2-ffffffffffffffff';
    let r = await guardar(sinAudio);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({
      message: `El audio q2-ffffffffffffffff de la pregunta 2 no está en el agente de telefonía (${baseAgente}): vuelva a cargar el archivo .GSM`,
      campo: 'preguntas.1.file',
    });
    rechazarPlan = true;
    r = await guardar(cuerpo(id));
    expect(r.status).toBe(502);
    expect(r.body.message).toBe(
      `El agente de telefonía en ${baseAgente} no aceptó el cuestionario (El PBX no aceptó la recarga (prueba)): no se guardó nada`,
    );
    expect(await conteos()).toEqual(antes);
    expect(await leer(id)).toEqual([]);
  });

  it('se rechaza con un 409 claro una vez iniciado el ejercicio', async () => {
    const id = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.quiz, { tipo_ejercicio: 4, accion: '2', titulo: 'Completo iniciado' }),
    );
    expect((await guardar(cuerpo(id))).status).toBe(200);
    // Started without asking the stand-in agent for the system prompts.
    (api.ctx.config as { pbxBase?: string }).pbxBase = undefined;
    const ini = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token,
      body: { id_ejercicio: id, time: 120000 },
    });
    expect(ini.status).toBe(200);
    (api.ctx.config as { pbxBase?: string }).pbxBase = baseAgente;
    const previo = await leer(id);
    pedidos.length = 0;
    const r = await guardar(cuerpo(id, { q3: [{ respuesta: 'Otra', digito: 4 }] }));
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      'No se puede modificar el cuestionario de "Completo iniciado": el ejercicio ya inició. Use "Guardar como nuevo cuestionario" para llevar estas preguntas a un ejercicio nuevo',
    );
    expect(await leer(id)).toEqual(previo);
    expect(pedidos).toEqual([]);
    await pedir(api.url, 'POST', '/quiz/stop/', { token, body: { id_ejercicio: id } });
  });

  it('sin PBX_BASE guarda y devuelve el plan firmado para que el cliente lo escriba', async () => {
    (api.ctx.config as { pbxBase?: string }).pbxBase = undefined;
    const id = await nuevoQuiz('Completo sin agente');
    const r = await guardar(cuerpo(id));
    expect(r.status).toBe(200);
    expect(r.body.plan.escrito).toBe(false);
    expect(r.body.plan.contenido).toContain(`[pregon-quiz-${id}]`);
    expect(pedidos).toEqual([]);
  });

  it('otro tipo de ejercicio, inexistente, sin token o de consulta: rechazado', async () => {
    const sms = await crearPorApi(api, token, cuerpoEjercicio(eq.sms));
    let r = await guardar(cuerpo(sms));
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('Solo los ejercicios de tipo CUESTIONARIO tienen cuestionario');
    r = await guardar(cuerpo(999999));
    expect(r.status).toBe(404);
    r = await pedir(api.url, 'PUT', '/quiz/completo/', { body: cuerpo(sms) });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('FALLO: SESION EXPIRADA');
    r = await guardar(cuerpo(sms), consulta);
    expect(r.status).toBe(403);
    expect(pedidos).toEqual([]);
  });
});
