import { describe, expect, it } from 'vitest';
import { SimuladorSmpp, type OpcionesRecibo } from '@pregon/simulators/smpp';
import {
  desenlaceRecibo,
  direccionDestino,
  direccionOrigen,
  IndiceIds,
  type OpcionesDireccion,
} from './canal.ts';
import { esperarQue } from '../../../testing/comun.ts';
import { canalesSmpp } from '../../../testing/smpp.ts';

// SMPP conformance over loopback sockets against the simulator acting as a strict SMSC (issue 16):
// addresses typed with TON/NPI as SMPP 3.4 says, refusals of the device's addressing pausing the
// exercise, bind refusals told apart.

const preparar = canalesSmpp({
  sim: { retrasoReciboMs: 10 },
  config: { backoffMs: 200, backoffMaxMs: 400 },
});

const envio = (telefono: string, id_detalle = 1) => ({
  id_detalle,
  telefono,
  texto: 'Simulacro',
  intentos: 1,
  id_gateway: null,
});

const MX: OpcionesDireccion = { codigoPais: '52' };

describe('SMPP: direcciones (TON/NPI)', () => {
  it.each([
    ['5512345678', MX, { addr: '525512345678', ton: 1, npi: 1 }],
    ['+525512345678', MX, { addr: '525512345678', ton: 1, npi: 1 }],
    ['+1 (555) 123-4567', MX, { addr: '15551234567', ton: 1, npi: 1 }],
    ['0015551234567', MX, { addr: '15551234567', ton: 1, npi: 1 }],
    ['12ab', MX, { addr: '12ab', ton: 1, npi: 1 }],
    ['+525512345678', { ...MX, destTon: 2 }, { addr: '5512345678', ton: 2, npi: 1 }],
    ['5512345678', { ...MX, destTon: 0, destNpi: 0 }, { addr: '525512345678', ton: 0, npi: 0 }],
    ['5512345678', { codigoPais: '1' }, { addr: '15512345678', ton: 1, npi: 1 }],
  ])('destino %s → %j', (tel, o, esperado) => {
    expect(direccionDestino(tel, o)).toEqual(esperado);
  });

  it.each([
    ['', MX, { addr: '', ton: 0, npi: 0 }],
    ['PREGON', MX, { addr: 'PREGON', ton: 5, npi: 0 }],
    ['Alerta CDMX', MX, { addr: 'Alerta CDMX', ton: 5, npi: 0 }],
    ['911', MX, { addr: '911', ton: 3, npi: 0 }],
    ['12345678', MX, { addr: '12345678', ton: 3, npi: 0 }],
    ['5512345678', MX, { addr: '525512345678', ton: 1, npi: 1 }],
    ['+525512345678', MX, { addr: '525512345678', ton: 1, npi: 1 }],
    ['911', { ...MX, origenTon: 0, origenNpi: 1 }, { addr: '911', ton: 0, npi: 1 }],
  ])('origen %j → %j', (o, op, esperado) => {
    expect(direccionOrigen(o, op)).toEqual(esperado);
  });

  it('un SMSC estricto acepta destino internacional y origen alfanumérico o corto tal como se envían', async () => {
    for (const source_addr of ['PREGON', '911', '']) {
      const p = await preparar({ source_addr });
      const r = await p.canal.enviar(envio('5512345678'));
      expect(r).toMatchObject({ tipo: 'aceptado' });
      expect(p.sim.registro.map((m) => m.telefono)).toEqual(['+525512345678']);
      expect(p.sim.rechazos).toEqual([]);
    }
  });

  it('un número que no es número queda invalido (RINVDSTADR) sin pausar', async () => {
    const p = await preparar({ source_addr: 'PREGON' });
    const r = await p.canal.enviar(envio('12ab'));
    expect(r).toEqual({ tipo: 'invalido', motivo: 'SMPP 0xb' });
    // The next recipient still goes: the device is fine.
    expect(await p.canal.enviar(envio('5512345678', 2))).toMatchObject({ tipo: 'aceptado' });
  });

  it.each([
    ['RINVDSTTON', { dest_addr_ton: 0 }, 0x50],
    ['RINVDSTNPI', { dest_addr_npi: 0 }, 0x51],
    ['RINVSRCTON', { source_addr: 'PREGON', source_addr_ton: 1 }, 0x48],
    ['RINVSRCNPI', { source_addr: 'PREGON', source_addr_npi: 1 }, 0x49],
    ['RINVSRCADR', { source_addr: 'ALERTA SISMICA CDMX' }, 0x0a],
  ])(
    'un rechazo del direccionamiento del equipo (%s) pausa con motivo en español, sin culpar al destinatario',
    async (estado, smpp, codigo) => {
      const p = await preparar(smpp);
      const r = await p.canal.enviar(envio('5512345678'));
      expect(r).toMatchObject({ tipo: 'reintentar', pausar: true });
      expect((r as { motivo: string }).motivo).toMatch(
        new RegExp(`^El SMSC rechazó el direccionamiento del equipo SMSC \\(${estado}; origen `),
      );
      expect(p.sim.rechazos.map((x) => x.estado)).toEqual([codigo]);
      expect(p.sim.registro).toHaveLength(0);
    },
  );

  it('un SMSC laxo (estricto: false) acepta el destino con + y TON 0 que antes se enviaba', async () => {
    const p = await preparar({ dest_addr_ton: 0, dest_addr_npi: 0 }, { estricto: false });
    expect(await p.canal.enviar(envio('5512345678'))).toMatchObject({ tipo: 'aceptado' });
  });
});

describe('SMPP: rechazos del bind', () => {
  it.each([
    ['contraseña mala (RINVPASWD)', { password: 'x' }, 'RINVPASWD'],
    ['system_id desconocido (RINVSYSID)', { system_id: 'otro' }, 'RINVSYSID'],
  ])('%s: pausa como credenciales rechazadas', async (_, smpp, nombre) => {
    const p = await preparar(smpp);
    const r = await p.canal.enviar(envio('5512345678'));
    expect(r).toMatchObject({ tipo: 'reintentar', pausar: true });
    expect((r as { motivo: string }).motivo).toMatch(
      new RegExp(
        `^Las credenciales del equipo SMSC no son válidas para SMPP: bind_transceiver ${nombre}`,
      ),
    );
  });

  it('cuenta sin sesiones libres (RALYBND): reintenta con espera, sin pausar, y liga cuando se libera', async () => {
    const sim = new SimuladorSmpp({ system_id: 'u', password: 'p', maxBinds: 1 });
    await sim.iniciar();
    const primero = await preparar({}, {}, sim);
    expect(await primero.canal.enviar(envio('5512345678'))).toMatchObject({ tipo: 'aceptado' });
    const segundo = await preparar({}, {}, sim);
    const r = await segundo.canal.enviar(envio('5512345679'));
    expect(r).toEqual({
      tipo: 'reintentar',
      pausar: false,
      motivo:
        'El SMSC no admite otra sesión de SMSC por ahora (RALYBND: ya ligada o sin sesiones libres); se reintenta',
    });
    const binds = sim.binds.length;
    // Within the backoff no new bind is tried.
    expect(await segundo.canal.enviar(envio('5512345679'))).toMatchObject({
      tipo: 'reintentar',
      motivo: expect.stringMatching(/RALYBND/),
    });
    expect(sim.binds.length).toBe(binds);
    // The first dispatcher lets its session go: the second binds after its backoff.
    await primero.canal.cerrar();
    const ok = await esperarQue(async () => {
      const x = await segundo.canal.enviar(envio('5512345679'));
      return x.tipo === 'aceptado' ? x : undefined;
    }, 'el segundo canal liga');
    expect(ok).toMatchObject({ tipo: 'aceptado' });
  });
});

describe('SMPP: acuses de entrega', () => {
  it('IndiceIds: igual, ceros y mayúsculas, hex→decimal y decimal→hex; la forma habitual decide lo ambiguo', () => {
    const ix = new IndiceIds();
    ix.agregar('0000A1B2');
    expect(ix.buscar('a1b2')).toBe('0000A1B2');
    expect(ix.buscar('0000041394')).toBe('0000A1B2'); // 0xA1B2 = 41394
    ix.agregar('1234');
    expect(ix.buscar('4d2')).toBe('1234'); // decimal 1234 quoted in hex
    expect(ix.buscar('zzz')).toBeUndefined();
    // This SMSC answers hex and quotes decimal: after a few such receipts, a receipt '256' that
    // could be the id '256' (as is) or '100' (0x100 = 256) goes to '100'.
    const h = new IndiceIds();
    for (const id of ['AA', 'BB', 'CC']) {
      h.agregar(id);
      expect(h.buscar(String(parseInt(id, 16)))).toBe(id);
      h.quitar(id);
    }
    h.agregar('100');
    h.agregar('256');
    expect(h.buscar('256')).toBe('100');
    ix.quitar('0000A1B2');
    expect(ix.buscar('a1b2')).toBeUndefined();
  });

  it.each([
    ['DELIVRD', '000', { entregado: true }],
    [
      'EXPIRED',
      '000',
      { entregado: false, motivo: 'SMPP: venció sin entregarse (EXPIRED, err:000)' },
    ],
    [
      'DELETED',
      '001',
      {
        entregado: false,
        motivo: 'SMPP: el SMSC borró el mensaje sin entregarlo (DELETED, err:001)',
      },
    ],
    ['UNDELIV', '00B', { entregado: false, motivo: 'SMPP: no entregable (UNDELIV, err:00B)' }],
    [
      'REJECTD',
      '0C1',
      { entregado: false, motivo: 'SMPP: rechazado por la red (REJECTD, err:0C1)' },
    ],
    ['ACCEPTD', '000', undefined],
    ['ENROUTE', '000', undefined],
    ['UNKNOWN', '000', undefined],
  ])('stat:%s err:%s → %j', (stat, err, esperado) => {
    expect(desenlaceRecibo(stat, err)).toEqual(esperado);
  });

  const casos: [string, OpcionesRecibo][] = [
    ['TLV receipted_message_id', {}],
    ['id hex sin TLV, ceros a la izquierda en el submit', { idSubmit: 'hex', sinTlv: true }],
    [
      'id decimal con ceros sin TLV, submit en hex',
      { idSubmit: 'hex', idRecibo: 'decimal', sinTlv: true },
    ],
    ['id hex en el texto, submit decimal', { idSubmit: 'decimal', idRecibo: 'hex', sinTlv: true }],
    [
      'acuse en message_payload',
      { idSubmit: 'hex', idRecibo: 'decimal', sinTlv: true, enPayload: true },
    ],
  ];
  it.each(casos)('%s: el acuse encuentra su envío', async (_, recibos) => {
    const p = await preparar({}, { recibos, primerId: 0xa0 });
    const r = await p.canal.enviar(envio('5512345678'));
    expect(r).toMatchObject({ tipo: 'aceptado' });
    const id = (r as { id_gateway: string }).id_gateway;
    await esperarQue(async () => p.recibos.length > 0, 'el acuse');
    // The receipt names its recipient (source_addr): issue 48.6 finds a row whose id was lost.
    expect(p.recibos).toEqual([
      {
        id_equipo: 7,
        id_gateway: id,
        entregado: true,
        motivo: undefined,
        telefono: '525512345678',
      },
    ]);
  });

  it('EXPIRED con err y sin TLV (message_state ausente): fallido con el motivo; ACCEPTD no cambia nada', async () => {
    const p = await preparar(
      {},
      {
        recibos: {
          idSubmit: 'hex',
          idRecibo: 'decimal',
          sinTlv: true,
          stat: 'EXPIRED',
          err: '027',
        },
      },
    );
    const r = await p.canal.enviar(envio('5512345678'));
    await esperarQue(async () => p.recibos.length > 0, 'el acuse');
    expect(p.recibos).toEqual([
      {
        id_equipo: 7,
        id_gateway: (r as { id_gateway: string }).id_gateway,
        entregado: false,
        motivo: 'SMPP: venció sin entregarse (EXPIRED, err:027)',
        telefono: '525512345678',
      },
    ]);
    p.sim.recibos.stat = 'ACCEPTD';
    await p.canal.enviar(envio('5512345679', 2));
    await new Promise((x) => setTimeout(x, 150));
    expect(p.recibos).toHaveLength(1);
  });

  it('un deliver_sm que no es acuse o un acuse sin id se cuentan y registran, no se pierden callados', async () => {
    const p = await preparar();
    const sin = p.sinDestino;
    await p.canal.enviar(envio('5512345678'));
    p.sim.enviarDeliver({ source_addr: '525512345678', esm_class: 0, short_message: 'hola' });
    p.sim.enviarDeliver({
      source_addr: '525512345678',
      esm_class: 4,
      short_message: 'stat:DELIVRD',
    });
    await esperarQue(async () => sin.length === 2, 'dos avisos');
    expect(sin).toEqual([
      'SMPP SMSC: deliver_sm que no es acuse (esm_class 0x0): hola',
      'SMPP SMSC: acuse sin id: stat:DELIVRD',
    ]);
  });
});

describe('SMPP: enquire_link', () => {
  it('responde el enquire_link del SMSC', async () => {
    const p = await preparar();
    expect(await p.canal.enviar(envio('5512345678'))).toMatchObject({ tipo: 'aceptado' });
    expect(await p.sim.sondear()).toBe(1);
  });

  it('un enquire_link sin respuesta descarta la sesión y liga otra en seguida', async () => {
    // A short period for the test: enquire_link every 200 ms, answered within 200 ms.
    const { sim, canal } = await preparar({}, {}, undefined, { enquireLinkS: 0.2 });
    expect(await canal.enviar(envio('5512345678'))).toMatchObject({ tipo: 'aceptado' });
    expect(sim.binds).toHaveLength(1);
    // A live link: enquire_link answered, no rebind.
    await new Promise((r) => setTimeout(r, 500));
    expect(sim.binds).toHaveLength(1);
    sim.responderEnquireLink = false;
    await esperarQue(async () => sim.binds.length >= 2, 'otro bind tras el enquire_link mudo');
    sim.responderEnquireLink = true;
    expect((canal as unknown as { enlacesCaidos: number }).enlacesCaidos).toBeGreaterThanOrEqual(1);
    expect(await canal.enviar(envio('5512345679', 2))).toMatchObject({ tipo: 'aceptado' });
  });

  it('un envío en vuelo sobre un enlace mudo queda incierto con el motivo, no espera su plazo', async () => {
    const { sim, canal } = await preparar({}, {}, undefined, {
      enquireLinkS: 0.2,
      timeoutEnvioMs: 10_000,
    });
    expect(await canal.enviar(envio('5512345678'))).toMatchObject({ tipo: 'aceptado' });
    sim.responderEnquireLink = false;
    await sim.ajustar({ latenciaMs: 5_000 });
    const t0 = Date.now();
    const r = await canal.enviar(envio('5512345679', 2));
    expect(r).toEqual({
      tipo: 'incierto',
      motivo:
        'SMPP: el SMSC dejó de responder enquire_link; la sesión se descartó y el mensaje pudo haberse enviado',
    });
    expect(Date.now() - t0).toBeLessThan(2_000);
  });
});
