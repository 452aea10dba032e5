import smpp from 'smpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { empaquetarGsm, septetosGsm } from '@pregon/contract/rules/sms';
import { pdusMo, SimuladorSmpp } from '@pregon/simulators/smpp';
import type { Db } from '@pregon/db/database';
import { abrirBaseSembrada, MOTORES } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { canalDe, type Canal, type RespuestaEntrante } from '@pregon/despacho/canal';
import '@pregon/despacho/canales/smpp/canal';
import { arrancarDespachador, storePara } from './index.ts';
import {
  alfabetoMo,
  decodificarMo,
  leerDeliver,
  leerParteMo,
  PLAZO_PARTES_MO_MS,
  VENTANA_DUPLICADO_MS,
} from '@pregon/despacho/canales/smpp/mo';
import type { Store } from '@pregon/despacho/store';
import { CONFIG_PRUEBA, esperarQue } from '@pregon/despacho/testing/comun';

// Replies over SMPP (issue 46): a mobile-originated deliver_sm read from its octets in each
// coding, long replies joined, each stored once (the SMSC resends what was not acknowledged),
// hostile texts stored as data, unknown senders in the inbox; on both engines, over real sockets.

/** The body of a deliver_sm (the octets after command_length) as the `smpp` package writes it. */
const cuerpoDe = (campos: object): Buffer =>
  (
    new (smpp as unknown as { PDU: new (c: string, o: object) => { toBuffer(): Buffer } }).PDU(
      'deliver_sm',
      campos,
    ).toBuffer() as Buffer
  ).subarray(4);
const ucs2 = (t: string) => Buffer.from(t, 'utf16le').swap16();

describe('lectura de una respuesta SMPP (deliver_sm MO)', () => {
  it.each([
    [
      'GSM-7 con la tabla de extensión',
      0,
      Buffer.from(septetosGsm('¿Sì? 1 {€} [x] ~^|\\ ñÑ@$_é')),
      'GSM-7',
      '¿Sì? 1 {€} [x] ~^|\\ ñÑ@$_é',
    ],
    ['Latin-1', 3, Buffer.from('Año, sí señor ¿ok?', 'latin1'), 'Latin-1', 'Año, sí señor ¿ok?'],
    ['UCS-2 con emoji (par sustituto)', 8, ucs2('Sí 👍 опрос 1'), 'UCS-2', 'Sí 👍 опрос 1'],
    [
      'UCS-2 con NUL y un sustituto suelto',
      8,
      Buffer.from([0, 0x41, 0, 0, 0xd8, 0x3d, 0, 0x42]),
      'UCS-2',
      'A\uFFFD\uFFFDB',
    ],
  ])('%s', (_, dc, octetos, codificacion, texto) => {
    expect(decodificarMo(dc, octetos)).toEqual({ texto, codificacion });
  });

  it.each([
    [0x00, 'GSM-7'],
    [0x01, 'GSM-7'],
    [0x03, 'Latin-1'],
    [0x08, 'UCS-2'],
    [0x02, null],
    [0x04, null],
    [0x10, 'GSM-7'],
    [0x18, 'UCS-2'],
    [0x14, null],
    [0x30, null],
    [0xc0, 'GSM-7'],
    [0xe1, 'UCS-2'],
    [0xf1, 'GSM-7'],
    [0xf6, null],
  ])('data_coding 0x%s: alfabeto %s', (dc, alfabeto) => {
    expect(alfabetoMo(dc)).toBe(alfabeto);
  });

  it('una codificación desconocida se guarda en hexadecimal, con una nota', () => {
    expect(decodificarMo(4, Buffer.from([0xde, 0xad, 0x00]))).toEqual({
      texto: 'dead00',
      codificacion: '0x04',
      nota: 'Respuesta con data_coding 0x04, que no es texto conocido: se guardó en hexadecimal',
    });
  });

  it.each([
    ['UDH de referencia de 8 bits', 'udh8' as const, { ref: 0xab, total: 2, seq: 1 }],
    ['UDH de referencia de 16 bits', 'udh16' as const, { ref: 0xabcd, total: 2, seq: 1 }],
    ['TLV sar_*', 'sar' as const, { ref: 0xabcd, total: 2, seq: 1 }],
  ])('concatenación por %s', (_, concatenacion, parte) => {
    const [primera] = pdusMo(
      { de: '525512345678', texto: 'uno dos', concatenacion, porParte: 4 },
      parte.ref,
    );
    const p = leerParteMo(leerDeliver(cuerpoDe(primera!)));
    expect(p.parte).toEqual(parte);
    expect(decodificarMo(p.data_coding, p.contenido).texto).toBe('uno ');
    expect(p.telefono).toBe('5512345678');
  });

  it('message_payload, remitentes y GSM-7 empaquetado tras un UDH', () => {
    const [pl] = pdusMo({ de: '14155550100', texto: 'payload ñ', concatenacion: 'payload' }, 1);
    const p = leerParteMo(leerDeliver(cuerpoDe(pl!)));
    expect([p.parte, decodificarMo(p.data_coding, p.contenido).texto]).toEqual([
      undefined,
      'payload ñ',
    ]);
    expect(p.telefono).toBe('+14155550100');
    const alfa = leerParteMo(
      leerDeliver(cuerpoDe({ source_addr: 'BANCO', source_addr_ton: 5, short_message: 'x' })),
    );
    expect(alfa.telefono).toBeNull();
    // Packed septets after a 6-octet UDH start after 1 fill bit.
    const udh = Buffer.from([5, 0, 3, 9, 2, 2]);
    const cuerpo = Buffer.concat([udh, Buffer.from(empaquetarGsm(septetosGsm('dos €'), 1))]);
    const emp = leerParteMo(
      leerDeliver(
        cuerpoDe({ source_addr: '5215512345678', esm_class: 0x40, short_message: cuerpo }),
      ),
      true,
    );
    expect(emp.parte).toEqual({ ref: 9, total: 2, seq: 2 });
    expect(decodificarMo(0, emp.contenido).texto).toBe('dos €');
  });

  it('un deliver_sm truncado se rechaza al leerlo (se guarda crudo, no se pierde)', () => {
    expect(() => leerDeliver(cuerpoDe({ short_message: 'hola' }).subarray(0, 30))).toThrow(
      /truncado/,
    );
  });
});

describe.each(MOTORES)('respuestas SMPP guardadas (%s)', (motor) => {
  let db: Db;
  let limpiar: () => Promise<void>;
  let store: Store;
  let sim: SimuladorSmpp;
  let canal: Canal;
  /** Storage failures to simulate: 'antes' (nothing stored) or 'despues' (stored, answer lost). */
  const fallas: ('antes' | 'despues' | null)[] = [];
  let ana = 0;

  beforeAll(async () => {
    ({ db, limpiar } = await abrirBaseSembrada(motor));
    store = storePara(db);
    ({ id_telefono: ana } = await db.kysely
      .insertInto('telefonos')
      .values({
        telefono: '5512345678',
        nombre: 'Ana',
        nombre_busqueda: 'ana',
        id_estado: null,
        creado: 0,
      })
      .returning('id_telefono')
      .executeTakeFirstOrThrow());
    sim = new SimuladorSmpp({ system_id: 'u', password: 'p', reintentoMoMs: 150 });
    await sim.iniciar();
    canal = canalDe('smpp')!.crear({
      equipo: {
        id_equipo: 7,
        alias: 'SMSC',
        url: sim.url,
        protocolo: 'smpp',
        credenciales: { smpp: { system_id: 'u', password: 'p' } },
      },
      config: CONFIG_PRUEBA,
      alRecibo: () => {},
      alRespuesta: async (r: RespuestaEntrante) => {
        const f = fallas.shift();
        if (f === 'antes') throw new Error('la base no responde');
        await store.guardarRespuesta(r, Date.now());
        if (f === 'despues') throw new Error('se cayó antes de responder');
      },
    });
    await canal.escuchar?.();
  });
  afterAll(async () => {
    await canal?.cerrar();
    await sim?.detener();
    await limpiar?.();
  });

  const de = (remitente: string) =>
    db.kysely
      .selectFrom('respuestas_recibidas')
      .selectAll()
      .where('remitente', '=', remitente)
      .orderBy('id_respuesta')
      .execute();

  it('una respuesta en cada codificación se guarda una vez, con su texto, el crudo y el teléfono', async () => {
    await sim.enviarMo({ de: '525512345678', texto: '¡Si!, 1 € ñ' });
    await sim.enviarMo({ de: '525512345678', texto: 'Año 2', data_coding: 3 });
    await sim.enviarMo({ de: '525512345678', texto: 'Sí 👍 3' });
    await sim.enviarMo({
      de: '525512345678',
      texto: '',
      data_coding: 0xf6,
      octetos: Buffer.from([1, 2]),
    });
    const filas = await de('525512345678');
    expect(filas.map((f) => [f.texto, f.codificacion, f.id_telefono, f.telefono])).toEqual([
      ['¡Si!, 1 € ñ', 'GSM-7', ana, '5512345678'],
      ['Año 2', 'Latin-1', ana, '5512345678'],
      ['Sí 👍 3', 'UCS-2', ana, '5512345678'],
      ['0102', '0xf6', ana, '5512345678'],
    ]);
    expect(filas[2]!.texto_crudo).toBe(ucs2('Sí 👍 3').toString('hex'));
    expect(filas[3]!.nota).toMatch(/data_coding 0xf6/);
    expect(filas.every((f) => f.canal === 'smpp' && f.id_equipo === 7 && f.partes === 1)).toBe(
      true,
    );
    expect(filas.every((f) => f.id_ejercicio === null && f.fecha_recibida > 0)).toBe(true);
  });

  it('respuestas largas (UDH de 8 y 16 bits, sar_*, message_payload) se unen en una', async () => {
    const largo = 'Respuesta larga: '.padEnd(170, 'x') + ' fin {€}';
    await sim.enviarMo({ de: '5215500000001', texto: largo, concatenacion: 'udh8' });
    await sim.enviarMo({
      de: '5215500000002',
      texto: `${largo} 👍`,
      concatenacion: 'udh16',
      porParte: 60,
    });
    await sim.enviarMo({ de: '5215500000003', texto: largo, concatenacion: 'sar', porParte: 50 });
    await sim.enviarMo({ de: '5215500000004', texto: largo, concatenacion: 'payload' });
    const r = await Promise.all([1, 2, 3, 4].map((i) => de(`521550000000${i}`)));
    expect(r.map((f) => f.map((x) => [x.texto, x.partes, x.incompleta]))).toEqual([
      [[largo, 2, 0]],
      [[`${largo} 👍`, 3, 0]],
      [[largo, 4, 0]],
      [[largo, 1, 0]],
    ]);
    // Joined sets leave no part waiting.
    const sueltas = await db.kysely
      .selectFrom('respuestas_partes')
      .select('parte')
      .where('unida', '=', 0)
      .execute();
    expect(sueltas).toEqual([]);
  });

  it('la misma respuesta reenviada por el SMSC se guarda una vez', async () => {
    const antes = sim.mo.entregados;
    await sim.enviarMo({ de: '525500000010', texto: 'SI' });
    await sim.enviarMo({ de: '525500000010', texto: 'SI' });
    await sim.enviarMo({
      de: '525500000010',
      texto: 'parte y parte',
      concatenacion: 'udh8',
      porParte: 5,
      ref: 77,
    });
    await sim.enviarMo({
      de: '525500000010',
      texto: 'parte y parte',
      concatenacion: 'udh8',
      porParte: 5,
      ref: 77,
    });
    expect(sim.mo.entregados - antes).toBe(8);
    expect((await de('525500000010')).map((f) => f.texto)).toEqual(['SI', 'parte y parte']);
  });

  it('si guardar falla: respuesta de error, el SMSC la reenvía y queda guardada una vez', async () => {
    const rechazos = sim.mo.rechazados;
    fallas.push('antes', 'despues');
    await sim.enviarMo({ de: '525500000020', texto: 'NO' });
    expect(sim.mo.rechazados - rechazos).toBe(2);
    // A long reply whose last part fails after its set was joined: stored once too.
    fallas.push(null, null, 'despues');
    await sim.enviarMo({
      de: '525500000021',
      texto: 'una dos tres',
      concatenacion: 'sar',
      porParte: 4,
    });
    expect(sim.mo.rechazados - rechazos).toBe(3);
    expect((await de('525500000020')).map((f) => f.texto)).toEqual(['NO']);
    expect((await de('525500000021')).map((f) => f.texto)).toEqual(['una dos tres']);
  });

  it('textos hostiles: 1,600 octetos UCS-2 y caracteres de control se guardan como datos', async () => {
    const hostil =
      "\u0000\u0007\u001b[31m'; drop table respuestas_recibidas; -- <script>x</script>\r\n";
    const texto = hostil + '👍'.repeat((800 - hostil.length) / 2);
    expect(ucs2(texto).length).toBe(1_600);
    await sim.enviarMo({ de: '525500000030', texto, data_coding: 8, concatenacion: 'payload' });
    const [f] = await de('525500000030');
    expect(f!.texto).toBe(texto.replace('\u0000', '\uFFFD'));
    expect(f!.texto_crudo).toBe(ucs2(texto).toString('hex'));
    // Binary octets, NUL included, in an unknown coding: kept as hexadecimal.
    await sim.enviarMo({
      de: '525500000031',
      texto: '',
      data_coding: 0x04,
      octetos: Buffer.from([0, 0xff, 0x1b]),
    });
    expect((await de('525500000031'))[0]!.texto).toBe('00ff1b');
  });

  it('un remitente que no está en teléfonos queda en la bandeja (id_telefono NULL)', async () => {
    await sim.enviarMo({ de: '14155550100', texto: 'quien soy' });
    await sim.enviarMo({ de: 'PROMO', texto: 'alfanumerico' });
    const f = [...(await de('14155550100')), ...(await de('PROMO'))];
    expect(f.map((x) => [x.telefono, x.id_telefono, x.id_ejercicio, x.texto])).toEqual([
      ['+14155550100', null, null, 'quien soy'],
      [null, null, null, 'alfanumerico'],
    ]);
  });

  it('las partes de una respuesta que no se completa se guardan como incompleta al vencer', async () => {
    const parte = (seq: number): RespuestaEntrante => ({
      id_equipo: 7,
      canal: 'smpp',
      remitente: '525500000040',
      telefono: '5500000040',
      texto: '',
      codificacion: 'GSM-7',
      texto_crudo: `0500030103${seq}`,
      parte: {
        ref: 1,
        total: 3,
        seq,
        data_coding: 0,
        contenido: Buffer.from(septetosGsm(`p${seq} `)).toString('hex'),
      },
    });
    const t0 = Date.now();
    expect(await store.guardarRespuesta(parte(1), t0)).toBe('parcial');
    expect(await store.guardarRespuesta(parte(3), t0 + 1)).toBe('parcial');
    expect(await store.cerrarPartesVencidas(t0 + 10)).toBe(0);
    expect(await store.cerrarPartesVencidas(t0 + PLAZO_PARTES_MO_MS + 10)).toBe(1);
    // The missing part, late: a reply of its own (incomplete too); its resend, a duplicate.
    expect(await store.guardarRespuesta(parte(2), t0 + PLAZO_PARTES_MO_MS + 20)).toBe('nueva');
    expect(await store.guardarRespuesta(parte(2), t0 + PLAZO_PARTES_MO_MS + 30)).toBe('duplicada');
    expect(await store.guardarRespuesta(parte(1), t0 + PLAZO_PARTES_MO_MS + 40)).toBe('duplicada');
    const f = await de('525500000040');
    expect(f.map((x) => [x.texto, x.incompleta, x.partes, x.nota])).toEqual([
      ['p1 p3 ', 1, 3, 'Respuesta incompleta: llegaron 2 de 3 partes antes de 60 minutos'],
      ['p2 ', 1, 3, 'Respuesta incompleta: llegaron 1 de 3 partes antes de 60 minutos'],
    ]);
    // Joined sets are dropped once no resend can come.
    await store.cerrarPartesVencidas(t0 + VENTANA_DUPLICADO_MS + PLAZO_PARTES_MO_MS + 100);
    const quedan = await db.kysely
      .selectFrom('respuestas_partes')
      .select('parte')
      .where('remitente', '=', '525500000040')
      .execute();
    expect(quedan).toEqual([]);
  });

  it('con el despachador: una respuesta llega durante el simulacro, otra con el despachador caído y se toma al volver', async () => {
    const smsc = new SimuladorSmpp({ system_id: 'd', password: 'p', retrasoReciboMs: 60_000 });
    await smsc.iniciar();
    const id_equipo = await crearEquipo(db, {
      protocolo: 'smpp',
      url: smsc.url,
      credenciales: { system_id: 'd', password: 'p' },
    });
    const bitacora = { info: () => {}, error: () => {} };
    let d = await arrancarDespachador(db, CONFIG_PRUEBA, { bitacora });
    try {
      await crearEjercicio(db, { id_equipo, n: 1 });
      d.despachador.despertar();
      await esperarQue(async () => smsc.registro.length === 1, 'el envío del simulacro');
      await smsc.enviarMo({ de: '525512345678', texto: '1' });
      await d.detener();
      // While no dispatcher is bound, the SMSC holds the reply; the next one binds at its start
      // (its row still awaits a receipt) and takes it.
      const tomada = smsc.enviarMo({ de: '525512345678', texto: '2 👍' });
      await new Promise((r) => setTimeout(r, 300));
      expect(smsc.mo.entregados).toBe(1);
      d = await arrancarDespachador(db, CONFIG_PRUEBA, { bitacora });
      await tomada;
      const f = await db.kysely
        .selectFrom('respuestas_recibidas')
        .select(['texto', 'id_telefono', 'id_equipo'])
        .where('id_equipo', '=', id_equipo)
        .orderBy('id_respuesta')
        .execute();
      expect(f).toEqual([
        { texto: '1', id_telefono: ana, id_equipo },
        { texto: '2 👍', id_telefono: ana, id_equipo },
      ]);
    } finally {
      await d.detener();
      await smsc.detener();
    }
  });
});
