import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { canalDe, type Canal, type Recibo } from '../../canal.ts';
import { leerRecibo } from './canal.ts';
import { CONFIG_PRUEBA, esperarQue } from '../../../testing/comun.ts';

// The SMPP channel against a gateway that misbehaves at connection time.

const crear = (url: string, timeoutEnvioMs: number): Canal =>
  canalDe('smpp')!.crear({
    equipo: { id_equipo: 1, alias: 'SMSC', url, protocolo: 'smpp', credenciales: {} },
    config: { ...CONFIG_PRUEBA, timeoutEnvioMs },
    alRecibo: () => {},
  });

const envio = {
  id_detalle: 1,
  telefono: '+525512345678',
  texto: 'Simulacro',
  intentos: 1,
  id_gateway: null,
};

describe('canal SMPP', () => {
  // Accepts TCP connections and never says a word: no bind_transceiver_resp, no close.
  const sockets = new Set<net.Socket>();
  let cerrados = 0;
  const mudo = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => cerrados++);
    s.resume();
  });
  let puerto = 0;
  beforeAll(async () => {
    await new Promise<void>((r) => mudo.listen(0, '127.0.0.1', r));
    puerto = (mudo.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => mudo.close(r));
  });

  it('una pasarela que acepta el socket y nunca responde al bind: reintentar tras el plazo, sin colgar los envíos', async () => {
    const canal = crear(`smpp://127.0.0.1:${puerto}`, 400);
    try {
      const t0 = Date.now();
      const r = await Promise.all([canal.enviar(envio), canal.enviar({ ...envio, id_detalle: 2 })]);
      expect(r).toEqual([
        {
          tipo: 'reintentar',
          motivo: 'SMPP: sin respuesta al conectar',
          pausar: false,
          sinConexion: true,
        },
        {
          tipo: 'reintentar',
          motivo: 'SMPP: sin respuesta al conectar',
          pausar: false,
          sinConexion: true,
        },
      ]);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(350);
      expect(Date.now() - t0).toBeLessThan(3_000);
      // The silent socket was dropped, not left open.
      await new Promise((r) => setTimeout(r, 100));
      expect(sockets.size).toBeGreaterThan(0);
      expect(cerrados).toBe(sockets.size);
    } finally {
      await canal.cerrar();
    }
  });

  it('tras el plazo vuelve a conectar: cuando la pasarela responde, el envío se acepta', async () => {
    const sim = new SimuladorSmpp();
    await sim.iniciar();
    const canal = crear(sim.url, 2_000);
    try {
      const r = await canal.enviar(envio);
      expect(r).toMatchObject({ tipo: 'aceptado' });
      expect(sim.registro.map((m) => m.telefono)).toEqual(['+525512345678']);
    } finally {
      await canal.cerrar();
      await sim.detener();
    }
  });

  it('lee id, stat y err del texto de un acuse de entrega', () => {
    expect(
      leerRecibo(
        'id:ab12 sub:001 dlvrd:001 submit date:2611220101 done date:2611220101 stat:DELIVRD err:000 text:x',
      ),
    ).toEqual({ id: 'ab12', stat: 'DELIVRD', err: '000' });
    expect(leerRecibo('sin campos')).toEqual({ id: undefined, stat: undefined, err: undefined });
    // 'id:' only as a field of its own, not inside another word.
    expect(leerRecibo('xid:1 id:0042 stat:undeliv err:00B').id).toBe('0042');
  });
});

describe('canal SMPP sobre TLS (ssmpp://)', () => {
  // A self-signed certificate for 127.0.0.1 made here with openssl, as a test SMSC would have.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-ssmpp-'));
  let sim: SimuladorSmpp;
  let cert = '';
  beforeAll(async () => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=smsc-prueba',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'clave.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
    sim = new SimuladorSmpp({
      retrasoReciboMs: 10,
      tls: { key: fs.readFileSync(path.join(dir, 'clave.pem'), 'utf8'), cert },
    });
    await sim.iniciar();
  });
  afterAll(async () => {
    await sim?.detener();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const canalTls = (credenciales: Record<string, string>, recibos: Recibo[] = []) =>
    canalDe('smpp')!.crear({
      equipo: {
        id_equipo: 1,
        alias: 'SMSC',
        url: sim.url,
        protocolo: 'smpp',
        credenciales: { smpp: credenciales },
      },
      config: { ...CONFIG_PRUEBA, timeoutEnvioMs: 2_000 },
      alRecibo: (r) => {
        recibos.push(r);
      },
    });

  it('con la CA del SMSC: el bind, el envío y su acuse van cifrados', async () => {
    expect(sim.url).toMatch(/^ssmpp:\/\/127\.0\.0\.1:\d+$/);
    const recibos: Recibo[] = [];
    const canal = canalTls({ tls_ca: cert }, recibos);
    try {
      const r = await canal.enviar(envio);
      expect(r.tipo).toBe('aceptado');
      expect(sim.registro.at(-1)).toMatchObject({ telefono: '+525512345678', texto: 'Simulacro' });
      await esperarQue(async () => recibos.length === 1, 'el acuse', 3_000);
      expect(recibos[0]).toMatchObject({ entregado: true });
    } finally {
      await canal.cerrar();
    }
  });

  it('un certificado que no se puede verificar: no se envía nada (reintentar con el motivo)', async () => {
    const antes = sim.registro.length;
    const canal = canalTls({});
    try {
      const r = await canal.enviar(envio);
      expect(r).toMatchObject({ tipo: 'reintentar' });
      expect(r.tipo === 'reintentar' && r.motivo).toMatch(/^SMPP: .*(self.signed|certificate)/i);
      expect(sim.registro.length).toBe(antes);
    } finally {
      await canal.cerrar();
    }
    // Only where the device says so (a test SMSC) is any certificate taken.
    const inseguro = canalTls({ tls_verificar: 'false' });
    try {
      expect((await inseguro.enviar(envio)).tipo).toBe('aceptado');
    } finally {
      await inseguro.cerrar();
    }
  });
});
