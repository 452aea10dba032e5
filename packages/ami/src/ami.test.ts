import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ClienteAmi, ErrorAmi, MAX_EVENTOS_LISTA, destinoAmi } from './cliente.ts';
import { ExcesoAmi, LectorAmi, serializarAmi, type MensajeAmi } from './protocolo.ts';
import { parAmiDePrueba as servidor } from './par-prueba.ts';

describe('AMI wire format', () => {
  it('reads the banner and messages split at any byte', () => {
    const texto =
      'Asterisk Call Manager/9.0.0\r\n' +
      'Response: Success\r\nActionID: 1\r\nMessage: Authentication accepted\r\n\r\n' +
      'Event: Hangup\r\nUniqueid: pregon-5-1\r\nCause: 16\r\nCause-txt: Normal Clearing\r\n\r\n';
    for (let corte = 1; corte < texto.length; corte += 7) {
      const l = new LectorAmi({ banner: true });
      const ms = [...l.leer(texto.slice(0, corte)), ...l.leer(Buffer.from(texto.slice(corte)))];
      expect(l.banner).toBe('Asterisk Call Manager/9.0.0');
      expect(ms).toHaveLength(2);
      expect(ms[0]!.tipo).toBe('respuesta');
      expect(ms[1]!.tipo).toBe('evento');
      expect(ms[1]!.valor('cause')).toBe('16');
      expect(ms[1]!.valor('Cause-txt')).toBe('Normal Clearing');
    }
  });

  it('keeps repeated keys in order and old-style command output', () => {
    const l = new LectorAmi();
    const [m] = l.leer(
      'Response: Follows\r\nPrivilege: Command\r\nDialplan reloaded.\r\n--END COMMAND--\r\n\r\n',
    );
    expect(m!.valores('Output')).toEqual(['Dialplan reloaded.']);
    const [n] = new LectorAmi().leer('Action: Originate\nVariable: A=1\nVariable: B=2\n\n');
    expect(n!.valores('variable')).toEqual(['A=1', 'B=2']);
    expect(n!.tipo).toBe('accion');
  });

  it('serialises repeated keys and refuses line breaks that would forge fields', () => {
    expect(serializarAmi({ Action: 'Originate', Variable: ['A=1', 'B=2'], Async: true })).toBe(
      'Action: Originate\r\nVariable: A=1\r\nVariable: B=2\r\nAsync: true\r\n\r\n',
    );
    expect(() => serializarAmi({ Channel: 'PJSIP/1\r\nAction: Command' })).toThrow(/saltos/);
  });

  it('reads ami:// addresses', () => {
    expect(destinoAmi('ami://10.0.0.5:5039')).toEqual({ host: '10.0.0.5', puerto: 5039 });
    expect(destinoAmi('ami://pbx.local')).toEqual({ host: 'pbx.local', puerto: 5038 });
  });
});

describe('ClienteAmi against a TCP peer', () => {
  const limpiar: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const f of limpiar.splice(0).reverse()) await f();
  });

  it('logs in, matches responses by ActionID, gathers list events and emits the rest', async () => {
    const s = servidor({ secreto: 's3' });
    const puerto = await s.escuchar();
    limpiar.push(s.cerrar);
    const c = new ClienteAmi({
      host: '127.0.0.1',
      puerto,
      usuario: 'u',
      secreto: 's3',
      eventos: 'on',
    });
    limpiar.push(() => c.cerrar());
    await c.conectar();
    expect(c.conectado).toBe(true);
    expect(s.recibidas[0]!.objeto()).toMatchObject({
      Action: 'Login',
      Username: 'u',
      Events: 'on',
    });

    const [a, b] = await Promise.all([c.accion('Ping'), c.accion('Ping')]);
    expect(a.respuesta.valor('Ping')).toBe('Pong');
    expect(a.respuesta.valor('ActionID')).not.toBe(b.respuesta.valor('ActionID'));

    const lista = await c.accion(
      'CoreShowChannels',
      {},
      { eventoFinal: 'CoreShowChannelsComplete' },
    );
    expect(lista.eventos.map((e) => e.valor('Uniqueid'))).toEqual(['pregon-1-1', 'pregon-2-1']);

    const error = await c.accion('Nada');
    expect(error.respuesta.valor('Response')).toBe('Error');

    const llegado = new Promise<MensajeAmi>((r) => c.once('evento', r));
    s.emitir({ Event: 'UserEvent', UserEvent: 'PregonDigito', Digito: '3' });
    expect((await llegado).valor('Digito')).toBe('3');
  });

  it('rejects a refused login as ErrorAmi login', async () => {
    const s = servidor({ secreto: 'bueno' });
    const puerto = await s.escuchar();
    limpiar.push(s.cerrar);
    const c = new ClienteAmi({ host: '127.0.0.1', puerto, usuario: 'u', secreto: 'malo' });
    const e = await c.conectar().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ErrorAmi);
    expect((e as ErrorAmi).codigo).toBe('login');
    expect(c.conectado).toBe(false);
  });

  it('times out an unanswered action and a silent peer at connect', async () => {
    const s = servidor({ secreto: 'x', silencio: true });
    const puerto = await s.escuchar();
    limpiar.push(s.cerrar);
    const c = new ClienteAmi({
      host: '127.0.0.1',
      puerto,
      usuario: 'u',
      secreto: 'x',
      timeoutMs: 300,
    });
    const e = await c.conectar().catch((x: unknown) => x);
    expect((e as ErrorAmi).codigo).toBe('timeout');
  });

  it('reconnects with backoff after the link drops, failing the actions in flight', async () => {
    const s = servidor({ secreto: 'x' });
    const puerto = await s.escuchar();
    limpiar.push(s.cerrar);
    const c = new ClienteAmi({
      host: '127.0.0.1',
      puerto,
      usuario: 'u',
      secreto: 'x',
      reconectar: true,
      backoffMs: 50,
    });
    limpiar.push(() => c.cerrar());
    await c.conectar();
    const caida = new Promise<Error>((r) => c.once('desconectado', r));
    const vuelta = new Promise<void>((r) => c.once('conectado', () => r()));
    s.cortar();
    expect(await caida).toBeInstanceOf(ErrorAmi);
    await expect(c.accion('Ping')).rejects.toBeInstanceOf(ErrorAmi);
    await vuelta;
    expect((await c.accion('Ping')).respuesta.valor('Ping')).toBe('Pong');
    expect(s.recibidas.filter((m) => m.valor('Action') === 'Login')).toHaveLength(2);
  });
});

describe('a hostile AMI peer (issue 49.4)', () => {
  const limpiar: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const f of limpiar.splice(0).reverse()) await f();
  });

  /** A TCP peer that greets, accepts the login, then writes `trozo()` without end (up to
   * `tope` bytes, respecting back-pressure); resolves with the bytes it wrote when the client
   * drops the connection, or when it wrote them all. */
  const pesado = async (trozo: () => string, tope: number) => {
    let escritos!: Promise<{ bytes: number; cortado: boolean }>;
    const srv = net.createServer((s) => {
      s.on('error', () => {});
      s.write('Asterisk Call Manager/9.0.0\r\n');
      escritos = new Promise((resolver) => {
        let bytes = 0;
        let cortado = false;
        s.on('close', () => {
          cortado = true;
          resolver({ bytes, cortado });
        });
        const l = new LectorAmi();
        s.once('data', (d) => {
          const id = l.leer(d)[0]?.valor('ActionID') ?? '';
          s.write(serializarAmi({ Response: 'Success', ActionID: id, Message: 'ok' }));
          const seguir = () => {
            while (!cortado && bytes < tope) {
              const t = trozo();
              bytes += Buffer.byteLength(t);
              if (!s.write(t)) return void s.once('drain', seguir);
            }
            if (!cortado) resolver({ bytes, cortado });
          };
          seguir();
        });
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    limpiar.push(() => new Promise<void>((r) => srv.close(() => r())));
    const c = new ClienteAmi({
      host: '127.0.0.1',
      puerto: (srv.address() as net.AddressInfo).port,
      usuario: 'u',
      secreto: 's',
      pingMs: 0,
    });
    limpiar.push(() => c.cerrar());
    const caida = new Promise<Error>((r) => c.once('desconectado', r));
    const heap = process.memoryUsage().heapUsed;
    await c.conectar();
    return { caida, escritos: () => escritos, heap, c };
  };

  // 64 MB offered; the client must hang up long before (4 MB per message, 10,000 lines).
  const TOPE = 64 * 1024 * 1024;

  it('drops a peer whose one message never ends (endless short lines), memory bounded', async () => {
    let n = 0;
    const linea = 'Variable: x=' + 'y'.repeat(50) + '\r\n';
    const p = await pesado(
      () => (n++ === 0 ? 'Event: Interminable\r\n' : linea.repeat(1000)),
      TOPE,
    );
    const err = await p.caida;
    const { bytes, cortado } = await p.escritos();
    const crecio = process.memoryUsage().heapUsed - p.heap;
    console.info(
      `[ami] mensaje interminable: cortado tras ${(bytes / 1e6).toFixed(1)} MB enviados; montículo +${(crecio / 1e6).toFixed(1)} MB`,
    );
    expect(cortado).toBe(true);
    expect(err.message).toMatch(/mensaje de más de 10000 líneas/);
    expect(bytes).toBeLessThan(16 * 1024 * 1024);
    // Before the caps: 67 MB offered, all read, the heap 222 MB larger, the link still up.
    expect(crecio).toBeLessThan(100 * 1024 * 1024);
    expect(p.c.conectado).toBe(false);
  });

  it('drops a peer whose message grows by long lines past 4 MB', async () => {
    const linea = 'Output: ' + 'z'.repeat(600_000) + '\r\n';
    const p = await pesado(() => linea, TOPE);
    const err = await p.caida;
    const { bytes, cortado } = await p.escritos();
    expect(cortado).toBe(true);
    expect(err.message).toMatch(/mensaje de más de 4194304 bytes/);
    expect(bytes).toBeLessThan(16 * 1024 * 1024);
  });

  it('drops a peer whose one line never ends', async () => {
    let n = 0;
    const p = await pesado(() => (n++ === 0 ? 'Event: X\r\nDato: ' : 'a'.repeat(65_536)), TOPE);
    const err = await p.caida;
    const { bytes, cortado } = await p.escritos();
    expect(cortado).toBe(true);
    expect(err.message).toMatch(/línea de más de 1048576 bytes/);
    expect(bytes).toBeLessThan(16 * 1024 * 1024);
  });

  it('drops a peer whose list action never ends (events past MAX_EVENTOS_LISTA)', async () => {
    let enviados = 0;
    const srv = net.createServer((s) => {
      s.on('error', () => {});
      s.write('Asterisk Call Manager/9.0.0\r\n');
      const l = new LectorAmi();
      s.on('data', (d) => {
        for (const m of l.leer(d)) {
          const id = m.valor('ActionID') ?? '';
          s.write(serializarAmi({ Response: 'Success', ActionID: id }));
          if (m.valor('Action') !== 'CoreShowChannels') continue;
          const evento = serializarAmi({ Event: 'CoreShowChannel', ActionID: id, Uniqueid: 'u' });
          const seguir = () => {
            while (!s.destroyed && enviados < 3 * MAX_EVENTOS_LISTA) {
              enviados++;
              if (!s.write(evento)) return void s.once('drain', seguir);
            }
          };
          seguir();
        }
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    limpiar.push(() => new Promise<void>((r) => srv.close(() => r())));
    const c = new ClienteAmi({
      host: '127.0.0.1',
      puerto: (srv.address() as net.AddressInfo).port,
      usuario: 'u',
      secreto: 's',
      pingMs: 0,
    });
    limpiar.push(() => c.cerrar());
    await c.conectar();
    const e = await c
      .accion(
        'CoreShowChannels',
        {},
        { eventoFinal: 'CoreShowChannelsComplete', timeoutMs: 60_000 },
      )
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ErrorAmi);
    expect((e as ErrorAmi).codigo).toBe('desconectado');
    expect(enviados).toBeLessThan(3 * MAX_EVENTOS_LISTA);
  });

  it('counts caps per message and decodes a UTF-8 character split between chunks', () => {
    const l = new LectorAmi({ limites: { lineasMensaje: 3, bytesMensaje: 100 } });
    // Many small messages pass: the caps are per message.
    for (let i = 0; i < 50; i++) expect(l.leer('Event: A\r\nB: 1\r\nC: 2\r\n\r\n')).toHaveLength(1);
    const texto = Buffer.from('Event: Ñandú\r\n\r\n');
    const [m] = [...l.leer(texto.subarray(0, 10)), ...l.leer(texto.subarray(10))];
    expect(m!.valor('Event')).toBe('Ñandú');
    expect(() => l.leer('Event: A\r\nB: 1\r\nC: 2\r\nD: 3\r\n')).toThrow(ExcesoAmi);
    // After a refusal the reader holds nothing of the refused message.
    expect(l.leer('\r\nEvent: B\r\n\r\n').map((x) => x.valor('Event'))).toEqual(['B']);
  });
});
