import { afterEach, describe, expect, it } from 'vitest';
import { ClienteAmi, ErrorAmi, destinoAmi } from './cliente.ts';
import { LectorAmi, serializarAmi, type MensajeAmi } from './protocolo.ts';
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
