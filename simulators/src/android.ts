import crypto from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  comportamientoDe,
  NUMERO_VALIDO,
  esperar,
  type Comportamiento,
  type MensajeRecibido,
} from './comun.ts';

// The local server of the 'SMS Gateway for Android' app (capcom6/android-sms-gateway) on
// loopback, behaving like the phone:
//  - POST /message (basic auth) validates the request as PostMessageRequest.validate() does and
//    answers 400 {message} when it is malformed (no text or two kinds of content, an empty text
//    or number list, simNumber < 1, ttl with validUntil, an expired validUntil); 409 when the id
//    is known (nothing is sent again); otherwise 202 with the message, state Pending: it is only
//    queued. A bad number is not refused here: the phone fails it when it gets to it.
//  - The phone works its queue one message at a time, `ritmoMs` apart: Processed when it hands it
//    to the radio (the moment it is recorded in `registro`), Sent `envioMs` later, Delivered
//    `retrasoReciboMs` after that, or Failed with the recipient's error: 'sendSMS: Invalid phone
//    number' at once for a bad number, a late delivery failure from the SMSC for numbers in
//    `fallanEntrega`, 'TTL expired' for one whose ttl/validUntil passed while it waited.
//  - GET /message/{id} reads it; GET /message?state=…&limit=&offset= lists (newest first) with
//    X-Total-Count; DELETE /message/{id} cancels a Pending message (400 once it left the queue,
//    404 when unknown). `/messages` answers the same. `conCancelar: false` and `conLista: false`
//    play an app older than those routes (405 and 404).
//  - Replies (issue 46.1), as docs.sms-gate.app's webhooks and settings pages describe them:
//    GET/POST /webhooks and DELETE /webhooks/{id} keep the webhooks (one event each; a POST with
//    a known id replaces it; 201 with the registration); PATCH /settings takes
//    {webhooks: {signing_key}} (write-only; a random 8-character key until then). recibirSms()
//    is an SMS reaching the phone: each 'sms:received' webhook gets {deviceId, event, id,
//    payload: {messageId (a hash of the content), message, phoneNumber, simNumber, receivedAt in
//    the phone's local time with its offset}, webhookId}, with X-Timestamp (Unix seconds) and
//    X-Signature (hex HMAC-SHA256 of the body followed by the timestamp), signed anew at each
//    attempt; a delivery not answered 2xx is retried `reintentoMs`, twice that, … up to
//    `reintentos` times (the app: 10 s doubling, 14 times). `conAjustes: false` plays an app
//    without /settings (404).

/** Options of the Android gateway simulator. */
export interface OpcionesAndroid extends Partial<Comportamiento> {
  port?: number;
  host?: string;
  usuario?: string;
  password?: string;
  /** Milliseconds the phone spends on each message of its queue (0: takes each as it arrives). */
  ritmoMs?: number;
  /** Milliseconds from Processed to Sent. */
  envioMs?: number;
  /** SIM cards in the phone; a simNumber above fails the message. */
  sims?: number;
  /** Numbers whose message goes out (Sent) and later fails at the SMSC (late Failed). */
  fallanEntrega?: (numero: string) => boolean;
  /** False: an app without DELETE /message/{id} (before v1.67). */
  conCancelar?: boolean;
  /** False: an app without the message list (GET /message). */
  conLista?: boolean;
  /** False: an app without PATCH /settings (its signing key cannot be set by the API). */
  conAjustes?: boolean;
  /** First wait before a webhook delivery is retried (doubling each time); default 10 000 ms. */
  reintentoMs?: number;
  /** Retries of a webhook delivery before it is given up; default 14. */
  reintentos?: number;
  /** The phone's UTC offset in minutes, for receivedAt (default -360, Mexico City). */
  desfaseMinutos?: number;
}

/** A webhook as the phone keeps it (WebHookDTO). */
export interface WebhookAndroid {
  id: string;
  deviceId: string | null;
  url: string;
  event: string;
  source: 'Local';
}

/** An SMS reaching the phone (POST /android/mo/ of the control server). */
export interface SmsEntrante {
  de: string;
  texto: string;
  /** SIM slot that received it (null: the device does not say). */
  sim?: number | null;
  /** When the phone received it (epoch ms; default now). */
  recibido?: number;
}

/** Events the app's webhooks take (WebHookEvent). */
const EVENTOS = new Set([
  'sms:received',
  'sms:data-received',
  'sms:sent',
  'sms:delivered',
  'sms:failed',
  'system:ping',
  'mms:received',
]);

/** An instant as the phone writes it: local time with its offset ('2024-06-22T15:46:11.000+07:00'). */
export function horaLocal(ms: number, desfaseMinutos: number): string {
  const local = new Date(ms + desfaseMinutos * 60_000).toISOString().slice(0, 23);
  const signo = desfaseMinutos < 0 ? '-' : '+';
  const a = Math.abs(desfaseMinutos);
  const hh = String(Math.floor(a / 60)).padStart(2, '0');
  const mm = String(a % 60).padStart(2, '0');
  return `${local}${signo}${hh}:${mm}`;
}

type Estado = 'Pending' | 'Processed' | 'Sent' | 'Delivered' | 'Failed' | 'Cancelled';

/** A message as the phone keeps it. */
export interface MensajeAndroid {
  id: string;
  deviceId: string;
  state: Estado;
  isHashed: false;
  isEncrypted: false;
  textMessage: { text: string };
  recipients: { phoneNumber: string; state: Estado; error: string | null }[];
  states: Partial<Record<Estado, string>>;
  /** What the request asked (not part of the API's answer). */
  simNumber: number | null;
  validUntil: number | null;
  withDeliveryReport: boolean;
}

/** The message's state from its recipients' (MessageWithRecipients.state). */
function estadoDe(rs: MensajeAndroid['recipients']): Estado {
  if (rs.some((r) => r.state === 'Pending')) return 'Pending';
  if (rs.some((r) => r.state === 'Cancelled')) return 'Cancelled';
  if (rs.some((r) => r.state === 'Processed')) return 'Processed';
  if (rs.every((r) => r.state === 'Failed')) return 'Failed';
  if (rs.every((r) => r.state === 'Delivered')) return 'Delivered';
  return 'Sent';
}

/** A simulated Android SMS gateway. */
export class SimuladorAndroid {
  /** Every message the phone handed to the radio (one entry per phone number), in order. */
  readonly registro: MensajeRecibido[] = [];
  /** Current behaviour; change it with ajustar(). */
  readonly comportamiento: Comportamiento;
  /** Requests refused because their id was already taken (resends the gateway did not repeat). */
  duplicadosRechazados = 0;
  /** Messages cancelled while queued (DELETE /message/{id}). */
  cancelados = 0;
  /** Requests answered 400, with their message. */
  readonly rechazos: string[] = [];
  /** Milliseconds per message of the queue; may change while it runs. */
  ritmoMs: number;
  /** The webhooks registered (POST /webhooks), by id. */
  readonly webhooks = new Map<string, WebhookAndroid>();
  /** The webhooks' signing key (Settings → Webhooks → Signing Key; PATCH /settings). */
  claveFirma = crypto.randomBytes(6).toString('base64url').slice(0, 8);
  /** Settings changes taken (PATCH /settings): each shows the phone's user a notice. */
  ajustesCambiados = 0;
  /** Webhook attempts answered 2xx, and not (refused, or the receiver unreachable). */
  webhooksEntregados = 0;
  webhooksFallidos = 0;
  /** Every webhook attempt: the url, the body, its headers and the receiver's status (0: none). */
  readonly intentosWebhook: {
    url: string;
    cuerpo: string;
    cabeceras: Record<string, string>;
    status: number;
  }[] = [];
  private readonly mensajes = new Map<string, MensajeAndroid>();
  private readonly cola: MensajeAndroid[] = [];
  /** Messages in state Pending (the list's count is read often). */
  private readonly enEspera = new Set<MensajeAndroid>();
  private trabajando = false;
  private readonly app: FastifyInstance;
  private port: number;
  private siguiente = 1;
  private readonly temporizadores = new Set<NodeJS.Timeout>();

  constructor(private readonly o: OpcionesAndroid = {}) {
    this.comportamiento = comportamientoDe(o);
    this.port = o.port ?? 0;
    this.ritmoMs = o.ritmoMs ?? 0;
    this.app = Fastify({ logger: false });
    this.rutas();
  }

  /** Base URL to put in a device's url field. */
  get url(): string {
    return `http://${this.o.host ?? '127.0.0.1'}:${this.port}`;
  }

  /** Messages still queued on the phone (state Pending). */
  get pendientes(): number {
    return this.enEspera.size;
  }

  /** A message as the phone keeps it (with the simNumber and validUntil it was asked for). */
  mensaje(id: string): MensajeAndroid | undefined {
    return this.mensajes.get(id);
  }

  /** Every message, in order of arrival. */
  todos(): MensajeAndroid[] {
    return [...this.mensajes.values()];
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

  /** Stops listening (and the phone's queue). */
  async detener(): Promise<void> {
    for (const t of this.temporizadores) clearTimeout(t);
    this.temporizadores.clear();
    this.cola.length = 0;
    this.enEspera.clear();
    await this.app.close();
  }

  private luego(ms: number, f: () => void): void {
    const t = setTimeout(() => {
      this.temporizadores.delete(t);
      f();
    }, ms);
    t.unref();
    this.temporizadores.add(t);
  }

  private cambiar(m: MensajeAndroid, i: number | null, estado: Estado, error: string | null) {
    for (const [k, r] of m.recipients.entries())
      if (i === null || i === k) {
        r.state = estado;
        r.error = error;
      }
    m.state = estadoDe(m.recipients);
    m.states[m.state] ??= new Date().toISOString();
    if (m.state !== 'Pending') this.enEspera.delete(m);
  }

  /** Hands the head of the queue to the radio, then the next one `ritmoMs` later. */
  private trabajar(): void {
    if (this.trabajando) return;
    this.trabajando = true;
    const paso = (): void => {
      for (;;) {
        const m = this.cola.shift();
        if (!m) {
          this.trabajando = false;
          return;
        }
        if (m.state !== 'Pending') continue; // cancelled while queued
        this.procesar(m);
        if (this.ritmoMs > 0) return this.luego(this.ritmoMs, paso);
      }
    };
    paso();
  }

  private procesar(m: MensajeAndroid): void {
    if (m.validUntil !== null && m.validUntil < Date.now()) {
      this.cambiar(m, null, 'Failed', 'TTL expired');
      return;
    }
    const t = Date.now();
    const sims = this.o.sims ?? 1;
    for (const [i, r] of m.recipients.entries()) {
      if (!NUMERO_VALIDO.test(r.phoneNumber)) {
        this.cambiar(m, i, 'Failed', 'sendSMS: Invalid phone number');
        continue;
      }
      if (m.simNumber !== null && m.simNumber > sims) {
        this.cambiar(m, i, 'Failed', `sendSMS: SIM ${m.simNumber} not found`);
        continue;
      }
      this.cambiar(m, i, 'Processed', null);
      this.registro.push({ id: m.id, telefono: r.phoneNumber, texto: m.textMessage.text, t });
      const falla = this.o.fallanEntrega?.(r.phoneNumber) ?? false;
      this.luego(this.o.envioMs ?? 0, () => {
        this.cambiar(m, i, 'Sent', null);
        if (!m.withDeliveryReport) return;
        this.luego(this.comportamiento.retrasoReciboMs, () =>
          falla
            ? this.cambiar(m, i, 'Failed', 'Delivery result from SC +5215550000000: 64')
            : this.cambiar(m, i, 'Delivered', null),
        );
      });
    }
  }

  private autorizado(cabecera: string | undefined): boolean {
    if (!this.o.usuario) return true;
    const esperado = `Basic ${Buffer.from(`${this.o.usuario}:${this.o.password ?? ''}`).toString('base64')}`;
    return cabecera === esperado;
  }

  private rechazar(reply: FastifyReply, message: string) {
    this.rechazos.push(message);
    return reply.code(400).send({ message });
  }

  /** POST /message: the checks of PostMessageRequest.validate(), then the queue. */
  private async recibir(req: FastifyRequest, reply: FastifyReply) {
    const b = req.body as Record<string, unknown> | null;
    if (!b || typeof b !== 'object' || Array.isArray(b))
      return this.rechazar(reply, 'Failed to convert request body to class PostMessageRequest');
    const texto = b.textMessage as { text?: unknown } | undefined;
    const tipos = [b.message, b.textMessage, b.dataMessage].filter(
      (x) => x !== undefined && x !== null,
    );
    if (tipos.length === 0)
      return this.rechazar(
        reply,
        'Must specify exactly one of: textMessage, dataMessage, or message',
      );
    if (tipos.length > 1)
      return this.rechazar(reply, 'Cannot specify multiple message types simultaneously');
    if (b.dataMessage) return this.rechazar(reply, 'Data messages are not simulated');
    const cuerpo = b.message ?? texto?.text;
    if (typeof cuerpo !== 'string')
      return this.rechazar(reply, 'Failed to convert request body to class PostMessageRequest');
    if (cuerpo === '') return this.rechazar(reply, 'Text message is empty');
    const numeros = b.phoneNumbers;
    if (!Array.isArray(numeros) || numeros.some((n) => typeof n !== 'string'))
      return this.rechazar(reply, 'Failed to convert request body to class PostMessageRequest');
    if (numeros.length === 0) return this.rechazar(reply, 'Empty phone numbers list');
    const sim = b.simNumber;
    if (sim !== undefined && sim !== null && (typeof sim !== 'number' || !Number.isInteger(sim)))
      return this.rechazar(reply, 'Failed to convert request body to class PostMessageRequest');
    if (typeof sim === 'number' && sim < 1)
      return this.rechazar(reply, 'SIM number cannot be less than 1');
    const ttl = b.ttl;
    const validUntil = b.validUntil;
    if (ttl !== undefined && ttl !== null && validUntil !== undefined && validUntil !== null)
      return this.rechazar(reply, 'fields conflict: ttl and validUntil');
    if (ttl !== undefined && ttl !== null && (typeof ttl !== 'number' || !Number.isInteger(ttl)))
      return this.rechazar(reply, 'Failed to convert request body to class PostMessageRequest');
    const hasta =
      typeof ttl === 'number'
        ? Date.now() + ttl * 1000
        : typeof validUntil === 'string'
          ? Date.parse(validUntil)
          : null;
    if (hasta !== null && (Number.isNaN(hasta) || hasta < Date.now()))
      return this.rechazar(reply, 'message already expired');
    const id = typeof b.id === 'string' && b.id ? b.id : `sim-${this.siguiente++}`;
    if (this.mensajes.has(id)) {
      this.duplicadosRechazados++;
      return reply.code(409).send({ message: 'Message with the same ID already exists' });
    }
    if (this.comportamiento.tasaFallo > 0 && Math.random() < this.comportamiento.tasaFallo)
      return reply.code(500).send({ message: 'Internal Server Error' });
    const m: MensajeAndroid = {
      id,
      deviceId: 'simulador',
      state: 'Pending',
      isHashed: false,
      isEncrypted: false,
      textMessage: { text: cuerpo },
      recipients: (numeros as string[]).map((phoneNumber) => ({
        phoneNumber,
        state: 'Pending',
        error: null,
      })),
      states: { Pending: new Date().toISOString() },
      simNumber: typeof sim === 'number' ? sim : null,
      validUntil: hasta,
      withDeliveryReport: b.withDeliveryReport !== false,
    };
    this.mensajes.set(id, m);
    this.enEspera.add(m);
    const respuesta = this.publico(m);
    this.cola.push(m);
    this.trabajar();
    return reply.code(202).send(respuesta);
  }

  /** The message as the API answers it (a copy: the phone goes on changing it). */
  private publico(m: MensajeAndroid) {
    const { simNumber: _s, validUntil: _v, withDeliveryReport: _w, ...p } = m;
    return JSON.parse(JSON.stringify(p)) as Omit<
      MensajeAndroid,
      'simNumber' | 'validUntil' | 'withDeliveryReport'
    >;
  }

  /** Signs a webhook body as the app does (PayloadSingingPlugin): X-Timestamp and X-Signature. */
  firmar(cuerpo: string, segundos = Math.floor(Date.now() / 1000)): Record<string, string> {
    const marca = String(segundos);
    const firma = crypto
      .createHmac('sha256', this.claveFirma)
      .update(cuerpo + marca)
      .digest('hex');
    return { 'x-timestamp': marca, 'x-signature': firma };
  }

  /** The body of an 'sms:received' delivery to one webhook. */
  cuerpoSms(w: WebhookAndroid, sms: SmsEntrante): string {
    const recibido = sms.recibido ?? Date.now();
    return JSON.stringify({
      deviceId: 'simulador',
      event: 'sms:received',
      id: crypto.randomBytes(11).toString('base64url'),
      payload: {
        // The app's id is a hash of the content: two equal messages share it.
        messageId: crypto.createHash('md5').update(`${sms.de}\n${sms.texto}`).digest('hex'),
        message: sms.texto,
        phoneNumber: sms.de,
        simNumber: sms.sim === undefined ? 1 : sms.sim,
        receivedAt: horaLocal(recibido, this.o.desfaseMinutos ?? -360),
      },
      webhookId: w.id,
    });
  }

  /** POSTs one body to a webhook url, signed now; returns the receiver's status (0: unreachable). */
  async entregarWebhook(
    url: string,
    cuerpo: string,
    cabeceras: Record<string, string> = this.firmar(cuerpo),
  ): Promise<number> {
    let status = 0;
    try {
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=UTF-8', ...cabeceras },
        body: cuerpo,
        signal: AbortSignal.timeout(30_000),
      });
      await r.arrayBuffer();
      status = r.status;
    } catch {
      /* unreachable: retried like a refusal */
    }
    this.intentosWebhook.push({ url, cuerpo, cabeceras, status });
    if (status >= 200 && status < 300) this.webhooksEntregados++;
    else this.webhooksFallidos++;
    return status;
  }

  /** An SMS reaches the phone: every 'sms:received' webhook gets it, retried with the app's
   * backoff until answered 2xx or given up. Resolves with each webhook's last status. */
  async recibirSms(sms: SmsEntrante): Promise<number[]> {
    const destinos = [...this.webhooks.values()].filter((w) => w.event === 'sms:received');
    return Promise.all(
      destinos.map(async (w) => {
        const cuerpo = this.cuerpoSms(w, sms);
        let espera = this.o.reintentoMs ?? 10_000;
        for (let intento = 0; ; intento++) {
          const status = await this.entregarWebhook(w.url, cuerpo);
          if ((status >= 200 && status < 300) || intento >= (this.o.reintentos ?? 14))
            return status;
          await new Promise<void>((r) => this.luego(espera, r));
          espera *= 2;
        }
      }),
    );
  }

  private rutas(): void {
    this.app.addHook('onRequest', async (req, reply) => {
      if (this.comportamiento.caido)
        return reply.code(503).send({ message: 'Service Unavailable' });
      if (!this.autorizado(req.headers.authorization))
        return reply.code(401).send({ message: 'Unauthorized' });
      await esperar(this.comportamiento.latenciaMs);
    });
    // An unreadable body is a 400 with the gateway's shape, as Ktor's BadRequestException.
    this.app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
      const status = err.statusCode ?? 500;
      if (status === 400) return this.rechazar(reply, err.message);
      return reply.code(status).send({ message: err.message });
    });

    this.app.get('/webhooks', async () => [...this.webhooks.values()]);
    this.app.post('/webhooks', async (req, reply) => {
      const b = (req.body ?? {}) as { id?: unknown; url?: unknown; event?: unknown };
      if (typeof b.url !== 'string' || !/^https?:\/\/[^/\s]+/.test(b.url))
        return this.rechazar(reply, 'url must be a valid http(s) URL');
      if (typeof b.event !== 'string' || !EVENTOS.has(b.event))
        return this.rechazar(reply, `Unknown event: ${String(b.event)}`);
      const id =
        typeof b.id === 'string' && b.id ? b.id : crypto.randomBytes(11).toString('base64url');
      const w: WebhookAndroid = { id, deviceId: null, url: b.url, event: b.event, source: 'Local' };
      this.webhooks.set(id, w);
      return reply.code(201).send(w);
    });
    this.app.delete('/webhooks/:id', async (req, reply) => {
      this.webhooks.delete((req.params as { id: string }).id);
      return reply.code(204).send();
    });
    const ajustes = () => ({
      webhooks: { internet_required: true, retry_count: this.o.reintentos ?? 14 },
    });
    this.app.get('/settings', async (_req, reply) =>
      this.o.conAjustes === false ? reply.code(404).send() : ajustes(),
    );
    this.app.patch('/settings', async (req, reply) => {
      if (this.o.conAjustes === false) return reply.code(404).send();
      const b = (req.body ?? {}) as { webhooks?: { signing_key?: unknown } };
      if (!b || typeof b !== 'object' || Array.isArray(b))
        return reply.code(400).send({ message: 'Invalid request: not an object' });
      const clave = b.webhooks?.signing_key;
      this.ajustesCambiados++;
      if (typeof clave === 'string' && clave) this.claveFirma = clave;
      else if (clave === null) this.claveFirma = crypto.randomBytes(6).toString('base64url');
      return ajustes();
    });

    for (const ruta of ['/message', '/messages']) {
      this.app.post(ruta, (req, reply) => this.recibir(req, reply));

      this.app.get(ruta, async (req, reply) => {
        if (this.o.conLista === false) return reply.code(404).send();
        const q = req.query as { state?: string; limit?: string; offset?: string };
        const lista = (q.state === 'Pending' ? [...this.enEspera] : [...this.mensajes.values()])
          .filter((m) => !q.state || m.state === q.state)
          .reverse();
        const limite = Number(q.limit ?? 50);
        const desde = Number(q.offset ?? 0);
        reply.header('X-Total-Count', String(lista.length));
        return lista.slice(desde, desde + limite).map((m) => {
          const { textMessage: _t, ...p } = this.publico(m);
          return p;
        });
      });

      this.app.get(`${ruta}/:id`, async (req, reply) => {
        const m = this.mensajes.get((req.params as { id: string }).id);
        if (!m) return reply.code(404).send();
        return this.publico(m);
      });

      this.app.delete(`${ruta}/:id`, async (req, reply) => {
        if (this.o.conCancelar === false) return reply.code(405).send();
        const id = (req.params as { id: string }).id;
        const m = this.mensajes.get(id);
        if (!m) return reply.code(404).send();
        if (m.state !== 'Cancelled') {
          if (m.state !== 'Pending')
            return reply.code(400).send({ message: `Message ${id} is not in Pending state` });
          this.cambiar(m, null, 'Cancelled', null);
          this.cancelados++;
        }
        const { textMessage: _t, ...p } = this.publico(m);
        return p;
      });
    }
  }
}
