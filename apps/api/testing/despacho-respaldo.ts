import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { SimuladorAmi, type Guion } from '@pregon/simulators/ami';
import type { Engine } from '@pregon/db/database';
import { ingresar, levantarApi, pedir, type ApiDePrueba } from './entorno.ts';
import { crearEjercicio, crearEquipo } from './fabrica.ts';
import { archivoLlamadas } from '../src/services/telefonia.ts';
import { tonoGsm } from './audio.ts';
import { arrancarDespachador } from '../src/dispatcher/index.ts';
import {
  CONFIG_PRUEBA,
  banderas,
  esperarCompletado,
  esperarQue,
  filas,
} from '@pregon/despacho/testing/comun';

// Issue 25.2: what the tests of a call drill's fallback share whatever its channel (an SMS through
// the SMPP simulator, a WhatsApp template through the WhatsApp Cloud API simulator): the AMI
// simulator (callees scripted by their last digit), the api on one engine, the call device, the
// dispatcher, the drill with its fallback, and the cases that check the same behaviour on both
// channels. Each channel's own test file says how its simulator starts and what it witnessed.

/** Callees by their last digit: 2 busy, 3 no answer, 6 hangs up 1.5 s into a 3 s audio
 * (answered, not reached), the rest answer. `antes` go first (a quiz's scripted answers). */
export const guiones = (...antes: Guion[]): Guion[] => [
  { patron: /2$/, accion: 'ocupado' },
  { patron: /3$/, accion: 'no_contesta' },
  ...antes,
  { patron: /6$/, accion: 'colgar', colgarTrasMs: 1500 },
  { patron: /\d$/, accion: 'contestar' },
];

/** A fallback channel as its tests see it. */
export interface CanalDeRespaldo {
  /** 'sms' or 'whatsapp', as the dashboard names it. */
  canal: string;
  /** As the reports name it: 'SMS', 'WhatsApp'. */
  etiqueta: string;
  /** The fallback exercise's type (1 SMS, 3 WhatsApp) and its action (text or template). */
  tipo: 1 | 3;
  accion: string;
  /** The text a recipient gets. */
  texto: string;
  /** Starts its simulator, once the api listens. */
  iniciar(api: ApiDePrueba): Promise<void>;
  detener(): Promise<void>;
  /** A new device of this channel of `tasa` messages a second. */
  equipo(api: ApiDePrueba, tasa: number): Promise<number>;
  /** Messages the simulator took for phone `t` (its destination is the international form). */
  mensajesA(t: string): number;
  /** Every message the simulator took (its destination, its text), in order. */
  registro(): readonly { telefono: string; texto: string }[];
}

/** The drill and its fallback companion. */
export interface Drill {
  id: number;
  companero: number;
}

/** 12 busy callees, fallbacks at 2 a second: the middle of the fallbacks lasts seconds. */
const ocupados = (base: number) =>
  Array.from({ length: 12 }, (_, i) => `57${String(base + i * 10).padStart(7, '0')}2`);

const espera = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The environment of one describe block (hooks included): the AMI simulator, the channel's
 * simulator, the api on `motor`, a call device, and the dispatcher each test starts.
 * `cuestionario`: the sounds and system prompts a quiz drill plays.
 */
export function entornoDeRespaldo(
  motor: Engine,
  canal: CanalDeRespaldo,
  o: { prefijo: string; guiones?: Guion[]; cuestionario?: boolean },
) {
  let api: ApiDePrueba;
  let token: string;
  let dir: string;
  let ami: SimuladorAmi;
  let llamadas: number;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>> | undefined;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), o.prefijo));
    const dirs = o.cuestionario ? ['dialplan', 'sonidos', 'sistema'] : ['dialplan', 'sonidos'];
    for (const d of dirs) fs.mkdirSync(path.join(dir, d));
    tonoGsm(path.join(dir, 'sonidos', 'aviso.gsm'), 3);
    if (o.cuestionario) {
      for (const n of [1, 2, 3]) tonoGsm(path.join(dir, 'sonidos', `p${n}.gsm`), 2);
      tonoGsm(path.join(dir, 'sistema', 'auth-thankyou.gsm'), 1);
    }
    ami = new SimuladorAmi({
      usuario: 'pregon',
      secreto: 'ami-secreto',
      dirDialplan: path.join(dir, 'dialplan'),
      dirSonidos: path.join(dir, 'sonidos'),
      ...(o.cuestionario ? { dirSistema: path.join(dir, 'sistema') } : {}),
      velocidad: 40,
      guiones: o.guiones ?? guiones(),
    });
    await ami.iniciar();
    api = await levantarApi(motor);
    token = await ingresar(api);
    await canal.iniciar(api);
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
    await canal.detener();
    await ami?.detener();
    await api?.cerrar();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Messages the channel's simulator took for each of these phones. */
  const mensajesPor = (telefonos: readonly string[]) =>
    new Map(telefonos.map((t) => [t, canal.mensajesA(t)]));

  return {
    get api() {
      return api;
    },
    get token() {
      return token;
    },
    get dir() {
      return dir;
    },
    canal,
    mensajesPor,
    /** All the messages the channel's simulator took for these phones. */
    total: (telefonos: readonly string[]) =>
      [...mensajesPor(telefonos).values()].reduce((a, b) => a + b, 0),
    arrancar: async () => {
      despachador = await arrancarDespachador(
        api.ctx.db,
        { ...CONFIG_PRUEBA, timbreMs: 2_000, reintentosLlamada: 1, esperaLlamadaMs: 200 },
        { eventos: api.ctx.eventos, bitacora: { info: () => {}, error: (t) => console.error(t) } },
      );
    },
    /** Stops the running dispatcher (as a restart's first half). */
    detener: async () => {
      await despachador!.detener();
      despachador = undefined;
    },
    /** A call drill (a quiz with `ejercicio`) of these phones with a fallback through a new
     * device of the channel of `tasa` messages a second. */
    drill: async (
      telefonos: string[],
      tasa: number,
      ejercicio: { tipo: number; accion: string } = { tipo: 2, accion: 'aviso' },
    ): Promise<Drill> => {
      const equipo = await canal.equipo(api, tasa);
      const id = await crearEjercicio(api.ctx.db, {
        id_equipo: llamadas,
        ...ejercicio,
        puertos: 20,
        iniciar: false,
        extra: telefonos,
        respaldo: { id_equipo: equipo, texto: canal.accion, puertos: 1, tipo: canal.tipo },
      });
      const companero = await api.ctx.db.kysely
        .selectFrom('ejercicios')
        .select(['id_ejercicio', 'id_tipo_ejercicio'])
        .where('respaldo_de', '=', id)
        .executeTakeFirstOrThrow();
      expect(companero.id_tipo_ejercicio).toBe(canal.tipo);
      return { id, companero: companero.id_ejercicio };
    },
    /** Starts the drill through the api, with the dialplan it writes. */
    iniciar: async (id: number) => {
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
    },
    /** Waits until `n` fallbacks of the companion are delivered. */
    entregadosYa: async (companero: number, n: number) =>
      esperarQue(
        async () =>
          (await filas(api.ctx.db, companero)).filter((r) => r.estatus === 'entregado').length >= n,
        `${n} respaldos entregados`,
        30_000,
      ),
  };
}

export type EntornoDeRespaldo = ReturnType<typeof entornoDeRespaldo>;

/**
 * Exactly the unreached of 20 callees get the fallback, once, after their last attempt; the drill
 * completes with its companion; the dashboard counts the fallback, the list shows the drill alone
 * and the report's 'No alcanzados' sheet says what the fallback did for each. What it returns is
 * for the channel's own checks.
 */
export async function unaVezTrasElUltimoIntento(p: EntornoDeRespaldo, telefonos: string[]) {
  const { api, token, canal } = p;
  const { id, companero } = await p.drill(telefonos, 50);
  await p.arrancar();
  await p.iniciar(id);
  await esperarCompletado(api.ctx.db, id, 60_000);
  // Completion does not wait for delivery receipts or status webhooks.
  await p.entregadosYa(companero, 6);

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
  // The simulator is the witness: each unreached phone got exactly one, the reached none.
  const porTelefono = p.mensajesPor(telefonos);
  for (const t of telefonos) expect(porTelefono.get(t), t).toBe(noAlcanzado(t) ? 1 : 0);
  expect(
    canal
      .registro()
      .filter((m) => telefonos.some((t) => m.telefono.endsWith(t)))
      .map((m) => m.texto),
  ).toEqual(esperados.map(() => canal.texto));
  // Drill and companion completed together.
  expect((await banderas(api.ctx.db, companero)).completado).toBe(1);

  // The dashboard counts the fallback; the list shows the drill alone, with its fallback.
  const t = await pedir(api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
  expect(t.status).toBe(200);
  expect(t.body.respaldo).toEqual({
    canal: canal.canal,
    enviados: 6,
    entregados: 6,
    leidos: 0,
    fallidos: 0,
    pendientes: 0,
  });
  const lista = await pedir(api.url, 'GET', '/ejercicios/', { token });
  const ids = lista.body.data.map((f: { id_ejercicio: number }) => f.id_ejercicio);
  expect(ids).toContain(id);
  expect(ids).not.toContain(companero);
  const fila = lista.body.data.find((f: { id_ejercicio: number }) => f.id_ejercicio === id);

  // The after-action report's 'No alcanzados' sheet: what the fallback did for each.
  const res = await fetch(`${api.url}/reportes/xlsx/${id}/`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  const libro = new ExcelJS.Workbook();
  await libro.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  const no = libro.getWorksheet('No alcanzados')!;
  expect([no.getRow(1).getCell(8).value, no.getRow(1).getCell(9).value]).toEqual([
    `${canal.etiqueta} de respaldo`,
    `Hora del ${canal.etiqueta} de respaldo`,
  ]);
  const hoja = new Map<string, unknown[]>();
  for (let i = 2; i <= no.rowCount; i++) {
    const r = no.getRow(i);
    hoja.set(String(r.getCell(1).value), [r.getCell(8).value, r.getCell(9).value]);
  }
  expect([...hoja.keys()].sort()).toEqual([...esperados].sort());
  for (const r of respaldos)
    expect(hoja.get(r.telefono)).toEqual(['Entregado', `${r.fecha_envio} ${r.hora_envio}`]);
  return { id, companero, respaldos, tablero: t.body.respaldo, fila };
}

/** A drill of 12 busy callees (`ocupados(base)`) whose fallbacks go at 2 a second, started, once
 * 3 of them are delivered: the middle of the fallbacks. */
export async function enMedio(p: EntornoDeRespaldo, base: number) {
  const telefonos = ocupados(base);
  const { id, companero } = await p.drill(telefonos, 2);
  await p.arrancar();
  await p.iniciar(id);
  await p.entregadosYa(companero, 3);
  return { telefonos, id, companero };
}

/** Once the drill completes, each of the 12 got its fallback exactly once, delivered. */
export async function cadaUnoUnaVez(p: EntornoDeRespaldo, d: Drill, telefonos: string[]) {
  await esperarCompletado(p.api.ctx.db, d.id, 60_000);
  await p.entregadosYa(d.companero, 12);
  for (const [t, n] of p.mensajesPor(telefonos)) expect(n, t).toBe(1);
  const rs = await filas(p.api.ctx.db, d.companero);
  expect(rs.length).toBe(12);
  expect(rs.every((r) => r.estatus === 'entregado' && r.intentos === 1)).toBe(true);
}

/** Pause in the middle of the fallbacks: nothing more leaves while paused; resumed, each once. */
export async function pausaEnMedio(p: EntornoDeRespaldo, base: number) {
  const { api, token } = p;
  const { telefonos, ...d } = await enMedio(p, base);
  const pausa = await pedir(api.url, 'POST', '/ejercicio/pausa/', {
    token,
    body: { id_ejercicio: d.id, proceso: 0, pausa: 1 },
  });
  expect(pausa.status).toBe(200);
  expect((await banderas(api.ctx.db, d.companero)).en_pausa).toBe(1);
  await espera(700); // what was in flight lands
  const enPausa = p.total(telefonos);
  await espera(2_000);
  expect(p.total(telefonos)).toBe(enPausa);
  expect((await banderas(api.ctx.db, d.id)).completado).toBe(0);
  expect(enPausa).toBeLessThan(12);

  const s = await pedir(api.url, 'POST', '/ejercicio/pausa/', {
    token,
    body: { id_ejercicio: d.id, proceso: 1, pausa: 0 },
  });
  expect(s.status).toBe(200);
  await cadaUnoUnaVez(p, d, telefonos);
}

/** Stop in the middle of the fallbacks: no more leave; what did not leave is cancelled, and
 * neither counted on its row nor on the dashboard. */
export async function paroEnMedio(p: EntornoDeRespaldo, base: number) {
  const { api, token } = p;
  const { telefonos, id, companero } = await enMedio(p, base);
  const r = await pedir(api.url, 'POST', '/quiz/stop/', { token, body: { id_ejercicio: id } });
  expect(r.status).toBe(200);
  await espera(700);
  const alParar = p.total(telefonos);
  await espera(2_000);
  expect(p.total(telefonos)).toBe(alParar);
  expect(alParar).toBeLessThan(12);

  const rs = await filas(api.ctx.db, companero);
  const porTelefono = p.mensajesPor(telefonos);
  for (const f of rs) {
    const n = porTelefono.get(f.telefono)!;
    expect(n, f.telefono).toBeLessThanOrEqual(1);
    // Counted exactly when it left: sent rows have their attempt, cancelled ones none.
    if (n === 1) expect(['enviado', 'entregado']).toContain(f.estatus);
    else expect([f.estatus, f.intentos]).toEqual(['cancelado', 0]);
  }
  expect(rs.some((f) => f.estatus === 'pendiente' || f.estatus === 'en_curso')).toBe(false);
  expect((await banderas(api.ctx.db, companero)).completado).toBe(1);
  const t = await pedir(api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
  expect(t.body.respaldo.canal).toBe(p.canal.canal);
  expect(t.body.respaldo.enviados).toBe(alParar);
  expect(t.body.respaldo.pendientes).toBe(0);
}
