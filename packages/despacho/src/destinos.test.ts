import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import {
  busquedaGuardada,
  comprobarDestino,
  destinoPermitido,
  destinosDeEntorno,
  destinosPorDefecto,
  direccionRestringida,
  fijarDestinosPermitidos,
  leerDestinosPermitidos,
  problemaDestinoEquipo,
} from './destinos.ts';
import { CODIGO_URL, ErrorHttp, pedirJson, urlGateway } from './http-cliente.ts';

// Where a device's url may point (issue 49.3): the ranges refused, the setting's forms, and the
// check at each connection over a real socket.

describe('direccionRestringida: loopback, link-local, privadas y sin especificar', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['169.254.169.254', true],
    ['fe80::1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.5', true],
    ['fd12::1', true],
    ['0.0.0.0', true],
    ['::', true],
    ['172.32.0.1', false],
    ['8.8.8.8', false],
    ['2606:4700::1111', false],
    ['no-es-ip', false],
  ])('%s → %s', (ip, restringida) => {
    expect(direccionRestringida(ip)).toBe(restringida);
  });
});

describe('EQUIPOS_DESTINOS_PERMITIDOS', () => {
  const lista = leerDestinosPermitidos(
    '127.0.0.1:2775, smsc.lan:2775, [::1]:5038, 10.0.0.0/8, 192.168.1.5',
  );
  it.each([
    ['127.0.0.1', '127.0.0.1', 2775, true],
    ['127.0.0.1', '127.0.0.1', 5432, false],
    ['localhost', '127.0.0.1', 2775, true],
    ['localhost', '127.0.0.1', 8081, false],
    ['smsc.lan', '172.16.0.9', 2775, true],
    ['smsc.lan', '172.16.0.9', 2776, false],
    ['[::1]', '::1', 5038, true],
    ['::1', '::1', 2775, false],
    ['10.9.9.9', '10.9.9.9', 1, true],
    ['192.168.1.5', '192.168.1.5', 22, true],
    ['192.168.1.6', '192.168.1.6', 22, false],
    ['graph.facebook.com', '157.240.0.1', 443, true],
  ] as const)('%s (%s) puerto %d: %s', (host, ip, puerto, permitido) => {
    expect(destinoPermitido(lista, host, ip, puerto)).toBe(permitido);
  });
  it.each(['127.0.0.1:0', 'host:99999', '10.0.0.0/33', 'http://x:1', '*', 'a b:1'])(
    '%j: error que nombra la entrada',
    (texto) => {
      expect(() => leerDestinosPermitidos(texto)).toThrow(
        `EQUIPOS_DESTINOS_PERMITIDOS inválido: '${texto}'`,
      );
    },
  );
  it('por defecto, los puertos de los simuladores en su host; vacía no permite ninguno', () => {
    expect(destinosPorDefecto({})).toBe(
      '127.0.0.1:2775,127.0.0.1:8081,127.0.0.1:8082,127.0.0.1:5038',
    );
    expect(destinosPorDefecto({ SIM_SMPP_PORT: '3775', SIM_HOST: '::1' })).toContain('[::1]:3775');
    const defecto = destinosDeEntorno({});
    expect(destinoPermitido(defecto, '127.0.0.1', '127.0.0.1', 2775)).toBe(true);
    expect(destinoPermitido(defecto, '127.0.0.1', '127.0.0.1', 5432)).toBe(false);
    const vacia = destinosDeEntorno({ EQUIPOS_DESTINOS_PERMITIDOS: '' });
    expect(destinoPermitido(vacia, '127.0.0.1', '127.0.0.1', 2775)).toBe(false);
  });
  it('comprobarDestino resuelve el nombre: localhost es loopback', async () => {
    const nada = leerDestinosPermitidos('');
    const e = await comprobarDestino('localhost', 5432, nada);
    expect(e?.message).toMatch(/^El campo url apunta a localhost:5432, una dirección local/);
    expect(
      await comprobarDestino('localhost', 5432, leerDestinosPermitidos('localhost:5432')),
    ).toBe(null);
    // A name that does not resolve is left to the connection (its own 'no se encontró').
    expect(await comprobarDestino('no-existe.invalid', 80, nada)).toBe(null);
    expect(await problemaDestinoEquipo('smpp', 'smpp://127.0.0.1:5432', nada)).toBe(
      msg('destinoNoPermitido', { destino: '127.0.0.1:5432', ip: '127.0.0.1' }),
    );
    expect(await problemaDestinoEquipo('asterisk', '', nada)).toContain('127.0.0.1:5038');
  });
});

describe('urlGateway: la url base y partes codificadas', () => {
  const forma = { forma: 'formaUrlAndroid' } as const;
  it('une la base y cada parte codificada', () => {
    expect(urlGateway('http://h:8080/api/', ['message', 'a b/c'], forma)).toBe(
      'http://h:8080/api/message/a%20b%2Fc',
    );
    expect(urlGateway('http://h', ['message'], { ...forma, consulta: 'state=Pending' })).toBe(
      'http://h/message?state=Pending',
    );
  });
  it.each([
    ['http://h/auth/signin/#', ['message']],
    ['http://h/?x=1', ['message']],
    ['http://u:p@h', ['message']],
    ['http://h', ['..', 'auth']],
    ['http://h', ['.']],
    ['http://h', ['']],
  ])('%s %j: refusada sin enviar', (base, partes) => {
    expect(() => urlGateway(base, partes, forma)).toThrow(ErrorHttp);
    try {
      urlGateway(base, partes, forma);
    } catch (e) {
      expect((e as ErrorHttp).code).toBe(CODIGO_URL);
    }
  });
});

describe('pedirJson revisa el destino en cada conexión', () => {
  let servidor: http.Server;
  let puerto = 0;
  let pedidos = 0;
  beforeAll(async () => {
    servidor = http.createServer((_q, r) => {
      pedidos++;
      r.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => servidor.listen(0, '127.0.0.1', r));
    puerto = (servidor.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    fijarDestinosPermitidos(destinosDeEntorno());
    await new Promise<void>((r) => servidor.close(() => r()));
  });

  it('una dirección o un nombre de loopback fuera de la lista: EDESTINO, ningún pedido', async () => {
    fijarDestinosPermitidos(leerDestinosPermitidos('127.0.0.1:1'));
    for (const host of ['127.0.0.1', 'localhost'])
      await expect(
        pedirJson(`http://${host}:${puerto}/message`, {
          method: 'POST',
          cuerpo: {},
          timeoutMs: 2000,
        }),
      ).rejects.toMatchObject({ code: 'EDESTINO' });
    expect(pedidos).toBe(0);
    fijarDestinosPermitidos(leerDestinosPermitidos(`localhost:${puerto}`));
    const r = await pedirJson(`http://localhost:${puerto}/message`, { timeoutMs: 2000 });
    expect(r.status).toBe(200);
    expect(pedidos).toBe(1);
  });

  it('la búsqueda guardada refusa cada dirección que resuelva a un destino no permitido', async () => {
    const buscar = busquedaGuardada(puerto, () => leerDestinosPermitidos(''));
    const error = await new Promise<NodeJS.ErrnoException | null>((r) =>
      buscar('localhost', { all: true }, (e) => r(e)),
    );
    expect(error?.code).toBe('EDESTINO');
  });
});
