import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { MENSAJES } from '@pregon/contract/messages';
import { analizarSms } from '@pregon/contract/rules/sms';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import {
  ESTADO_CDMX,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
} from '../../testing/ejercicios.ts';
import { arrancarDespachador } from './index.ts';
import { CONFIG_PRUEBA, esperarCompletado, esperarQue } from '@pregon/despacho/testing/comun';

// Issue 46.2 and 46.4: the messages Pregón sends back (despacho/sueltos.ts, migration 0040),
// end to end over the real SMPP simulator's sockets: a poll's answer gets its option's
// acknowledgement once per person (a second '2', a restart of the dispatcher send nothing more),
// a BAJA and an ALTA their confirmations once each, and a queue left by a dispatcher that died
// is sent once (never what may have left).

const TELS = ['5541000001', '5541000002', '5541000003', '5541000004'] as const;
const ACUSE_1 = 'Gracias, registramos que está a salvo';
const ACUSE_2 = 'Le llamaremos en unos minutos';

describe.each(MOTORES)('mensajes sueltos por SMPP (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let operador: string;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>> | undefined;
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 5 });
  let id_equipo: number;
  let id_ejercicio: number;

  const arrancar = async () => {
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
    });
  };
  /** What the SMSC took for a phone, text by text. */
  const textosA = (tel: string) =>
    smsc.registro.filter((m) => m.telefono.endsWith(tel)).map((m) => m.texto);
  const sueltos = () =>
    api.ctx.db.kysely.selectFrom('mensajes_sueltos').selectAll().orderBy('id_suelto').execute();
  const leidas = async () =>
    Number(
      (
        await api.ctx.db.kysely
          .selectFrom('respuestas_recibidas')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('clasificacion', 'is not', null)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    operador = (await tokenConRol(api, 'operadores', 'operadora')).token;
    await smsc.iniciar();
    id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMSC acuses',
      puertos: 2,
    });
    for (const t of TELS) await insertarTelefono(api, t, ESTADO_CDMX, [1]);
    await arrancar();
    id_ejercicio = await crearYGenerar(
      api,
      admin,
      cuerpoEjercicio(id_equipo, {
        titulo: 'Encuesta con acuses',
        accion: 'Simulacro: ¿cómo está?',
        categorias: '1',
        encuesta: {
          opciones: [
            { digito: 1, texto: 'Estoy a salvo', acuse: ACUSE_1 },
            { digito: 2, texto: 'Necesito ayuda', atencion: '1', acuse: ACUSE_2 },
          ],
          anexar_opciones: '1',
        },
      }),
    );
    const inicio = await pedir(api.url, 'POST', '/ejercicio/sms/', {
      token: operador,
      body: { id_ejercicio },
    });
    expect(inicio.status).toBe(200);
    await esperarCompletado(api.ctx.db, id_ejercicio);
  });
  afterAll(async () => {
    await despachador?.detener();
    await smsc.detener();
    await api?.cerrar();
  });

  it("a '2' gets option 2's acknowledgement once, however often it is answered", async () => {
    await smsc.enviarMo({ de: `52${TELS[0]}`, texto: '2' });
    await esperarQue(async () => textosA(TELS[0]).includes(ACUSE_2), 'el acuse de la opción 2');
    // Its receipt reaches it like an exercise row's.
    await esperarQue(
      async () => (await sueltos()).some((s) => s.estado === 'entregado'),
      'el acuse entregado',
      10_000,
      sueltos,
    );
    // (The same text again within hours is the SMSC's resend of one reply: these are new ones.)
    await smsc.enviarMo({ de: `52${TELS[0]}`, texto: '2.' });
    await smsc.enviarMo({ de: `52${TELS[0]}`, texto: 'estoy a salvo' });
    await esperarQue(async () => (await leidas()) === 3, 'las tres respuestas leídas');
    await new Promise((r) => setTimeout(r, 500));
    const [poll, ...resto] = textosA(TELS[0]);
    expect(poll).toContain('Responda 1 si está a salvo');
    expect(resto).toEqual([ACUSE_2]);
    const s = await sueltos();
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({
      motivo: 'acuse',
      estado: 'entregado',
      intentos: 1,
      id_ejercicio,
      canal: 'smpp',
      telefono: TELS[0],
      texto: ACUSE_2,
      partes: 1,
    });
    // The acknowledgement counts in the exercise's SMS: 4 of the poll + 1.
    const lista = await pedir(api.url, 'GET', '/ejercicios/', { token: operador });
    const fila = (lista.body.data ?? lista.body).find(
      (f: { id_ejercicio: number }) => f.id_ejercicio === id_ejercicio,
    );
    const partes = analizarSms(poll!).partes;
    expect(fila).toMatchObject({ destinatarios: 4, sms_acuses: 1, sms_total: 4 * partes + 1 });
  });

  it('BAJA is confirmed once and ALTA gets its own confirmation', async () => {
    await smsc.enviarMo({ de: `52${TELS[1]}`, texto: 'BAJA' });
    await esperarQue(
      async () => textosA(TELS[1]).includes(MENSAJES.confirmacionBaja),
      'la confirmación de la baja',
    );
    await smsc.enviarMo({ de: `52${TELS[1]}`, texto: 'baja' });
    await esperarQue(async () => (await leidas()) === 5, 'la segunda baja leída', 10_000, leidas);
    const baja = await api.ctx.db.kysely
      .selectFrom('bajas')
      .selectAll()
      .where('telefono', '=', TELS[1])
      .executeTakeFirstOrThrow();
    expect(baja.confirmada_en).not.toBeNull();
    await smsc.enviarMo({ de: `52${TELS[1]}`, texto: 'ALTA' });
    await esperarQue(
      async () => textosA(TELS[1]).includes(MENSAJES.confirmacionAlta),
      'la confirmación del alta',
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(textosA(TELS[1]).slice(1)).toEqual([
      'Ya no recibirá avisos de simulacro. Envíe ALTA para volver',
      MENSAJES.confirmacionAlta,
    ]);
    const confirmaciones = (await sueltos()).filter((s) => s.motivo !== 'acuse');
    expect(confirmaciones.map((s) => [s.motivo, s.estado])).toEqual([
      ['baja', 'entregado'],
      ['alta', 'entregado'],
    ]);
  });

  it('a queue left by a dispatcher that died is sent once, never what may have left', async () => {
    // The SMSC throttles every submit: the acknowledgements wait in the queue for a retry.
    smsc.maxPorSegundo = 0;
    await smsc.enviarMo({ de: `52${TELS[2]}`, texto: '1' });
    await smsc.enviarMo({ de: `52${TELS[3]}`, texto: '1' });
    const enCola = async () =>
      (await sueltos()).filter((s) => s.motivo === 'acuse' && s.telefono !== TELS[0]);
    await esperarQue(
      async () => {
        const s = await enCola();
        return s.length === 2 && s.every((x) => x.intentos >= 1 && x.estado === 'pendiente');
      },
      'dos acuses esperando su reintento',
      10_000,
      enCola,
    );
    await despachador!.detener();
    despachador = undefined;
    // As a SIGKILL leaves them: TELS[2]'s claimed but never left, TELS[3]'s left and its answer
    // lost (its SMPP submit may have reached the SMSC: never resent).
    // By phone, not by position: the two replies may be stored in either order.
    const porTelefono = async () => {
      const s = await enCola();
      return [TELS[2], TELS[3]].map((t) => s.find((x) => x.telefono === t)!);
    };
    const [s3, s4] = await porTelefono();
    const vencido = Date.now() - 1;
    await api.ctx.db.kysely
      .updateTable('mensajes_sueltos')
      .set({ estado: 'en_curso', salio: 0, lease_hasta: vencido })
      .where('id_suelto', '=', s3!.id_suelto)
      .execute();
    await api.ctx.db.kysely
      .updateTable('mensajes_sueltos')
      .set((eb) => ({
        estado: 'en_curso',
        salio: 1,
        intentos: eb('intentos', '+', 1),
        lease_hasta: vencido,
      }))
      .where('id_suelto', '=', s4!.id_suelto)
      .execute();
    smsc.maxPorSegundo = undefined;
    await arrancar();
    await esperarQue(async () => textosA(TELS[2]).includes(ACUSE_1), 'el acuse que quedó en cola');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(textosA(TELS[2]).filter((t) => t === ACUSE_1)).toHaveLength(1);
    expect(textosA(TELS[3]).filter((t) => t === ACUSE_1)).toHaveLength(0);
    const [d3, d4] = await porTelefono();
    expect(d3).toMatchObject({ estado: 'entregado' });
    expect(d4).toMatchObject({ estado: 'incierto', error: MENSAJES.envioIncierto });
    // Nothing sent before the restart went again.
    expect(textosA(TELS[0]).filter((t) => t === ACUSE_2)).toHaveLength(1);
    expect(textosA(TELS[1]).filter((t) => t === MENSAJES.confirmacionBaja)).toHaveLength(1);
  });

  it("an unrecognised reply classified by hand gets the option's acknowledgement once", async () => {
    // TELS[1] answered BAJA and ALTA only: no option yet, no acknowledgement.
    await smsc.enviarMo({ de: `52${TELS[1]}`, texto: 'quien habla?' });
    const reconocer = async () =>
      api.ctx.db.kysely
        .selectFrom('respuestas_recibidas')
        .select(['id_respuesta', 'clasificacion'])
        .where('texto', '=', 'quien habla?')
        .executeTakeFirst();
    await esperarQue(
      async () => (await reconocer())?.clasificacion === 'no_reconocida',
      'la respuesta no reconocida',
    );
    const { id_respuesta } = (await reconocer())!;
    const antes = textosA(TELS[1]).length;
    const smsAcuses = async () => {
      const lista = await pedir(api.url, 'GET', '/ejercicios/', { token: operador });
      return Number(
        (lista.body.data ?? lista.body).find(
          (f: { id_ejercicio: number }) => f.id_ejercicio === id_ejercicio,
        ).sms_acuses,
      );
    };
    const acusesAntes = await smsAcuses();
    const c = await pedir(api.url, 'POST', `/respuestas/${id_respuesta}/clasificar/`, {
      token: operador,
      body: { digito: 1 },
    });
    expect(c.status).toBe(200);
    await esperarQue(
      async () => textosA(TELS[1]).includes(ACUSE_1),
      'el acuse de la clasificación',
    );
    // Answering again ('1' now recognised) sends nothing more: once per person.
    await smsc.enviarMo({ de: `52${TELS[1]}`, texto: '1' });
    await esperarQue(
      async () =>
        (
          await api.ctx.db.kysely
            .selectFrom('respuestas_recibidas')
            .select('clasificacion')
            .where('telefono', '=', TELS[1])
            .where('texto', '=', '1')
            .executeTakeFirst()
        )?.clasificacion != null,
      "el '1' leído",
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(textosA(TELS[1]).slice(antes)).toEqual([ACUSE_1]);
    const acuses = (await sueltos()).filter((s) => s.motivo === 'acuse' && s.telefono === TELS[1]);
    expect(acuses).toHaveLength(1);
    expect(acuses[0]).toMatchObject({
      estado: 'entregado',
      id_respuesta,
      id_ejercicio,
      canal: 'smpp',
      texto: ACUSE_1,
      partes: analizarSms(ACUSE_1).partes,
    });
    // Counted in the exercise's SMS like the automatic ones, and audited.
    expect(await smsAcuses()).toBe(acusesAntes + analizarSms(ACUSE_1).partes);
    const audit = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select('detalle')
      .where('entidad', '=', 'respuesta')
      .where('id_entidad', '=', String(id_respuesta))
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detalle!)).toMatchObject({
      accion: 'clasificar',
      digito: 1,
      acuse: true,
    });
  });
});
