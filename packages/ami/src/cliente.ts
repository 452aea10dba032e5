import { EventEmitter } from 'node:events';
import net from 'node:net';
import { LectorAmi, MensajeAmi, paresAmi, serializarAmi, type CamposAmi } from './protocolo.ts';

/** Why an AMI call failed: refused login, no answer in time, or the connection went away. */
export class ErrorAmi extends Error {
  constructor(
    message: string,
    readonly codigo: 'login' | 'timeout' | 'desconectado' | 'conexion',
    readonly respuesta?: MensajeAmi,
  ) {
    super(message);
    this.name = 'ErrorAmi';
  }
}

/** How to reach and use one Asterisk's manager interface. */
export interface OpcionesClienteAmi {
  host: string;
  /** TCP port of manager.conf's `port` (5038 by default). */
  puerto: number;
  usuario: string;
  secreto: string;
  /** Login's `Events:` ('on', 'off' or a class list such as 'call,user'); default 'off'. */
  eventos?: string;
  /** Keep-alive `Ping` interval in ms; 0 turns it off. Default 20000. */
  pingMs?: number;
  /** How long an action waits for its response (and connect + login), in ms. Default 10000. */
  timeoutMs?: number;
  /** Reconnect with backoff after the connection drops (not after cerrar()). Default false. */
  reconectar?: boolean;
  /** First reconnect wait in ms, doubled up to `backoffMaxMs`. Defaults 1000 and 30000. */
  backoffMs?: number;
  backoffMaxMs?: number;
}

/** An action's answer: the response, plus the events of its list when one was asked for. */
export interface RespuestaAmi {
  respuesta: MensajeAmi;
  eventos: MensajeAmi[];
}

/** Events a list action may gather before its closing event: a peer that never closes the list
 * is dropped instead of filling memory until the action's timeout. */
export const MAX_EVENTOS_LISTA = 100_000;

interface Pendiente {
  resolver: (r: RespuestaAmi) => void;
  rechazar: (e: Error) => void;
  eventoFinal?: string;
  respuesta?: MensajeAmi;
  eventos: MensajeAmi[];
  temporizador: NodeJS.Timeout;
}

/** `ami://host:port` (port 5038 when absent) → host and port. */
export function destinoAmi(url: string): { host: string; puerto: number } {
  const u = new URL(url.includes('://') ? url : `ami://${url}`);
  return { host: u.hostname || '127.0.0.1', puerto: u.port ? Number(u.port) : 5038 };
}

/**
 * An AMI client: connects, reads the banner, logs in, sends actions with a unique ActionID and
 * matches their responses (and, for list actions, the events up to `eventoFinal`), emits every
 * other event as 'evento', pings to notice a dead link, and reconnects with backoff when asked.
 * Emits 'conectado' after each login and 'desconectado' (with the error) when the link drops.
 */
export class ClienteAmi extends EventEmitter<{
  evento: [MensajeAmi];
  conectado: [];
  desconectado: [Error];
}> {
  private socket: net.Socket | undefined;
  private pendientes = new Map<string, Pendiente>();
  private siguiente = 1;
  private readonly prefijo = `pregon-${process.pid}-${Math.random().toString(36).slice(2, 8)}-`;
  private ping: NodeJS.Timeout | undefined;
  private reintento: NodeJS.Timeout | undefined;
  private espera: number;
  private cerrado = false;
  private listo = false;
  /** The connect + login under way, shared by whoever asks meanwhile (one socket at a time). */
  private abriendo: Promise<void> | undefined;

  constructor(private readonly o: OpcionesClienteAmi) {
    super();
    this.espera = o.backoffMs ?? 1000;
  }

  /** True while logged in. */
  get conectado(): boolean {
    return this.listo;
  }

  /** Connects and logs in; rejects with ErrorAmi ('login' when the credentials are refused). */
  async conectar(): Promise<void> {
    this.cerrado = false;
    if (this.listo) return;
    // Asked while a reconnect waits its backoff: connect now instead of opening a second socket.
    clearTimeout(this.reintento);
    this.reintento = undefined;
    try {
      await this.abrir();
    } catch (err) {
      if (
        this.o.reconectar &&
        !this.cerrado &&
        !(err instanceof ErrorAmi && err.codigo === 'login')
      )
        this.programarReintento();
      throw err;
    }
  }

  private abrir(): Promise<void> {
    this.abriendo ??= this.abrirSocket().finally(() => (this.abriendo = undefined));
    return this.abriendo;
  }

  private abrirSocket(): Promise<void> {
    const timeoutMs = this.o.timeoutMs ?? 10_000;
    return new Promise<void>((resolve, reject) => {
      const lector = new LectorAmi({ banner: true });
      const s = net.connect({ host: this.o.host, port: this.o.puerto, noDelay: true });
      this.socket = s;
      let hecho = false;
      /** Why this side hung up (a peer past the reader's caps), for 'desconectado'. */
      let causa: ErrorAmi | undefined;
      const fallar = (e: Error) => {
        if (hecho) return;
        hecho = true;
        clearTimeout(t);
        s.destroy();
        reject(e);
      };
      const t = setTimeout(
        () => fallar(new ErrorAmi('AMI: sin respuesta al conectar', 'timeout')),
        timeoutMs,
      );
      s.on('data', (d) => {
        let mensajes: MensajeAmi[];
        try {
          mensajes = lector.leer(d);
        } catch (err) {
          causa = new ErrorAmi(`${(err as Error).message}: conexión cerrada`, 'conexion');
          s.destroy(causa);
          return;
        }
        for (const m of mensajes) this.recibir(m);
      });
      s.on('error', (err) => fallar(new ErrorAmi(`AMI: ${err.message}`, 'conexion')));
      s.on('close', () => {
        fallar(causa ?? new ErrorAmi('AMI: la conexión se cerró', 'desconectado'));
        if (this.socket === s)
          this.caida(causa ?? new ErrorAmi('AMI: la conexión se cerró', 'desconectado'));
      });
      s.once('connect', () => {
        this.enviar('Login', {
          Username: this.o.usuario,
          Secret: this.o.secreto,
          Events: this.o.eventos ?? 'off',
        }).then(
          ({ respuesta }) => {
            if (respuesta.valor('Response') !== 'Success') {
              fallar(
                new ErrorAmi(
                  `AMI: acceso rechazado (${respuesta.valor('Message') ?? 'sin mensaje'})`,
                  'login',
                  respuesta,
                ),
              );
              return;
            }
            hecho = true;
            clearTimeout(t);
            this.listo = true;
            this.espera = this.o.backoffMs ?? 1000;
            this.iniciarPing();
            this.emit('conectado');
            resolve();
          },
          (err: Error) => fallar(err),
        );
      });
    });
  }

  /** Sends an action and waits for its response; with `eventoFinal` (e.g.
   * 'CoreShowChannelsComplete') also gathers the list's events until that one. */
  accion(
    nombre: string,
    campos: CamposAmi = {},
    opciones: { timeoutMs?: number; eventoFinal?: string } = {},
  ): Promise<RespuestaAmi> {
    if (!this.listo) return Promise.reject(new ErrorAmi('AMI: no conectado', 'desconectado'));
    return this.enviar(nombre, campos, opciones);
  }

  private enviar(
    nombre: string,
    campos: CamposAmi,
    opciones: { timeoutMs?: number; eventoFinal?: string } = {},
  ): Promise<RespuestaAmi> {
    const s = this.socket;
    if (!s || s.destroyed) return Promise.reject(new ErrorAmi('AMI: no conectado', 'desconectado'));
    const id = `${this.prefijo}${this.siguiente++}`;
    let texto: string;
    try {
      texto = serializarAmi([['Action', nombre], ['ActionID', id], ...paresAmi(campos)]);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    return new Promise<RespuestaAmi>((resolver, rechazar) => {
      const temporizador = setTimeout(
        () => {
          this.pendientes.delete(id);
          rechazar(new ErrorAmi(`AMI: ${nombre} sin respuesta`, 'timeout'));
        },
        opciones.timeoutMs ?? this.o.timeoutMs ?? 10_000,
      );
      this.pendientes.set(id, {
        resolver,
        rechazar,
        eventoFinal: opciones.eventoFinal?.toLowerCase(),
        eventos: [],
        temporizador,
      });
      s.write(texto);
    });
  }

  private recibir(m: MensajeAmi): void {
    const id = m.valor('ActionID');
    const p = id !== undefined ? this.pendientes.get(id) : undefined;
    if (m.tipo === 'respuesta' && p) {
      p.respuesta = m;
      // A list action whose response is an error has no list to wait for.
      if (!p.eventoFinal || m.valor('Response') !== 'Success') this.terminar(id!, p);
      return;
    }
    if (m.tipo === 'evento' && p?.eventoFinal && p.respuesta) {
      if (m.valor('Event')?.toLowerCase() === p.eventoFinal) this.terminar(id!, p);
      else if (p.eventos.length < MAX_EVENTOS_LISTA) p.eventos.push(m);
      else this.socket?.destroy(new Error(`AMI: lista de más de ${MAX_EVENTOS_LISTA} eventos`));
      return;
    }
    if (m.tipo === 'evento') this.emit('evento', m);
  }

  private terminar(id: string, p: Pendiente): void {
    clearTimeout(p.temporizador);
    this.pendientes.delete(id);
    p.resolver({ respuesta: p.respuesta!, eventos: p.eventos });
  }

  private iniciarPing(): void {
    clearInterval(this.ping);
    const cada = this.o.pingMs ?? 20_000;
    if (cada <= 0) return;
    this.ping = setInterval(() => {
      this.accion('Ping').catch(() => this.socket?.destroy());
    }, cada);
    this.ping.unref();
  }

  private caida(err: Error): void {
    const estaba = this.listo;
    this.listo = false;
    this.socket = undefined;
    clearInterval(this.ping);
    for (const [id, p] of this.pendientes) {
      clearTimeout(p.temporizador);
      this.pendientes.delete(id);
      p.rechazar(new ErrorAmi('AMI: la conexión se cerró', 'desconectado'));
    }
    if (estaba) this.emit('desconectado', err);
    if (this.o.reconectar && !this.cerrado) this.programarReintento();
  }

  private programarReintento(): void {
    if (this.reintento) return;
    const espera = this.espera;
    this.espera = Math.min(this.espera * 2, this.o.backoffMaxMs ?? 30_000);
    this.reintento = setTimeout(() => {
      this.reintento = undefined;
      if (this.cerrado) return;
      this.abrir().catch(() => {
        if (!this.cerrado) this.programarReintento();
      });
    }, espera);
  }

  /** Logs off (best effort) and closes; no reconnection after this. */
  async cerrar(): Promise<void> {
    this.cerrado = true;
    clearTimeout(this.reintento);
    this.reintento = undefined;
    clearInterval(this.ping);
    const s = this.socket;
    if (!s) return;
    if (this.listo) await this.accion('Logoff', {}, { timeoutMs: 1000 }).catch(() => {});
    await new Promise<void>((r) => {
      if (s.destroyed) return r();
      s.once('close', () => r());
      s.end();
      setTimeout(() => s.destroy(), 1000).unref();
    });
  }
}
