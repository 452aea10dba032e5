import net from 'node:net';
import { LectorAmi, serializarAmi, type MensajeAmi } from './protocolo.ts';

/** A minimal AMI peer for tests of an AMI client's side of the protocol (this package, the PBX
 * agent's reloads): answers Login, Ping, Command and
 * CoreShowChannels, and lets the test push events or drop the connection. */
export function parAmiDePrueba(opts: {
  secreto: string;
  silencio?: boolean;
  /** Answer to `Command` actions (default: Success with 'Dialplan reloaded.'). */
  comando?: (comando: string) => Record<string, string>;
}) {
  const sockets = new Set<net.Socket>();
  const recibidas: MensajeAmi[] = [];
  const srv = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.write('Asterisk Call Manager/9.0.0\r\n');
    const l = new LectorAmi();
    s.on('data', (d) => {
      for (const m of l.leer(d)) {
        recibidas.push(m);
        if (opts.silencio) continue;
        const id = m.valor('ActionID') ?? '';
        const accion = m.valor('Action');
        if (accion === 'Login') {
          const ok = m.valor('Secret') === opts.secreto;
          s.write(
            serializarAmi(
              ok
                ? { Response: 'Success', ActionID: id, Message: 'Authentication accepted' }
                : { Response: 'Error', ActionID: id, Message: 'Authentication failed' },
            ),
          );
          if (!ok) s.end();
        } else if (accion === 'Ping') {
          s.write(serializarAmi({ Response: 'Success', ActionID: id, Ping: 'Pong' }));
        } else if (accion === 'CoreShowChannels') {
          s.write(serializarAmi({ Response: 'Success', ActionID: id, EventList: 'start' }));
          for (const u of ['pregon-1-1', 'pregon-2-1'])
            s.write(serializarAmi({ Event: 'CoreShowChannel', ActionID: id, Uniqueid: u }));
          s.write(serializarAmi({ Event: 'CoreShowChannelsComplete', ActionID: id, ListItems: 2 }));
        } else if (accion === 'Command') {
          const r = opts.comando?.(m.valor('Command') ?? '') ?? {
            Response: 'Success',
            Message: 'Command output follows',
            Output: 'Dialplan reloaded.',
          };
          s.write(serializarAmi({ ...r, ActionID: id }));
        } else if (accion === 'Logoff') {
          s.end(serializarAmi({ Response: 'Goodbye', ActionID: id }));
        } else {
          s.write(
            serializarAmi({ Response: 'Error', ActionID: id, Message: 'Invalid/unknown command' }),
          );
        }
      }
    });
  });
  return {
    srv,
    recibidas,
    sockets,
    escuchar: () =>
      new Promise<number>((r) =>
        srv.listen(0, '127.0.0.1', () => r((srv.address() as net.AddressInfo).port)),
      ),
    emitir: (campos: Record<string, string>) => {
      for (const s of sockets) s.write(serializarAmi(campos));
    },
    cortar: () => {
      for (const s of sockets) s.destroy();
    },
    cerrar: () => new Promise<void>((r) => srv.close(() => r())),
  };
}
