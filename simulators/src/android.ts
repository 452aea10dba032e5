import Fastify, { type FastifyInstance } from 'fastify';
import {
  comportamientoDe,
  NUMERO_VALIDO,
  esperar,
  type Comportamiento,
  type MensajeRecibido,
} from './comun.ts';

// The local server of the 'SMS Gateway for Android' app on loopback: `POST /message` (basic auth,
// optional client-chosen id: a second request with a known id is refused with 409 and sends
// nothing), `GET /message/{id}` with the state Pending → Delivered after the receipt delay.

/** Options of the Android gateway simulator. */
export interface OpcionesAndroid extends Partial<Comportamiento> {
  port?: number;
  host?: string;
  usuario?: string;
  password?: string;
}

interface Mensaje {
  id: string;
  state: 'Pending' | 'Processed' | 'Sent' | 'Delivered' | 'Failed';
  recipients: { phoneNumber: string; state: string; error: string | null }[];
}

/** A simulated Android SMS gateway. */
export class SimuladorAndroid {
  /** Every message accepted (one entry per phone number), in order. */
  readonly registro: MensajeRecibido[] = [];
  /** Current behaviour; change it with ajustar(). */
  readonly comportamiento: Comportamiento;
  /** Requests refused because their id was already taken (resends the gateway did not repeat). */
  duplicadosRechazados = 0;
  private readonly mensajes = new Map<string, Mensaje>();
  private readonly app: FastifyInstance;
  private port: number;
  private siguiente = 1;

  constructor(private readonly o: OpcionesAndroid = {}) {
    this.comportamiento = comportamientoDe(o);
    this.port = o.port ?? 0;
    this.app = Fastify({ logger: false });
    this.rutas();
  }

  /** Base URL to put in a device's url field. */
  get url(): string {
    return `http://${this.o.host ?? '127.0.0.1'}:${this.port}`;
  }

  /** Starts listening; returns the port. */
  async iniciar(): Promise<number> {
    await this.app.listen({ port: this.port, host: this.o.host ?? '127.0.0.1' });
    const a = this.app.server.address();
    if (a && typeof a === 'object') this.port = a.port;
    return this.port;
  }

  /** Changes behaviour at run time (caido: every request answers 503). */
  async ajustar(c: Partial<Comportamiento>): Promise<void> {
    Object.assign(this.comportamiento, c);
  }

  /** Stops listening. */
  async detener(): Promise<void> {
    await this.app.close();
  }

  private autorizado(cabecera: string | undefined): boolean {
    if (!this.o.usuario) return true;
    const esperado = `Basic ${Buffer.from(`${this.o.usuario}:${this.o.password ?? ''}`).toString('base64')}`;
    return cabecera === esperado;
  }

  private rutas(): void {
    this.app.addHook('onRequest', async (req, reply) => {
      if (this.comportamiento.caido)
        return reply.code(503).send({ message: 'Service Unavailable' });
      if (!this.autorizado(req.headers.authorization))
        return reply.code(401).send({ message: 'Unauthorized' });
      await esperar(this.comportamiento.latenciaMs);
    });

    this.app.post('/message', async (req, reply) => {
      const b = (req.body ?? {}) as {
        id?: string;
        message?: string;
        textMessage?: { text?: string };
        phoneNumbers?: unknown;
      };
      const texto = b.message ?? b.textMessage?.text;
      const numeros = Array.isArray(b.phoneNumbers) ? b.phoneNumbers.map(String) : [];
      if (!texto || numeros.length === 0 || !numeros.every((n) => NUMERO_VALIDO.test(n))) {
        return reply.code(400).send({ message: 'Invalid phone number or empty message' });
      }
      const id = b.id ?? `sim-${this.siguiente++}`;
      if (this.mensajes.has(id)) {
        this.duplicadosRechazados++;
        return reply.code(409).send({ message: `Message with id ${id} already exists` });
      }
      if (this.comportamiento.tasaFallo > 0 && Math.random() < this.comportamiento.tasaFallo) {
        return reply.code(500).send({ message: 'Internal Server Error' });
      }
      const m: Mensaje = {
        id,
        state: 'Pending',
        recipients: numeros.map((phoneNumber) => ({ phoneNumber, state: 'Pending', error: null })),
      };
      this.mensajes.set(id, m);
      const t = Date.now();
      for (const n of numeros) this.registro.push({ id, telefono: n, texto, t });
      setTimeout(() => {
        m.state = 'Delivered';
        for (const r of m.recipients) r.state = 'Delivered';
      }, this.comportamiento.retrasoReciboMs).unref();
      return reply.code(202).send(m);
    });

    this.app.get('/message/:id', async (req, reply) => {
      const m = this.mensajes.get((req.params as { id: string }).id);
      if (!m) return reply.code(404).send({ message: 'Message not found' });
      return m;
    });
  }
}
