import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorAmi } from '@pregon/simulators/ami';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearCuestionario, crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';

// Starts that cannot work are refused with a Spanish mensaje and change nothing (issue 17):
// quizzes without questions, answers or audio; calls without audio; audio the PBX agent lacks;
// devices whose gateway does not answer within COMPROBACION_EQUIPO_MS.

const puerto = (s: net.Server) => (s.address() as AddressInfo).port;
const escuchar = async <S extends net.Server>(s: S) => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return s;
};

describe.each(MOTORES)('inicio que no puede funcionar (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let smsc: net.Server;
  let mudo: net.Server;
  let gateway: http.Server;
  let pbx: http.Server;
  let cerrado: number;
  const pedidosPbx: { url: string; auth: string | undefined }[] = [];
  // An Asterisk (AMI simulator) that loads the include files written to `dirPlan`.
  const dirPlan = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-inicio-plan-'));
  const asterisk = new SimuladorAmi({
    usuario: 'pregon',
    secreto: 'ami-secreto',
    dirDialplan: dirPlan,
    dirSonidos: dirPlan,
  });
  const abiertos: net.Socket[] = [];

  beforeAll(async () => {
    smsc = await escuchar(net.createServer((s) => s.end()));
    // Accepts TCP but never answers HTTP: the request must time out.
    mudo = await escuchar(net.createServer((s) => void abiertos.push(s)));
    gateway = await escuchar(http.createServer((_, res) => res.writeHead(404).end()));
    pbx = await escuchar(
      http.createServer((req, res) => {
        pedidosPbx.push({ url: req.url!, auth: req.headers.authorization });
        res
          .writeHead(req.method === 'HEAD' && req.url === '/asterisk/audio/alerta.gsm' ? 200 : 404)
          .end();
      }),
    );
    await asterisk.iniciar();
    const libre = await escuchar(net.createServer());
    cerrado = puerto(libre);
    await new Promise((r) => libre.close(r));
    api = await levantarApi(motor, {
      COMPROBACION_EQUIPO_MS: '800',
      PBX_BASE: `http://127.0.0.1:${puerto(pbx)}/`,
    });
    token = await ingresar(api);
  });
  afterAll(async () => {
    await api?.cerrar();
    await asterisk.detener();
    fs.rmSync(dirPlan, { recursive: true, force: true });
    abiertos.forEach((s) => s.destroy());
    for (const s of [smsc, mudo, gateway, pbx]) {
      (s as http.Server).closeAllConnections?.();
      await new Promise((r) => s?.close(r));
    }
  });

  const foto = async (id: number) => ({
    ejercicio: await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['completado', 'en_proceso', 'en_pausa', 'iniciado', 'motivo_pausa'])
      .where('id_ejercicio', '=', id)
      .executeTakeFirstOrThrow(),
    detalle: await api.ctx.db.kysely
      .selectFrom('ejercicio_detalle')
      .select(['estatus'])
      .where('id_ejercicio', '=', id)
      .execute(),
    auditoria: await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select('accion')
      .where('entidad', '=', 'ejercicio')
      .where('id_entidad', '=', String(id))
      .execute(),
  });

  /** Starts and expects a 409 with exactly `mensaje`, and the exercise as it was. */
  const rechaza = async (canal: string, id: number, mensaje: string | RegExp) => {
    const antes = await foto(id);
    const r = await pedir(api.url, 'POST', `/ejercicio/${canal}/`, {
      token,
      body: { id_ejercicio: id, time: 0 },
    });
    expect(r.status).toBe(409);
    if (typeof mensaje === 'string') expect(r.body.mensaje).toBe(mensaje);
    else expect(r.body.mensaje).toMatch(mensaje);
    expect(await foto(id)).toEqual(antes);
    expect(antes.ejercicio).toMatchObject({ en_proceso: 0, iniciado: null });
  };

  const ami = () =>
    crearEquipo(api.ctx.db, { protocolo: 'asterisk', url: `ami://127.0.0.1:${puerto(smsc)}` });
  const conAsterisk = () =>
    crearEquipo(api.ctx.db, {
      protocolo: 'asterisk',
      alias: 'Asterisk central',
      url: asterisk.url,
      credenciales: { usuario: 'pregon', secreto: 'ami-secreto' },
    });
  /** Writes a call exercise's context where the simulated Asterisk reads it, and reloads. */
  const cargarContexto = (id: number) => {
    fs.writeFileSync(
      path.join(dirPlan, `prueba-${id}.conf`),
      `[pregon-llamada-${id}]\nexten => s,1,Answer()\n same => n,Hangup()\n`,
    );
    asterisk.recargar();
  };

  it('cuestionario sin preguntas, pregunta sin respuestas, pregunta sin audio', async () => {
    const equipo = await ami();
    const sin = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 4,
      accion: '3',
      n: 2,
      iniciar: false,
    });
    await rechaza('calls', sin, 'El cuestionario no tiene preguntas: agregue al menos una');
    const sinRespuestas = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 4,
      accion: '3',
      n: 2,
      iniciar: false,
    });
    await crearCuestionario(api.ctx.db, sinRespuestas, [
      { archivo: 'alerta.gsm', respuestas: ['Sí'] },
      { archivo: 'alerta.gsm', respuestas: [] },
    ]);
    await rechaza('calls', sinRespuestas, 'La pregunta 2 no tiene respuestas');
    const sinAudio = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 4,
      accion: '3',
      n: 2,
      iniciar: false,
    });
    await crearCuestionario(api.ctx.db, sinAudio, [{ archivo: '', respuestas: ['Sí'] }]);
    await rechaza('calls', sinAudio, 'La pregunta 1 no tiene un audio .GSM válido');
  });

  it('llamada sin audio; audio que el servidor de telefonía no tiene; con todo, arranca', async () => {
    const equipo = await conAsterisk();
    const sinAudio = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      accion: '  ',
      n: 2,
      iniciar: false,
    });
    await rechaza(
      'calls',
      sinAudio,
      'El ejercicio no tiene audio (Acción): indique el archivo .GSM antes de iniciar',
    );
    const falta = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      accion: 'falta.gsm',
      n: 2,
      iniciar: false,
    });
    await rechaza(
      'calls',
      falta,
      'El audio falta.gsm no está en el servidor de telefonía: súbalo antes de iniciar',
    );
    expect(pedidosPbx.at(-1)).toEqual({ url: '/asterisk/audio/falta.gsm', auth: token });
    const lista = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      accion: 'alerta.gsm',
      n: 2,
      iniciar: false,
    });
    cargarContexto(lista);
    const r = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token,
      body: { id_ejercicio: lista, time: 0 },
    });
    expect(r.status).toBe(200);
    expect(r.body.mensaje).toBe('Ejercicio iniciado');
  });

  it('llamada cuyo contexto no está cargado en el Asterisk del equipo: se rechaza nombrándolo', async () => {
    const equipo = await conAsterisk();
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      accion: 'alerta.gsm',
      n: 2,
      iniciar: false,
    });
    // Asked over AMI (ShowDialPlan), as a real Asterisk answers 'Did not find context …'.
    await rechaza(
      'calls',
      id,
      `El Asterisk del equipo Asterisk central no tiene cargado el contexto pregon-llamada-${id}: escriba el plan de marcado del ejercicio (Crear ejercicio lo escribe al guardar) y vuelva a iniciar`,
    );
    // Another exercise's context does not count; its own does.
    cargarContexto(id + 1000);
    await rechaza('calls', id, /no tiene cargado el contexto pregon-llamada-/);
    cargarContexto(id);
    const r = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token,
      body: { id_ejercicio: id, time: 0 },
    });
    expect(r.status).toBe(200);
  });

  it('equipo que no responde: puerto cerrado (SMPP), HTTP mudo (Android); con respuesta arranca', async () => {
    const smppCerrado = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      alias: 'SMSC caído',
      url: `smpp://127.0.0.1:${cerrado}`,
    });
    const e1 = await crearEjercicio(api.ctx.db, { id_equipo: smppCerrado, n: 2, iniciar: false });
    await rechaza(
      'sms',
      e1,
      `El equipo SMSC caído no responde en smpp://127.0.0.1:${cerrado} (conexión rechazada): revise la conexión antes de iniciar`,
    );
    const url = `http://127.0.0.1:${puerto(mudo)}`;
    const androidMudo = await crearEquipo(api.ctx.db, {
      protocolo: 'android',
      alias: 'Android mudo',
      url,
    });
    const e2 = await crearEjercicio(api.ctx.db, { id_equipo: androidMudo, n: 2, iniciar: false });
    const t0 = Date.now();
    await rechaza(
      'sms',
      e2,
      `El equipo Android mudo no responde en ${url} (sin respuesta en 800 ms): revise la conexión antes de iniciar`,
    );
    expect(Date.now() - t0).toBeLessThan(5_000);
    for (const [protocolo, destino] of [
      ['smpp', `127.0.0.1:${puerto(smsc)}`],
      ['android', `http://127.0.0.1:${puerto(gateway)}/`],
    ] as const) {
      const equipo = await crearEquipo(api.ctx.db, { protocolo, url: destino });
      const id = await crearEjercicio(api.ctx.db, { id_equipo: equipo, n: 2, iniciar: false });
      const r = await pedir(api.url, 'POST', '/ejercicio/sms/', {
        token,
        body: { id_ejercicio: id, time: 0 },
      });
      expect(r.status, protocolo).toBe(200);
    }
  });
});

describe('sin PBX_BASE la comprobación del audio se omite', () => {
  let api: ApiDePrueba;
  beforeAll(async () => {
    api = await levantarApi('sqlite');
  });
  afterAll(async () => api?.cerrar());

  it('una llamada con audio arranca sin preguntar a nadie', async () => {
    const equipo = await crearEquipo(api.ctx.db, { protocolo: 'asterisk' });
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      accion: 'alerta.gsm',
      n: 1,
      iniciar: false,
    });
    const r = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token: await ingresar(api),
      body: { id_ejercicio: id, time: 0 },
    });
    expect(r.status).toBe(200);
  });
});
