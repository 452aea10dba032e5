import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIONES_DEMO, SimuladorAmi } from '@pregon/simulators/ami';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearCuestionario, crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { archivoLlamadas, archivoQuiz } from '../services/telefonia.ts';
import { arrancarDespachador } from './index.ts';
import { CONFIG_PRUEBA, esperarCompletado, filas } from '@pregon/despacho/testing/comun';
import { tonoGsm } from '../../testing/audio.ts';

// Issue 23.4, "reached means heard": over real sockets, the AMI simulator runs the dialplan the api
// generated (which ends the audio with the PregonFin UserEvent) for scripted callees, and the
// semáforo, the reports, the dashboard and the after-action report's 'No alcanzados' sheet agree
// on who heard the message to its end and who answered the whole questionnaire.

/** The rows of one sheet as text, header first. */
async function hojaXlsx(api: ApiDePrueba, token: string, id: number, nombre: string) {
  const res = await fetch(`${api.url}/reportes/xlsx/${id}/`, { headers: { authorization: token } });
  expect(res.status).toBe(200);
  const libro = new ExcelJS.Workbook();
  await libro.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  const h = libro.getWorksheet(nombre)!;
  return Array.from({ length: h.rowCount }, (_, i) => {
    const v = h.getRow(i + 1).values as unknown[];
    return Array.from({ length: v.length - 1 }, (_, j) => String(v[j + 1] ?? ''));
  });
}

describe.each(MOTORES)('alcance de llamadas y cuestionarios por AMI (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let dir: string;
  let sim: SimuladorAmi;
  let equipo: number;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-alcance-'));
    for (const d of ['dialplan', 'sonidos', 'sistema']) fs.mkdirSync(path.join(dir, d));
    tonoGsm(path.join(dir, 'sonidos', 'aviso.gsm'), 2);
    // As long as the spoken demo audio of `npm start` (about 6 s).
    tonoGsm(path.join(dir, 'sonidos', 'demo.gsm'), 6);
    for (const n of [1, 2]) tonoGsm(path.join(dir, 'sonidos', `q${n}.gsm`), 2);
    tonoGsm(path.join(dir, 'sistema', 'auth-thankyou.gsm'), 1);
    sim = new SimuladorAmi({
      usuario: 'pregon',
      secreto: 'ami-secreto',
      dirDialplan: path.join(dir, 'dialplan'),
      dirSonidos: path.join(dir, 'sonidos'),
      dirSistema: path.join(dir, 'sistema'),
      velocidad: 1,
    });
    await sim.iniciar();
    api = await levantarApi(motor);
    token = await ingresar(api);
    equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'asterisk',
      alias: 'LLAMADAS alcance',
      url: sim.url,
      credenciales: { usuario: 'pregon', secreto: 'ami-secreto', troncal: 'demo' },
      tasa: 20,
      puertos: 10,
    });
    despachador = await arrancarDespachador(
      api.ctx.db,
      { ...CONFIG_PRUEBA, timbreMs: 5_000, reintentosLlamada: 0 },
      { eventos: api.ctx.eventos, bitacora: { info: () => {}, error: (t) => console.error(t) } },
    );
  });
  afterAll(async () => {
    await despachador?.detener();
    await sim?.detener();
    await api?.cerrar();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a call answered and hung up after 1 s is 'Colgó al primer segundo', amber and not reached; one heard to the end (PregonFin) is 'Escuchó el mensaje completo'", async () => {
    // Real time (speed 1): the seconds listened are measured on the AMI socket.
    sim.ajustar({
      velocidad: 1,
      guiones: [
        { patron: /1$/, accion: 'colgar', timbreMs: 200, colgarTrasMs: 1000 },
        { patron: /\d$/, accion: 'contestar', timbreMs: 200 },
      ],
    });
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      n: 2,
      puertos: 2,
      accion: 'aviso',
      iniciar: false,
      titulo: 'Llamada alcance',
    });
    fs.writeFileSync(
      path.join(dir, 'dialplan', 'pregon-llamadas.conf'),
      await archivoLlamadas(api.ctx),
    );
    sim.recargar();
    const r = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token,
      body: { id_ejercicio: id, time: 35000 },
    });
    expect(r.status).toBe(200);
    await esperarCompletado(api.ctx.db, id, 30_000);

    // The simulator is the witness: only the second callee heard the audio to PregonFin.
    const mias = sim.registro.filter((l) => l.variables.PREGON_EJERCICIO === String(id));
    expect(mias.find((l) => l.numero.endsWith('1'))!.eventos).toEqual([]);
    expect(mias.find((l) => l.numero.endsWith('2'))!.eventos).toEqual(['PregonFin']);

    const rs = await filas(api.ctx.db, id);
    expect(rs.map((f) => [f.estatus, f.alcance, f.recibida, f.duracion])).toEqual([
      ['contestado', 'colgo', 0, 1],
      ['contestado', 'escucho', 1, expect.any(Number)],
    ]);

    const r2 = await pedir(api.url, 'GET', `/reportes/reporte2/${id}/`, { token });
    expect(
      r2.body.data.map((f: Record<string, unknown>) => [f.resultado, f.realizado, f.recibida]),
    ).toEqual([
      ['Colgó al primer segundo', 'No', 'No'],
      ['Escuchó el mensaje completo', 'Sí', 'Sí'],
    ]);
    const rep = await pedir(api.url, 'GET', `/ejercicio/reporte/${id}/`, { token });
    expect(rep.body.data[0]).toMatchObject({
      resultado: 'Colgó al primer segundo',
      realizado: 'No',
    });

    const s = await pedir(api.url, 'GET', `/ejercicio/semaforo/${id}/`, { token });
    expect(s.body.semaforo).toMatchObject({
      verde: 1,
      amarillo: 1,
      rojo: 0,
      luz: 'amarillo',
      porcentajes: { verde: 50, amarillo: 50, rojo: 0, cancelado: 0 },
      porResultado: { colgo: 1, escucho: 1, contestado: 0 },
    });

    const t = await pedir(api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
    expect(t.body.semaforo).toEqual(s.body.semaforo);
    expect(t.body.recibidas).toBe(1);
    expect(t.body.porEstado[0]).toMatchObject({ total: 2, verde: 1, amarillo: 1 });
    expect(t.body.fallos).toEqual([
      expect.objectContaining({ resultado: 'Colgó al primer segundo', luz: 'amarillo' }),
    ]);
    expect(t.body.hitos.p100).toBeNull();

    const no = await hojaXlsx(api, token, id, 'No alcanzados');
    expect(no).toHaveLength(2);
    expect(no[1]!.slice(0, 3)).toEqual([rs[0]!.telefono, '', 'Colgó al primer segundo']);
    const res = await hojaXlsx(api, token, id, 'Resultados');
    expect(res.find((f) => f[0] === 'Escuchó el mensaje completo')).toEqual([
      'Escuchó el mensaje completo',
      '1',
      '50',
    ]);
    expect(res.find((f) => f[0] === 'Colgó antes del final')).toEqual([
      'Colgó antes del final',
      '1',
      '50',
    ]);
  });

  it("a quiz: 'Respondió todo', 'Respondió 1 de 2', and a callee who hangs up before answering is 'Colgó sin responder', in Reporte 2 and in 'No alcanzados'", async () => {
    sim.ajustar({
      velocidad: 20,
      guiones: [
        { patron: /1$/, accion: 'contestar', timbreMs: 200, digitos: ['1', '2'] },
        { patron: /2$/, accion: 'contestar', timbreMs: 200, digitos: ['2', '', '', ''] },
        { patron: /3$/, accion: 'colgar', timbreMs: 200, colgarTrasMs: 600 },
      ],
    });
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 4,
      n: 3,
      puertos: 3,
      accion: '2',
      iniciar: false,
      titulo: 'Cuestionario alcance',
    });
    const id_quiz = await crearCuestionario(api.ctx.db, id, [
      { archivo: 'q1', respuestas: ['Sí', 'No'] },
      { archivo: 'q2', respuestas: ['A salvo', 'Necesito ayuda'] },
    ]);
    fs.writeFileSync(
      path.join(dir, 'dialplan', `pregon-quiz-${id_quiz}.conf`),
      (await archivoQuiz(api.ctx, id)).salida,
    );
    sim.recargar();
    const r = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token,
      body: { id_ejercicio: id, time: 120000 },
    });
    expect(r.status).toBe(200);
    await esperarCompletado(api.ctx.db, id, 30_000);

    const rs = await filas(api.ctx.db, id);
    expect(rs.map((f) => [f.estatus, f.alcance, f.respondidas, f.recibida])).toEqual([
      ['respondido', 'respondio_todo', 2, 1],
      ['contestado', 'respondio_parcial', 1, 0],
      ['contestado', 'sin_respuesta', 0, 0],
    ]);

    const r4 = await pedir(api.url, 'GET', `/reportes/reporte4/${id}/`, { token });
    expect(r4.headers.get('x-total-count')).toBe('3');
    expect(
      (r4.body as Record<string, string>[]).map((f) => [
        f.telefono,
        f.resultado,
        f.recibida,
        f.reactivo_texto_1,
        f.reactivo_texto_2,
      ]),
    ).toEqual([
      [rs[0]!.telefono, 'Respondió todo', 'Sí', 'Sí', 'Necesito ayuda'],
      [rs[1]!.telefono, 'Respondió 1 de 2', 'No', 'No', ''],
      [rs[2]!.telefono, 'Colgó sin responder', 'No', '', ''],
    ]);
    const csv = await fetch(`${api.url}/csv/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify({ tipo: 'reporte4', id_ejercicio: id }),
    });
    const lineas = (await csv.text()).trim().split(/\r?\n/);
    expect(lineas).toHaveLength(4);
    expect(lineas[3]).toContain('Colgó sin responder');

    const s = await pedir(api.url, 'GET', `/ejercicio/semaforo/${id}/`, { token });
    expect(s.body.semaforo).toMatchObject({ verde: 1, amarillo: 2, rojo: 0, luz: 'amarillo' });

    const no = await hojaXlsx(api, token, id, 'No alcanzados');
    expect(no.slice(1).map((f) => [f[0], f[2]])).toEqual([
      [rs[1]!.telefono, 'Respondió 1 de 2'],
      [rs[2]!.telefono, 'Colgó sin responder'],
    ]);
    const t = await pedir(api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
    expect(t.body.cuestionario.completos).toBe(1);
    expect(t.body.fallos.map((f: { resultado: string }) => f.resultado).sort()).toEqual([
      'Colgó sin responder',
      'Respondió 1 de 2',
    ]);
  });
  it("the README's demo callees: 6 hangs up early and is not reached, the others answer and hear it all", async () => {
    sim.ajustar({ velocidad: 4, guiones: GUIONES_DEMO });
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      n: 7,
      puertos: 7,
      accion: 'demo',
      iniciar: false,
      titulo: 'Demostración',
    });
    fs.writeFileSync(
      path.join(dir, 'dialplan', 'pregon-llamadas.conf'),
      await archivoLlamadas(api.ctx),
    );
    sim.recargar();
    const r = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token,
      body: { id_ejercicio: id, time: 35000 },
    });
    expect(r.status).toBe(200);
    await esperarCompletado(api.ctx.db, id, 30_000);
    const r2 = await pedir(api.url, 'GET', `/reportes/reporte2/${id}/`, { token });
    const de = (d: string) =>
      (r2.body.data as Record<string, unknown>[]).find((f) => String(f.telefono).endsWith(d))!;
    expect(de('6')).toMatchObject({
      resultado: 'Colgó al primer segundo',
      realizado: 'No',
      recibida: 'No',
    });
    for (const d of ['1', '7'])
      expect(de(d)).toMatchObject({ resultado: 'Escuchó el mensaje completo', realizado: 'Sí' });
    const readme = fs.readFileSync(path.join(import.meta.dirname, '../../../../README.md'), 'utf8');
    expect(readme).toContain('6 hangs up 4 s after answering');
  });
});
