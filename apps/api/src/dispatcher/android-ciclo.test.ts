import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorAndroid } from '@pregon/simulators/android';
import { duplicados } from '@pregon/simulators/comun';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { arrancarDespachador } from './index.ts';
import {
  CONFIG_PRUEBA,
  banderas,
  esperarCompletado,
  esperarQue,
  filas,
  porEstatus,
} from '@pregon/despacho/testing/comun';

// The Android gateway's whole message lifecycle (issue 16) against a simulator that works like
// the phone (one message at a time, Processed → Sent → Delivered over time, late Failed, cancel),
// over real sockets on both engines: a stop leaves nothing queued on the phone, a pause takes back
// what was queued and a resume sends it once with a new id, the phone's queue stays short, every
// recipient ends in a final state with the recipient's error, and an HTTP 400 pauses with the
// gateway's message. The 2,000-recipient drill at 50 ms a message is bench/android-2000.ts.

const COLA = 5;
const CONFIG = {
  ...CONFIG_PRUEBA,
  androidCola: COLA,
  androidSondeoMs: 50,
  androidSondeoMaxMs: 400,
  androidEsperaEntregaMs: 5_000,
};

describe.each(MOTORES)('pasarela Android: ciclo de cada mensaje (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const sims: SimuladorAndroid[] = [];

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    despachador = await arrancarDespachador(api.ctx.db, CONFIG, { eventos: api.ctx.eventos });
  });
  afterAll(async () => {
    await despachador?.detener();
    await Promise.all(sims.map((s) => s.detener()));
    await api?.cerrar();
  });

  async function simulador(o: ConstructorParameters<typeof SimuladorAndroid>[0]) {
    const s = new SimuladorAndroid(o);
    sims.push(s);
    await s.iniciar();
    return s;
  }
  const api_ = (ruta: string, body: object) => pedir(api.url, 'POST', ruta, { token, body });
  /** A simulated phone, its device (4 ports at 50/s) and an SMS exercise of `n` recipients from
   * `base`, not yet started. */
  async function preparar(
    o: ConstructorParameters<typeof SimuladorAndroid>[0],
    n: number,
    base?: number,
  ) {
    const sim = await simulador(o);
    const id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'android',
      url: sim.url,
      tasa: 50,
      puertos: 4,
    });
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n, puertos: 4, iniciar: false, base });
    return { sim, id };
  }
  /** Samples the phone's queue every 5 ms; returns the largest seen when stopped. */
  const vigilarCola = (sim: SimuladorAndroid) => {
    let max = 0;
    const t = setInterval(() => (max = Math.max(max, sim.pendientes)), 5);
    return () => {
      clearInterval(t);
      return max;
    };
  };

  it(
    'detener durante el simulacro no deja mensajes en la cola del teléfono; la cola se mantiene corta',
    { timeout: 30_000 },
    async () => {
      const n = 200;
      const { sim, id } = await preparar({ ritmoMs: 50, retrasoReciboMs: 100 }, n);
      const maxCola = vigilarCola(sim);
      expect((await api_('/ejercicio/sms/', { id_ejercicio: id })).status).toBe(200);
      await esperarQue(async () => sim.registro.length >= 20, '20 mensajes salieron del teléfono');
      expect((await api_('/quiz/stop/', { id_ejercicio: id })).status).toBe(200);
      // The worker drains, then cancels what the phone still holds.
      await esperarQue(
        async () => sim.pendientes === 0 && !(await porEstatus(api.ctx.db, id)).en_curso,
        'cola del teléfono vacía tras detener',
        10_000,
      );
      const salieron = sim.registro.length;
      await new Promise((r) => setTimeout(r, 300));
      expect(sim.registro.length).toBe(salieron);
      expect(sim.pendientes).toBe(0);
      const max = maxCola();
      // Never more queued on the phone than the bound plus the sends in flight when it was read.
      expect(max).toBeLessThanOrEqual(COLA + 4);
      const c = await porEstatus(api.ctx.db, id);
      expect(c.pendiente ?? 0).toBe(0);
      // What the phone cancelled is 'cancelado', not 'enviado'.
      const rs = await filas(api.ctx.db, id);
      for (const r of rs)
        if (r.id_gateway && sim.mensaje(r.id_gateway)?.state === 'Cancelled')
          expect(r.estatus).toBe('cancelado');
      // Every message that left the phone is followed to its receipt after the stop.
      await esperarQue(
        async () => (await porEstatus(api.ctx.db, id)).entregado === salieron,
        `recibos de los ${salieron} que salieron`,
        10_000,
        () => porEstatus(api.ctx.db, id),
      );
      const fin = await porEstatus(api.ctx.db, id);
      expect((fin.entregado ?? 0) + (fin.cancelado ?? 0)).toBe(n);
      expect(duplicados(sim.registro).size).toBe(0);
      console.log(
        `Android (${motor}): detenido con ${salieron} enviados, ${sim.cancelados} cancelados en el teléfono, ` +
          `cola máxima ${max}`,
      );
    },
  );

  it(
    'detener con el despachador parado: al arrancar, cancela lo que el teléfono aún tenía en cola',
    { timeout: 30_000 },
    async () => {
      // A slow phone (a message a second): what it holds would take seconds to go out.
      const n = 40;
      const { sim, id } = await preparar({ ritmoMs: 1_000, retrasoReciboMs: 50 }, n, 20_000);
      expect((await api_('/ejercicio/sms/', { id_ejercicio: id })).status).toBe(200);
      await esperarQue(async () => sim.pendientes >= 3, 'mensajes en la cola del teléfono');
      // The dispatcher goes down (a restart, a crash) and the operator stops the drill meanwhile:
      // nobody is there to tell the phone.
      await despachador.detener();
      expect((await api_('/quiz/stop/', { id_ejercicio: id })).status).toBe(200);
      const retenidos = sim.pendientes;
      expect(retenidos).toBeGreaterThan(0);
      despachador = await arrancarDespachador(api.ctx.db, CONFIG, { eventos: api.ctx.eventos });
      await esperarQue(async () => sim.pendientes === 0, 'cola del teléfono vacía', 5_000);
      // Taken back, not sent: the phone cancelled them and their rows say so.
      expect(sim.cancelados).toBeGreaterThan(0);
      // Every row the phone cancelled reads so within 5 s. (A count of 'cancelado' rows was met at
      // once by the rows never sent, which the stop cancels itself, before the dispatcher had
      // read the phone's states: the check below then ran early and failed on PostgreSQL.)
      const canceladaEnTelefono = (r: { id_gateway: string | null }) =>
        !!r.id_gateway && sim.mensaje(r.id_gateway)?.state === 'Cancelled';
      await esperarQue(
        async () =>
          (await filas(api.ctx.db, id)).every(
            (r) => !canceladaEnTelefono(r) || r.estatus === 'cancelado',
          ),
        'filas canceladas',
        5_000,
        () => porEstatus(api.ctx.db, id),
      );
      const rs = await filas(api.ctx.db, id);
      for (const r of rs)
        if (r.id_gateway && sim.mensaje(r.id_gateway)?.state === 'Cancelled')
          expect(r.estatus, r.telefono).toBe('cancelado');
      expect(rs.filter((r) => r.estatus === 'pendiente')).toEqual([]);
      expect(duplicados(sim.registro).size).toBe(0);
    },
  );

  it(
    'un simulacro terminado con mensajes aún en el teléfono: tras reiniciar el despachador, cada uno llega a su estado final',
    { timeout: 30_000 },
    async () => {
      const n = 20;
      const { sim, id } = await preparar({ ritmoMs: 150, retrasoReciboMs: 50 }, n, 30_000);
      expect((await api_('/ejercicio/sms/', { id_ejercicio: id })).status).toBe(200);
      // Completed when nothing is left to send; the last messages are still on the phone.
      await esperarQue(async () => (await banderas(api.ctx.db, id)).completado === 1, 'completado');
      await despachador.detener();
      expect((await porEstatus(api.ctx.db, id)).enviado ?? 0).toBeGreaterThan(0);
      // The phone sends them while no dispatcher runs; the next one must still read their states.
      await esperarQue(async () => sim.pendientes === 0, 'el teléfono envió su cola');
      despachador = await arrancarDespachador(api.ctx.db, CONFIG, { eventos: api.ctx.eventos });
      await esperarQue(
        async () => (await porEstatus(api.ctx.db, id)).entregado === n,
        `los ${n} entregados tras el reinicio`,
        10_000,
        () => porEstatus(api.ctx.db, id),
      );
      expect(duplicados(sim.registro).size).toBe(0);
    },
  );

  it(
    'pausa: lo que esperaba en el teléfono se cancela y vuelve a pendiente; al reanudar sale una vez con otro id',
    { timeout: 30_000 },
    async () => {
      const n = 30;
      const { sim, id } = await preparar({ ritmoMs: 150, retrasoReciboMs: 30 }, n, 10_000);
      expect((await api_('/ejercicio/sms/', { id_ejercicio: id })).status).toBe(200);
      await esperarQue(async () => sim.registro.length >= 5, '5 salieron');
      expect(
        (await api_('/ejercicio/pausa/', { id_ejercicio: id, proceso: 0, pausa: 1 })).status,
      ).toBe(200);
      // Cancelled on the phone, then put back in the database (the rows renamed '-r1').
      const repuestas = async () =>
        (await filas(api.ctx.db, id)).filter((r) => r.id_gateway?.endsWith('-r1')).length;
      await esperarQue(
        async () =>
          sim.pendientes === 0 &&
          sim.cancelados > 0 &&
          !(await porEstatus(api.ctx.db, id)).en_curso &&
          (await repuestas()) === sim.cancelados,
        'lo encolado en el teléfono, cancelado',
        10_000,
        async () => ({ pendientes: sim.pendientes, cancelados: sim.cancelados }),
      );
      const rs = await filas(api.ctx.db, id);
      const repuestos = rs.filter((r) => r.id_gateway?.endsWith('-r1'));
      expect(repuestos.length).toBe(sim.cancelados);
      expect(repuestos.every((r) => r.estatus === 'pendiente' && r.fecha_envio === null)).toBe(
        true,
      );
      expect((await api_('/ejercicio/sms/', { id_ejercicio: id })).status).toBe(200);
      await esperarCompletado(api.ctx.db, id, 20_000);
      await esperarQue(
        async () => (await porEstatus(api.ctx.db, id)).entregado === n,
        'todos entregados',
        10_000,
        () => porEstatus(api.ctx.db, id),
      );
      expect(sim.registro).toHaveLength(n);
      expect(duplicados(sim.registro).size).toBe(0);
      const despues = await filas(api.ctx.db, id);
      for (const r of repuestos)
        expect(despues.find((d) => d.id_detalle === r.id_detalle)!.id_gateway).toBe(r.id_gateway);
    },
  );

  it(
    'cada destinatario termina en un estado final: Failed tarde con su error, ttl, simNumber por puerto e id con la instalación',
    { timeout: 30_000 },
    async () => {
      const sim = await simulador({
        ritmoMs: 5,
        envioMs: 20,
        retrasoReciboMs: 150,
        sims: 2,
        fallanEntrega: (t) => t.endsWith('7'),
      });
      const id_equipo = await crearEquipo(api.ctx.db, {
        protocolo: 'android',
        url: sim.url,
        tasa: 100,
        puertos: 2,
        credenciales: { sims: '2', ttl: '600' },
      });
      const n = 300;
      const id = await crearEjercicio(api.ctx.db, { id_equipo, n, puertos: 2, base: 20_000 });
      api.ctx.eventos.emit('ejercicio', id);
      const maxCola = vigilarCola(sim);
      await esperarCompletado(api.ctx.db, id, 20_000);
      // Completed once every row was sent; the states keep arriving after that.
      await esperarQue(
        async () => !(await porEstatus(api.ctx.db, id)).enviado,
        'todos en estado final',
        10_000,
        () => porEstatus(api.ctx.db, id),
      );
      expect(maxCola()).toBeLessThanOrEqual(COLA + 2);
      const rs = await filas(api.ctx.db, id);
      const { valor: inst } = await api.ctx.db.kysely
        .selectFrom('ajustes')
        .select('valor')
        .where('clave', '=', 'instalacion')
        .executeTakeFirstOrThrow();
      const fallidos = rs.filter((r) => r.estatus === 'fallido');
      expect(fallidos.length).toBe(rs.filter((r) => r.telefono.endsWith('7')).length);
      expect(fallidos.length).toBeGreaterThan(0);
      for (const r of fallidos) {
        expect(r.telefono).toMatch(/7$/);
        expect(r.recibida).toBe(1);
        expect(r.motivo).toBe(
          'Android: el teléfono no pudo enviarlo o entregarlo (Delivery result from SC +5215550000000: 64)',
        );
      }
      expect(rs.filter((r) => r.estatus === 'entregado')).toHaveLength(n - fallidos.length);
      const usadas = new Set<number | null>();
      for (const r of rs) {
        expect(r.id_gateway).toBe(`pregon-${inst}-${r.id_detalle}`);
        const m = sim.mensaje(r.id_gateway!)!;
        usadas.add(m.simNumber);
        // ttl 600 s from the credential: the phone computed validUntil from it.
        expect(m.validUntil! - Date.now()).toBeGreaterThan(500_000);
        expect(m.validUntil! - Date.now()).toBeLessThanOrEqual(600_000);
        expect(m.textMessage.text).toBe('Simulacro: esto es una prueba');
      }
      expect(usadas).toEqual(new Set([1, 2]));
    },
  );

  it('la vigencia del ejercicio es el ttl de cada mensaje, por encima del ttl del equipo', async () => {
    const sim = await simulador({});
    const id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'android',
      url: sim.url,
      credenciales: { ttl: '600' },
    });
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 3, base: 31_000, vigencia: 5 });
    api.ctx.eventos.emit('ejercicio', id);
    await esperarCompletado(api.ctx.db, id, 10_000);
    for (const r of await filas(api.ctx.db, id)) {
      const m = sim.mensaje(r.id_gateway!)!;
      expect(m.validUntil! - Date.now()).toBeGreaterThan(240_000);
      expect(m.validUntil! - Date.now()).toBeLessThanOrEqual(300_000);
    }
  });

  it('un HTTP 400 de la pasarela pausa el ejercicio con su mensaje y no culpa al destinatario', async () => {
    const sim = await simulador({});
    const id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'android',
      url: sim.url,
      alias: 'Android Centro',
    });
    // An empty text: the app answers 400 'Text message is empty'.
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 5, accion: '', base: 30_000 });
    api.ctx.eventos.emit('ejercicio', id);
    await esperarQue(async () => (await banderas(api.ctx.db, id)).en_pausa === 1, 'pausado');
    const b = await banderas(api.ctx.db, id);
    expect(b.motivo_pausa).toContain(
      'La pasarela Android del equipo Android Centro rechazó la solicitud (HTTP 400: Text message is empty)',
    );
    await esperarQue(
      async () => !(await porEstatus(api.ctx.db, id)).en_curso,
      'sin filas en curso',
    );
    expect(await porEstatus(api.ctx.db, id)).toEqual({ pendiente: 5 });
    expect(sim.rechazos).toContain('Text message is empty');
    expect(sim.registro).toHaveLength(0);
  });
});
