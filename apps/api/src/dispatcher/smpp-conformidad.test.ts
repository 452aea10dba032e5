import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { MOTORES, levantarApi, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { arrancarDespachador } from './index.ts';
import {
  banderas,
  CONFIG_PRUEBA,
  esperarCompletado,
  esperarQue,
  filas,
  porEstatus,
} from '@pregon/despacho/testing/comun';

// Issue 16 through the whole dispatcher: an SMSC that answers hexadecimal ids and quotes them in
// decimal in receipts without the TLV, one that rejects the device's sender, and one that reports
// messages undelivered; each recipient ends with the outcome the SMSC meant.

describe.each(MOTORES)('SMPP: conformidad en un ejercicio (%s)', (motor) => {
  let api: ApiDePrueba;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const smsc = new SimuladorSmpp({
    retrasoReciboMs: 20,
    primerId: 0xff0,
    recibos: { idSubmit: 'hex', idRecibo: 'decimal', sinTlv: true },
  });
  const bitacora: string[] = [];

  beforeAll(async () => {
    api = await levantarApi(motor);
    await smsc.iniciar();
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
      bitacora: { info: (t) => bitacora.push(t), error: (t) => bitacora.push(t) },
    });
  });
  afterAll(async () => {
    await despachador?.detener();
    await smsc.detener();
    await api?.cerrar();
  });

  /** A device of this SMSC with an alphanumeric sender. */
  const equipoAlfanumerico = (alias: string) =>
    crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias,
      credenciales: { source_addr: 'PREGON' },
    });

  it('ids hexadecimales y acuses con id decimal sin TLV: todos entregados', async () => {
    const id_equipo = await equipoAlfanumerico('SMSC hex');
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 40 });
    api.ctx.eventos.emit('ejercicio', id);
    await esperarCompletado(api.ctx.db, id);
    await esperarQue(
      async () => (await porEstatus(api.ctx.db, id)).entregado === 40,
      'los 40 entregados',
      20_000,
      () => porEstatus(api.ctx.db, id),
    );
    for (const r of await filas(api.ctx.db, id)) expect(r.id_gateway).toMatch(/^[0-9A-F]{8}$/);
  });

  it('acuses con id decimal que llegan después de reiniciar el despachador: entregados, textos largos también', async () => {
    // The SMSC answers hex ids and quotes them in decimal; the receipts come 1.5 s later, after
    // the dispatcher stopped: the next one binds at start and must still find each row (and each
    // part of a long text) from the decimal id alone.
    const id_equipo = await equipoAlfanumerico('SMSC hex reinicio');
    await smsc.ajustar({ retrasoReciboMs: 1_500 });
    try {
      const aceptadas = smsc.partesAceptadas;
      const corto = await crearEjercicio(api.ctx.db, { id_equipo, n: 6, base: 700 });
      const largo = await crearEjercicio(api.ctx.db, {
        id_equipo,
        n: 3,
        base: 800,
        accion: 'Simulacro: '.repeat(20),
      });
      api.ctx.eventos.emit('ejercicio', corto);
      api.ctx.eventos.emit('ejercicio', largo);
      await esperarQue(
        async () => smsc.partesAceptadas - aceptadas === 6 + 3 * 2,
        'las 12 partes aceptadas',
        5_000,
      );
      await despachador.detener();
      await new Promise((ok) => setTimeout(ok, 1_700));
      despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
        eventos: api.ctx.eventos,
        bitacora: { info: (t) => bitacora.push(t), error: (t) => bitacora.push(t) },
      });
      for (const [id, n] of [
        [corto, 6],
        [largo, 3],
      ] as const)
        await esperarQue(
          async () => (await porEstatus(api.ctx.db, id)).entregado === n,
          `los ${n} entregados tras el reinicio`,
          10_000,
          () => porEstatus(api.ctx.db, id),
        );
    } finally {
      await smsc.ajustar({ retrasoReciboMs: 20 });
    }
  });

  it('REJECTD con err: fallido con el motivo en español', async () => {
    smsc.recibos.stat = 'REJECTD';
    smsc.recibos.err = '0C1';
    try {
      const id_equipo = await crearEquipo(api.ctx.db, {
        protocolo: 'smpp',
        url: smsc.url,
        alias: 'SMSC rej',
      });
      const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 5, base: 500 });
      api.ctx.eventos.emit('ejercicio', id);
      await esperarCompletado(api.ctx.db, id);
      await esperarQue(
        async () => (await porEstatus(api.ctx.db, id)).fallido === 5,
        'los 5 fallidos',
      );
      for (const r of await filas(api.ctx.db, id))
        expect(r.motivo).toBe('SMPP: rechazado por la red (REJECTD, err:0C1)');
    } finally {
      smsc.recibos.stat = undefined;
      smsc.recibos.err = undefined;
    }
  });

  it('el SMSC rechaza el remitente del equipo (RINVSRCADR): el ejercicio se pausa y nadie queda invalido', async () => {
    const id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMSC largo',
      credenciales: { source_addr: 'ALERTA SISMICA CDMX' },
    });
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 10, base: 700 });
    api.ctx.eventos.emit('ejercicio', id);
    const b = await esperarQue(async () => {
      const x = await banderas(api.ctx.db, id);
      return x.en_pausa === 1 ? x : undefined;
    }, 'la pausa');
    expect(b.motivo_pausa).toMatch(
      /^Pausa automática: .*El SMSC rechazó el direccionamiento del equipo SMSC largo \(RINVSRCADR; origen ALERTA SISMICA CDMX TON 5\/NPI 0/,
    );
    // The sends in flight at the pause come back too: every row pending, none blamed.
    const e = await esperarQue(
      async () => {
        const x = await porEstatus(api.ctx.db, id);
        return x.pendiente === 10 ? x : undefined;
      },
      'las 10 filas pendientes',
      10_000,
      () => porEstatus(api.ctx.db, id),
    );
    expect(e.invalido ?? 0).toBe(0);
  });

  it('un SMSC que estrangula (RTHROTTLED más allá de 20 por segundo): todos llegan, ninguno fallido', async () => {
    smsc.maxPorSegundo = 20;
    const antes = smsc.estrangulados;
    try {
      const id_equipo = await crearEquipo(api.ctx.db, {
        protocolo: 'smpp',
        url: smsc.url,
        alias: 'SMSC lento',
        tasa: 100,
      });
      const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 60, base: 900 });
      api.ctx.eventos.emit('ejercicio', id);
      await esperarCompletado(api.ctx.db, id);
      await esperarQue(
        async () => (await porEstatus(api.ctx.db, id)).entregado === 60,
        'los 60 entregados',
        20_000,
        () => porEstatus(api.ctx.db, id),
      );
      expect(smsc.estrangulados).toBeGreaterThan(antes);
    } finally {
      smsc.maxPorSegundo = undefined;
    }
  });

  it('un deliver_sm que no es acuse ni respuesta se cuenta y se registra; una respuesta se guarda', async () => {
    const antes = despachador.despachador.recibosSinDestino;
    // esm_class 0x10: an SME manual/user acknowledgement, neither a receipt nor a reply.
    smsc.enviarDeliver({ source_addr: '525512345678', esm_class: 0x10, short_message: 'hola' });
    await esperarQue(async () => despachador.despachador.recibosSinDestino > antes, 'contado');
    expect(bitacora.some((t) => /acuse sin destinatario .*no es acuse/.test(t))).toBe(true);
    // esm_class 0: a mobile-originated message, a reply (issue 46): stored, not logged.
    smsc.enviarDeliver({ source_addr: '525512345678', esm_class: 0, short_message: 'hola' });
    const r = await esperarQue(
      () =>
        api.ctx.db.kysely
          .selectFrom('respuestas_recibidas')
          .select(['remitente', 'texto'])
          .executeTakeFirst(),
      'la respuesta guardada',
    );
    expect(r).toEqual({ remitente: '525512345678', texto: 'hola' });
  });
});
