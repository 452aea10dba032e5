import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { msg } from '@pregon/contract/messages';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorAmi, type Guion } from '@pregon/simulators/ami';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../testing/fabrica.ts';
import { archivoLlamadas, archivoQuiz } from '../services/telefonia.ts';
import { slotsCuestionario } from '@pregon/contract/rules/questionnaire';
import { tonoGsm } from '../testing/audio.ts';
import { arrancarDespachador } from './index.ts';
import { CONFIG_PRUEBA, banderas, esperarCompletado, esperarQue, filas } from './testing.ts';

// Issue 25.2: a call drill with an SMS fallback, against the AMI simulator (callees scripted by
// their last digit) and the SMPP simulator (the witness of every SMS that reached the SMSC), on
// both engines. The fallback goes once to exactly those the drill did not reach, after their
// last attempt; pause, stop and a dispatcher restart in the middle of the fallbacks neither
// send one twice nor count one that did not leave.

const GUIONES: Guion[] = [
  { patron: /2$/, accion: 'ocupado' },
  { patron: /3$/, accion: 'no_contesta' },
  // Quiz: 1 answers all three questions, 8 only the first; the rest press nothing.
  { patron: /1$/, accion: 'contestar', digitos: ['1', '2', '3'] },
  { patron: /8$/, accion: 'contestar', digitos: ['1', '', '', '', '', '', ''] },
  // Hangs up 1.5 s into a 3 s audio: answered, not reached.
  { patron: /6$/, accion: 'colgar', colgarTrasMs: 1500 },
  { patron: /\d$/, accion: 'contestar' },
];

const TEXTO = 'Simulacro: no pudimos llamarle, esto es una prueba';

describe.each(MOTORES)('respaldo por SMS de una llamada (%s)', { timeout: 90_000 }, (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let dir: string;
  let ami: SimuladorAmi;
  let smsc: SimuladorSmpp;
  let llamadas: number;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>> | undefined;

  const arrancar = async () => {
    despachador = await arrancarDespachador(
      api.ctx.db,
      { ...CONFIG_PRUEBA, timbreMs: 2_000, reintentosLlamada: 1, esperaLlamadaMs: 200 },
      { eventos: api.ctx.eventos, bitacora: { info: () => {}, error: (t) => console.error(t) } },
    );
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-respaldo-'));
    for (const d of ['dialplan', 'sonidos', 'sistema']) fs.mkdirSync(path.join(dir, d));
    tonoGsm(path.join(dir, 'sonidos', 'aviso.gsm'), 3);
    for (const n of [1, 2, 3]) tonoGsm(path.join(dir, 'sonidos', `p${n}.gsm`), 2);
    tonoGsm(path.join(dir, 'sistema', 'auth-thankyou.gsm'), 1);
    ami = new SimuladorAmi({
      usuario: 'pregon',
      secreto: 'ami-secreto',
      dirDialplan: path.join(dir, 'dialplan'),
      dirSonidos: path.join(dir, 'sonidos'),
      dirSistema: path.join(dir, 'sistema'),
      velocidad: 40,
      guiones: GUIONES,
    });
    await ami.iniciar();
    smsc = new SimuladorSmpp({ retrasoReciboMs: 50 });
    await smsc.iniciar();
    api = await levantarApi(motor);
    token = await ingresar(api);
    llamadas = await crearEquipo(api.ctx.db, {
      protocolo: 'asterisk',
      alias: 'LLAMADAS simulador',
      url: ami.url,
      credenciales: { usuario: 'pregon', secreto: 'ami-secreto', troncal: 'demo' },
      tasa: 50,
      puertos: 20,
    });
  });
  afterEach(async () => {
    await despachador?.detener();
    despachador = undefined;
  });
  afterAll(async () => {
    await smsc?.detener();
    await ami?.detener();
    await api?.cerrar();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A call drill of these phones with a fallback through a new SMPP device of `tasa` SMS/s. */
  const drill = async (telefonos: string[], tasa: number) => {
    const sms = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      tasa,
      puertos: 1,
    });
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: llamadas,
      tipo: 2,
      puertos: 20,
      accion: 'aviso',
      iniciar: false,
      extra: telefonos,
      respaldo: { id_equipo: sms, texto: TEXTO, puertos: 1 },
    });
    const companero = (
      await api.ctx.db.kysely
        .selectFrom('ejercicios')
        .select('id_ejercicio')
        .where('respaldo_de', '=', id)
        .executeTakeFirstOrThrow()
    ).id_ejercicio;
    return { id, companero };
  };
  const iniciar = async (id: number) => {
    // Each call exercise has its own context in the dialplan the api writes.
    fs.writeFileSync(
      path.join(dir, 'dialplan', 'pregon-llamadas.conf'),
      await archivoLlamadas(api.ctx),
    );
    ami.recargar();
    const r = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token,
      body: { id_ejercicio: id, time: 35000 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };
  /** SMS the SMSC read for each of these phones (its destination is the international form). */
  const smsPor = (telefonos: readonly string[]) =>
    new Map(
      telefonos.map((t) => [t, smsc.submitsLeidos.filter((s) => s.destino.endsWith(t)).length]),
    );
  const leidos = (telefonos: readonly string[]) =>
    [...smsPor(telefonos).values()].reduce((a, b) => a + b, 0);

  it('a quiz: the fallback goes to who answered in part, not at all or was busy, not to who answered all', async () => {
    const telefonos = ['5800000011', '5800000018', '5800000010', '5800000012'];
    const sms = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      tasa: 50,
      puertos: 1,
    });
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: llamadas,
      tipo: 4,
      puertos: 20,
      accion: '2',
      iniciar: false,
      extra: telefonos,
      respaldo: { id_equipo: sms, texto: TEXTO, puertos: 1 },
    });
    const preguntas = [1, 2, 3].map((k) => ({
      texto: `Pregunta ${k}`,
      audio: `p${k}.gsm`,
      respuestas: [1, 2, 3].map((d) => ({ respuesta: `R${d} de ${k}`, digito: d })),
    }));
    const q = await pedir(api.url, 'POST', '/quiz/', {
      token,
      body: slotsCuestionario(id, preguntas),
    });
    expect(q.status).toBe(200);
    for (const [i, p] of preguntas.entries())
      for (const a of p.respuestas)
        await pedir(api.url, 'POST', '/quiz/respuesta/', {
          token,
          body: {
            id_cuestionario: q.body.id_cuestionario,
            reactivo: `reactivo_0${i + 1}`,
            respuesta: a.respuesta,
            digito: a.digito,
          },
        });
    fs.writeFileSync(
      path.join(dir, 'dialplan', `pregon-quiz-${q.body.id_cuestionario}.conf`),
      (await archivoQuiz(api.ctx, id)).salida,
    );
    await arrancar();
    await iniciar(id);
    await esperarCompletado(api.ctx.db, id, 60_000);
    const rs = await filas(api.ctx.db, id);
    expect(Object.fromEntries(rs.map((f) => [f.telefono, [f.estatus, f.alcance]]))).toEqual({
      '5800000011': ['respondido', 'respondio_todo'],
      '5800000018': ['contestado', 'respondio_parcial'],
      '5800000010': ['contestado', 'sin_respuesta'],
      '5800000012': ['ocupado', null],
    });
    const companero = (
      await api.ctx.db.kysely
        .selectFrom('ejercicios')
        .select('id_ejercicio')
        .where('respaldo_de', '=', id)
        .executeTakeFirstOrThrow()
    ).id_ejercicio;
    const respaldos = await filas(api.ctx.db, companero);
    expect(respaldos.map((r) => r.telefono).sort()).toEqual([
      '5800000010',
      '5800000012',
      '5800000018',
    ]);
    expect(smsPor(telefonos)).toEqual(
      new Map([
        ['5800000011', 0],
        ['5800000018', 1],
        ['5800000010', 1],
        ['5800000012', 1],
      ]),
    );
  });

  /** 12 busy callees, fallbacks at 2 SMS/s: the middle of the fallbacks lasts seconds. */
  const ocupados = (base: number) =>
    Array.from({ length: 12 }, (_, i) => `57${String(base + i * 10).padStart(7, '0')}2`);
  const enviadosYa = async (companero: number, n: number) =>
    esperarQue(
      async () =>
        (await filas(api.ctx.db, companero)).filter((r) => r.estatus === 'entregado').length >= n,
      `${n} respaldos entregados`,
      30_000,
    );

  it('exactly the unreached get the SMS, once, after their last attempt; the drill completes with them', async () => {
    const telefonos = Array.from(
      { length: 20 },
      (_, i) => `56${String(1000 + i).padStart(8, '0')}`,
    );
    const { id, companero } = await drill(telefonos, 50);
    await arrancar();
    await iniciar(id);
    await esperarCompletado(api.ctx.db, id, 60_000);
    // Completion does not wait for delivery receipts (as for any SMS exercise).
    await enviadosYa(companero, 6);

    const llamadasFilas = await filas(api.ctx.db, id);
    const respaldos = await filas(api.ctx.db, companero);
    const noAlcanzado = (t: string) => ['2', '3', '6'].includes(t.at(-1)!);
    const esperados = telefonos.filter(noAlcanzado);
    expect(esperados.length).toBe(6);
    // One fallback row per unreached recipient, naming the drill row it stands for.
    expect(respaldos.map((r) => r.telefono).sort()).toEqual([...esperados].sort());
    for (const r of respaldos) {
      const origen = llamadasFilas.find((f) => f.id_detalle === r.respaldo_de)!;
      expect(origen.telefono).toBe(r.telefono);
      expect(['ocupado', 'no_contesto', 'contestado']).toContain(origen.estatus);
      if (origen.estatus === 'contestado') expect(origen.alcance).toBe('colgo');
      // Busy and unanswered were called again first: the fallback follows the last attempt.
      if (origen.estatus !== 'contestado') expect(origen.intentos).toBe(2);
      expect(r.estatus, r.telefono).toBe('entregado');
      expect(r.intentos).toBe(1);
      expect(r.id_gateway).not.toBeNull();
      expect(r.fecha_envio).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    // The SMSC is the witness: each unreached phone got exactly one SMS, the reached none.
    const porTelefono = smsPor(telefonos);
    for (const t of telefonos) expect(porTelefono.get(t), t).toBe(noAlcanzado(t) ? 1 : 0);
    expect(
      smsc.registro
        .filter((m) => telefonos.some((t) => m.telefono.endsWith(t)))
        .map((m) => m.texto),
    ).toEqual(esperados.map(() => TEXTO));
    // Drill and companion completed together.
    expect((await banderas(api.ctx.db, companero)).completado).toBe(1);

    // The dashboard counts the fallback; the list shows the drill alone, with its fallback.
    const t = await pedir(api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
    expect(t.status).toBe(200);
    expect(t.body.respaldo).toEqual({
      canal: 'sms',
      enviados: 6,
      entregados: 6,
      leidos: 0,
      fallidos: 0,
      pendientes: 0,
    });
    expect(msg('tableroRespaldo', t.body.respaldo)).toBe(
      'Respaldo por SMS: 6 enviados, 6 entregados',
    );
    const lista = await pedir(api.url, 'GET', '/ejercicios/', { token });
    const ids = lista.body.data.map((f: { id_ejercicio: number }) => f.id_ejercicio);
    expect(ids).toContain(id);
    expect(ids).not.toContain(companero);
    const fila = lista.body.data.find((f: { id_ejercicio: number }) => f.id_ejercicio === id);
    expect([fila.respaldo_texto, typeof fila.respaldo_equipo]).toEqual([TEXTO, 'number']);

    // The after-action report's 'No alcanzados' sheet: what the fallback SMS did for each.
    const res = await fetch(`${api.url}/reportes/xlsx/${id}/`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const no = libro.getWorksheet('No alcanzados')!;
    expect(no.getRow(1).getCell(8).value).toBe('SMS de respaldo');
    expect(no.getRow(1).getCell(9).value).toBe('Hora del SMS de respaldo');
    const hoja = new Map<string, unknown[]>();
    for (let i = 2; i <= no.rowCount; i++) {
      const r = no.getRow(i);
      hoja.set(String(r.getCell(1).value), [r.getCell(8).value, r.getCell(9).value]);
    }
    expect([...hoja.keys()].sort()).toEqual([...esperados].sort());
    for (const r of respaldos)
      expect(hoja.get(r.telefono)).toEqual(['Entregado', `${r.fecha_envio} ${r.hora_envio}`]);
  });

  it('pause in the middle of the fallbacks: nothing more leaves while paused; resumed, each once', async () => {
    const telefonos = ocupados(1000);
    const { id, companero } = await drill(telefonos, 2);
    await arrancar();
    await iniciar(id);
    await enviadosYa(companero, 3);
    const p = await pedir(api.url, 'POST', '/ejercicio/pausa/', {
      token,
      body: { id_ejercicio: id, proceso: 0, pausa: 1 },
    });
    expect(p.status).toBe(200);
    expect((await banderas(api.ctx.db, companero)).en_pausa).toBe(1);
    await new Promise((r) => setTimeout(r, 700)); // what was in flight lands
    const enPausa = leidos(telefonos);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(leidos(telefonos)).toBe(enPausa);
    expect((await banderas(api.ctx.db, id)).completado).toBe(0);
    expect(enPausa).toBeLessThan(12);

    const s = await pedir(api.url, 'POST', '/ejercicio/pausa/', {
      token,
      body: { id_ejercicio: id, proceso: 1, pausa: 0 },
    });
    expect(s.status).toBe(200);
    await esperarCompletado(api.ctx.db, id, 60_000);
    await enviadosYa(companero, 12);
    for (const [t, n] of smsPor(telefonos)) expect(n, t).toBe(1);
    const rs = await filas(api.ctx.db, companero);
    expect(rs.length).toBe(12);
    expect(rs.every((r) => r.estatus === 'entregado' && r.intentos === 1)).toBe(true);
  });

  it('stop in the middle of the fallbacks: no more leave; what did not leave is cancelled, uncounted', async () => {
    const telefonos = ocupados(2000);
    const { id, companero } = await drill(telefonos, 2);
    await arrancar();
    await iniciar(id);
    await enviadosYa(companero, 3);
    const r = await pedir(api.url, 'POST', '/quiz/stop/', { token, body: { id_ejercicio: id } });
    expect(r.status).toBe(200);
    await new Promise((r) => setTimeout(r, 700));
    const alParar = leidos(telefonos);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(leidos(telefonos)).toBe(alParar);
    expect(alParar).toBeLessThan(12);

    const rs = await filas(api.ctx.db, companero);
    const porTelefono = smsPor(telefonos);
    for (const f of rs) {
      const n = porTelefono.get(f.telefono)!;
      expect(n, f.telefono).toBeLessThanOrEqual(1);
      // Counted exactly when it left: sent rows have their attempt, cancelled ones none.
      if (n === 1) expect(['enviado', 'entregado']).toContain(f.estatus);
      else expect([f.estatus, f.intentos]).toEqual(['cancelado', 0]);
    }
    expect(rs.some((f) => f.estatus === 'pendiente' || f.estatus === 'en_curso')).toBe(false);
    expect((await banderas(api.ctx.db, companero)).completado).toBe(1);
  });

  it('a dispatcher restart in the middle of the fallbacks: nobody gets the SMS twice', async () => {
    const telefonos = ocupados(3000);
    const { id, companero } = await drill(telefonos, 2);
    await arrancar();
    await iniciar(id);
    await enviadosYa(companero, 3);
    await despachador!.detener();
    despachador = undefined;
    const alDetener = leidos(telefonos);
    expect(alDetener).toBeLessThan(12);
    await arrancar();
    await esperarCompletado(api.ctx.db, id, 60_000);
    await enviadosYa(companero, 12);
    for (const [t, n] of smsPor(telefonos)) expect(n, t).toBe(1);
    const rs = await filas(api.ctx.db, companero);
    expect(rs.length).toBe(12);
    expect(rs.every((r) => r.estatus === 'entregado' && r.intentos === 1)).toBe(true);
  });
});
