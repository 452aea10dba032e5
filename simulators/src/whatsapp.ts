import crypto from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { parametrosDeCuerpo, textoDePlantilla } from '@pregon/contract/rules/whatsapp';
import {
  comportamientoDe,
  NUMERO_VALIDO,
  esperar,
  type Comportamiento,
  type MensajeRecibido,
} from './comun.ts';

// The WhatsApp Cloud API on loopback: `POST /{version}/{phone-number-id}/messages` with a bearer
// token (text and template messages), answered with a wamid; after the receipt delay it POSTs the
// 'sent' and 'delivered' statuses ('failed' with 131026 for numbers in `sinWhatsapp`) to the
// configured webhook URL, signed with X-Hub-Signature-256 (HMAC-SHA256 of the raw body with the
// app secret), batching the statuses of up to 100 messages per call and retrying a delivery not
// answered 200, as Meta does. As Meta does, free text reaches only recipients inside the 24-hour
// service window (else 131047), a template must exist, be APPROVED in that language and get its
// body parameters (132001, 132000), and errors come in Graph's error object with Meta's HTTP
// status: rate limits (throughput beyond `maxPorSegundo`: 130429; the same recipient again within
// `pausaParMs`: 131056; 80007 and 4 when forced) are HTTP 400 (4: 429), an unknown phone number id
// is code 100 with subcode 33. `webhooksMixtos` makes each delivery look like a real subscription's:
// several entries and changes mixing statuses with users' messages, template status and account
// updates, system errors and the statuses of another phone number of the same app.
// `GET /{version}/{waba-id}/message_templates` lists the templates.
// Replies (issue 46.1): recibirMensaje() is a user writing to the business number: a 'messages'
// change with the contact and the message ('text' with text.body; 'button', a template's
// quick-reply, with button.text and payload; 'interactive' with a button_reply), signed like the
// statuses and delivered again (every `reintentoMs`) until answered 200; it opens the 24-hour
// window for that number, as Meta does.

/** What Meta answers for an error code: HTTP status, title and details (Meta's error-code
 * reference, WhatsApp Business Platform). */
export const ERRORES_META: Readonly<
  Record<number, { http: number; titulo: string; detalles: string }>
> = {
  0: {
    http: 401,
    titulo: 'AuthException',
    detalles: 'We were unable to authenticate the app user.',
  },
  1: { http: 400, titulo: 'API Unknown', detalles: 'Invalid request or possible server error.' },
  2: {
    http: 503,
    titulo: 'API Service',
    detalles: 'Temporary due to downtime or due to being overloaded.',
  },
  3: { http: 500, titulo: 'API Method', detalles: 'Capability or permissions issue.' },
  4: {
    http: 429,
    titulo: 'API Too Many Calls',
    detalles: 'The app has reached its API call rate limit.',
  },
  10: {
    http: 403,
    titulo: 'Permission Denied',
    detalles: 'Permission is either not granted or has been removed.',
  },
  33: {
    http: 400,
    titulo: 'Parameter value is not valid',
    detalles: 'The business phone number has been deleted.',
  },
  100: {
    http: 400,
    titulo: 'Invalid parameter',
    detalles: 'The request included one or more unsupported or misspelled parameters.',
  },
  190: {
    http: 401,
    titulo: 'Access token has expired',
    detalles: 'Your access token has expired.',
  },
  368: {
    http: 403,
    titulo: 'Temporarily blocked for policies violations',
    detalles:
      'The WhatsApp Business Account associated with the app has been restricted or disabled for violating a platform policy.',
  },
  80007: {
    http: 400,
    titulo: 'Rate limit issues',
    detalles: 'The WhatsApp Business Account has reached its rate limit.',
  },
  130429: {
    http: 400,
    titulo: 'Rate limit hit',
    detalles: 'Cloud API message throughput has been reached.',
  },
  131000: {
    http: 500,
    titulo: 'Something went wrong',
    detalles: 'Message failed to send due to an unknown error.',
  },
  131008: {
    http: 400,
    titulo: 'Required parameter is missing',
    detalles: 'The request is missing a required parameter.',
  },
  131009: {
    http: 400,
    titulo: 'Parameter value is not valid',
    detalles: 'One or more parameter values are invalid.',
  },
  131016: {
    http: 503,
    titulo: 'Service unavailable',
    detalles: 'A service is temporarily unavailable.',
  },
  131026: {
    http: 400,
    titulo: 'Message undeliverable',
    detalles:
      'Unable to deliver message. The recipient phone number may not be a WhatsApp phone number.',
  },
  131031: {
    http: 403,
    titulo: 'Account has been locked',
    detalles: 'The WhatsApp Business Account has been locked.',
  },
  131047: {
    http: 400,
    titulo: 'Re-engagement message',
    detalles:
      'More than 24 hours have passed since the recipient last replied to the sender number.',
  },
  131048: {
    http: 400,
    titulo: 'Spam rate limit hit',
    detalles:
      'Message failed to send because there are restrictions on how many messages can be sent from this phone number.',
  },
  131056: {
    http: 400,
    titulo: '(Business Account, Consumer Account) pair rate limit hit',
    detalles:
      'Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.',
  },
  132000: {
    http: 400,
    titulo: 'Number of parameters does not match the expected number of params',
    detalles:
      'The number of variable parameter values included in the request did not match the number of variable parameters defined in the template.',
  },
  132001: {
    http: 404,
    titulo: 'Template does not exist',
    detalles:
      'The template does not exist in the specified language or the template has not been approved.',
  },
  133010: {
    http: 400,
    titulo: 'Phone number Not Registered',
    detalles: 'The phone number is not registered on the WhatsApp Business Platform.',
  },
};

/** The Graph error object Meta answers with. */
export function errorMeta(code: number, detalles?: string) {
  const e = ERRORES_META[code];
  return {
    error: {
      message: `(#${code}) ${e?.titulo ?? 'Simulated error'}`,
      type: 'OAuthException',
      code,
      error_data: { messaging_product: 'whatsapp', details: detalles ?? e?.detalles ?? '' },
      fbtrace_id: `sim${crypto.randomBytes(6).toString('hex')}`,
    },
  };
}

/** The error a failed status webhook carries (code, title, message, details, href). */
function errorEstado(code: number) {
  const e = ERRORES_META[code];
  return {
    code,
    title: e?.titulo ?? 'Failed',
    message: e?.titulo ?? 'Failed',
    error_data: { details: e?.detalles ?? '' },
    href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
  };
}

/** A template as the Cloud API describes it (the fields Pregón reads). */
export interface PlantillaSim {
  name: string;
  language: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED';
  category?: string;
  components: { type: string; text?: string }[];
}

/** The simulator's default templates: two approved in es_MX, one pending. */
export const PLANTILLAS_DEMO: PlantillaSim[] = [
  {
    name: 'aviso_simulacro',
    language: 'es_MX',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [
      {
        type: 'BODY',
        text: 'Simulacro en {{1}}: diríjase a {{2}} y espere instrucciones.',
      },
    ],
  },
  {
    name: 'fin_simulacro',
    language: 'es_MX',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'El simulacro ha terminado. Gracias por participar.' }],
  },
  {
    name: 'borrador_aviso',
    language: 'es_MX',
    status: 'PENDING',
    components: [{ type: 'BODY', text: 'Borrador {{1}}' }],
  },
];

/** Options of the WhatsApp Cloud API simulator. */
export interface OpcionesWhatsapp extends Partial<Comportamiento> {
  port?: number;
  host?: string;
  token?: string;
  phoneNumberId?: string;
  appSecret?: string;
  /** Where status webhooks go (the api's /webhooks/whatsapp/); none when unset. */
  webhookUrl?: string;
  /** The WhatsApp Business Account id whose templates GET lists (any id when unset). */
  wabaId?: string;
  /** Templates of the account (default PLANTILLAS_DEMO). */
  plantillas?: PlantillaSim[];
  /** Every recipient is inside the service window (an opt-in group); default false. */
  ventanaAbierta?: boolean;
  /** Throughput of the phone number, messages per second (Meta's default is 80); beyond it
   * 130429 'Rate limit hit'. Unlimited when unset. */
  maxPorSegundo?: number;
  /** Pair rate limit: a second message to the same recipient within this many ms gets 131056
   * (Meta: about one every 6 s). Off when unset. */
  pausaParMs?: number;
  /** Numbers that have no WhatsApp: accepted, then a 'failed' status with 131026. */
  sinWhatsapp?: Iterable<string>;
  /** Each webhook delivery mixes several entries and changes (see the header). */
  webhooksMixtos?: boolean;
  /** The other phone number of the same app whose statuses mixed deliveries carry. */
  otroTelefonoId?: string;
  /** Wait between deliveries of a user's message not answered 200 (default 1 000 ms). */
  reintentoMs?: number;
  /** Deliveries of a user's message before it is given up (default 50). */
  intentosMensaje?: number;
}

/** A user's message to the business number (POST /whatsapp/mo/ of the control server). */
export interface MensajeUsuario {
  /** The sender's WhatsApp id (international digits, no '+'). */
  de: string;
  texto: string;
  /** 'text' (default), 'button' (a template's quick-reply) or 'interactive' (a reply button). */
  tipo?: 'text' | 'button' | 'interactive';
  /** The button's payload or reply id (default: the text). */
  payload?: string;
  /** The contact's profile name. */
  nombre?: string;
}

interface Estado {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  timestamp: string;
  recipient_id: string;
  errors?: ReturnType<typeof errorEstado>[];
}

/** A simulated WhatsApp Cloud API. */
export class SimuladorWhatsapp {
  /** Every message accepted, in order. */
  readonly registro: MensajeRecibido[] = [];
  /** Current behaviour; change it with ajustar(). */
  readonly comportamiento: Comportamiento;
  /** Webhook calls answered 200 by the receiver. */
  webhooksEntregados = 0;
  /** Webhook calls the receiver did not answer 2xx (Meta retries the whole delivery). */
  webhooksRechazados = 0;
  /** Sends refused by the throughput or pair rate limit (130429, 131056). */
  limitados = 0;
  /** While set, every send is answered with this error code (e.g. 100, 131009). */
  errorFijo: number | undefined;
  /** Numbers without WhatsApp (see OpcionesWhatsapp.sinWhatsapp). */
  readonly sinWhatsapp: Set<string>;
  private segundo = { s: 0, n: 0 };
  private readonly ultimoPar = new Map<string, number>();
  private readonly app: FastifyInstance;
  private port: number;
  private cola: Estado[] = [];
  private vaciando = false;
  /** Numbers that wrote to the business in the last 24 hours: number → epoch ms of their message. */
  readonly escribieron = new Map<string, number>();
  /** Error codes the next send requests get, one each, before any other check (e.g. 130429). */
  readonly erroresForzados: number[] = [];
  /** Template-list requests answered. */
  consultasPlantillas = 0;

  constructor(readonly o: OpcionesWhatsapp = {}) {
    this.comportamiento = comportamientoDe(o);
    this.sinWhatsapp = new Set(o.sinWhatsapp ?? []);
    this.port = o.port ?? 0;
    this.app = Fastify({ logger: false });
    this.rutas();
  }

  /** Base URL to put in a device's url field. */
  get url(): string {
    return `http://${this.o.host ?? '127.0.0.1'}:${this.port}`;
  }

  /** Sets where status webhooks go. */
  set webhookUrl(u: string | undefined) {
    this.o.webhookUrl = u;
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
    this.o.webhookUrl = undefined;
    await this.app.close();
  }

  private plantillas(): PlantillaSim[] {
    return this.o.plantillas ?? PLANTILLAS_DEMO;
  }

  /** Answers with Meta's error object and HTTP status for `code`. */
  private fallo(reply: FastifyReply, code: number, detalles?: string) {
    return reply.code(ERRORES_META[code]?.http ?? 400).send(errorMeta(code, detalles));
  }

  /** The signature Meta puts in X-Hub-Signature-256 for a body. */
  firmar(cuerpo: string): string {
    return `sha256=${crypto
      .createHmac('sha256', this.o.appSecret ?? '')
      .update(cuerpo)
      .digest('hex')}`;
  }

  /** POSTs one webhook delivery (signed unless `firma` is given) to the webhook URL; returns
   * the receiver's HTTP status. */
  async entregarWebhook(cuerpo: unknown, firma?: string): Promise<number> {
    if (!this.o.webhookUrl) throw new Error('sin webhookUrl');
    const texto = typeof cuerpo === 'string' ? cuerpo : JSON.stringify(cuerpo);
    const r = await fetch(this.o.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': firma ?? this.firmar(texto),
      },
      body: texto,
    });
    await r.arrayBuffer();
    if (r.ok) this.webhooksEntregados++;
    else this.webhooksRechazados++;
    return r.status;
  }

  /** The webhook body Meta sends for a user's message (one entry, one 'messages' change). */
  cuerpoMensaje(m: MensajeUsuario, id: string, segundos: number): unknown {
    const de = m.de.replace(/^\+/, '');
    const base = { from: de, id, timestamp: String(segundos) };
    const tipo = m.tipo ?? 'text';
    const mensaje =
      tipo === 'button'
        ? { ...base, type: 'button', button: { text: m.texto, payload: m.payload ?? m.texto } }
        : tipo === 'interactive'
          ? {
              ...base,
              type: 'interactive',
              interactive: {
                type: 'button_reply',
                button_reply: { id: m.payload ?? m.texto, title: m.texto },
              },
            }
          : { ...base, type: 'text', text: { body: m.texto } };
    return {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: this.o.wabaId ?? 'sim-waba',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: this.metadata(),
                contacts: [{ profile: { name: m.nombre ?? 'Simulado' }, wa_id: de }],
                messages: [mensaje],
              },
            },
          ],
        },
      ],
    };
  }

  /** A user writes to the business number: the message's webhook is delivered (signed) until
   * answered 200 or given up; it opens the 24-hour window. Resolves with the last status and the
   * message's wamid. */
  async recibirMensaje(m: MensajeUsuario): Promise<{ status: number; id: string }> {
    const id = `wamid.${crypto.randomBytes(12).toString('base64url')}`;
    const ahora = Date.now();
    this.escribieron.set(m.de.replace(/^\+/, ''), ahora);
    this.escribieron.set(m.de.startsWith('+') ? m.de : `+${m.de}`, ahora);
    const cuerpo = JSON.stringify(this.cuerpoMensaje(m, id, Math.floor(ahora / 1000)));
    let status = 0;
    for (let i = 0; i < (this.o.intentosMensaje ?? 50); i++) {
      try {
        status = await this.entregarWebhook(cuerpo);
      } catch {
        // Unreachable receiver: a failed delivery, retried like a refusal.
        status = 0;
        this.webhooksRechazados++;
      }
      if (status >= 200 && status < 300) break;
      await esperar(this.o.reintentoMs ?? 1000);
    }
    return { status, id };
  }

  private rutas(): void {
    this.app.get('/:version/:wabaId/message_templates', async (req, reply) => {
      if (this.o.token && req.headers.authorization !== `Bearer ${this.o.token}`)
        return this.fallo(reply, 190, 'Invalid OAuth access token.');
      const { wabaId } = req.params as { wabaId: string };
      if (this.o.wabaId && wabaId !== this.o.wabaId)
        return reply.code(400).send(noExiste(wabaId, 'get'));
      this.consultasPlantillas++;
      return {
        data: this.plantillas().map((p, i) => ({ ...p, id: String(9000 + i) })),
        paging: { cursors: { before: 'MAZDZD', after: 'MjQZD' } },
      };
    });
    this.app.post('/:version/:phoneId/messages', async (req, reply) => {
      const c = this.comportamiento;
      if (c.caido) return this.fallo(reply, 2);
      if (this.o.token && req.headers.authorization !== `Bearer ${this.o.token}`)
        return this.fallo(reply, 190, 'Invalid OAuth access token.');
      const { phoneId } = req.params as { phoneId: string };
      if (this.o.phoneNumberId && phoneId !== this.o.phoneNumberId)
        return reply.code(400).send(noExiste(phoneId, 'post'));
      await esperar(c.latenciaMs);
      const b = (req.body ?? {}) as {
        messaging_product?: string;
        to?: string;
        type?: string;
        text?: { body?: string };
        template?: {
          name?: string;
          language?: { code?: string };
          components?: { type?: string; parameters?: { type?: string; text?: string }[] }[];
        };
      };
      const forzado = this.erroresForzados.shift() ?? this.errorFijo;
      if (forzado !== undefined) return this.fallo(reply, forzado);
      const ahora = Date.now();
      if (this.o.maxPorSegundo !== undefined) {
        const s = Math.floor(ahora / 1000);
        if (this.segundo.s !== s) this.segundo = { s, n: 0 };
        if (this.segundo.n >= this.o.maxPorSegundo) {
          this.limitados++;
          return this.fallo(reply, 130429);
        }
        this.segundo.n++;
      }
      if (b.messaging_product !== 'whatsapp')
        return this.fallo(reply, 100, 'The parameter messaging_product is required.');
      const to = String(b.to ?? '');
      if (!NUMERO_VALIDO.test(to)) return this.fallo(reply, 131026);
      const par = this.ultimoPar.get(to);
      if (this.o.pausaParMs && par !== undefined && ahora - par < this.o.pausaParMs) {
        this.limitados++;
        return this.fallo(reply, 131056);
      }
      let texto: string;
      if (b.type === 'text' && b.text?.body) {
        const escribio = this.escribieron.get(to);
        if (!this.o.ventanaAbierta && !(escribio && Date.now() - escribio < 24 * 3_600_000))
          return this.fallo(reply, 131047);
        texto = b.text.body;
      } else if (b.type === 'template' && b.template?.name) {
        const t = b.template;
        const p = this.plantillas().find(
          (x) => x.name === t.name && x.language === t.language?.code && x.status === 'APPROVED',
        );
        if (!p)
          return this.fallo(
            reply,
            132001,
            `template name (${t.name}) does not exist in ${t.language?.code}`,
          );
        const cuerpo = p.components.find((c) => c.type === 'BODY')?.text ?? '';
        const params = (t.components ?? [])
          .filter((c) => c.type === 'body')
          .flatMap((c) => c.parameters ?? [])
          .map((x) => String(x.text ?? ''));
        if (params.length !== parametrosDeCuerpo(cuerpo)) return this.fallo(reply, 132000);
        texto = textoDePlantilla(cuerpo, params);
      } else
        return this.fallo(reply, 100, 'Param type must be one of the supported message types.');
      if (c.tasaFallo > 0 && Math.random() < c.tasaFallo) return this.fallo(reply, 131000);
      const id = `wamid.${crypto.randomBytes(12).toString('base64url')}`;
      const t = Date.now();
      this.registro.push({ id, telefono: to, texto, t });
      this.ultimoPar.set(to, t);
      if (this.ultimoPar.size > 100_000) this.ultimoPar.clear();
      setTimeout(() => {
        const ts = String(Math.floor(Date.now() / 1000));
        if (this.sinWhatsapp.has(to) || this.sinWhatsapp.has(to.replace(/^\+/, '')))
          this.cola.push({
            id,
            status: 'failed',
            timestamp: ts,
            recipient_id: to,
            errors: [errorEstado(131026)],
          });
        else {
          this.cola.push({ id, status: 'sent', timestamp: ts, recipient_id: to });
          this.cola.push({ id, status: 'delivered', timestamp: ts, recipient_id: to });
        }
        void this.vaciar();
      }, c.retrasoReciboMs).unref();
      return {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id }],
      };
    });
  }

  /** The `value.metadata` of this simulator's phone number (or another of the same app). */
  private metadata(telefonoId = this.o.phoneNumberId ?? '') {
    return { display_phone_number: '15550000000', phone_number_id: telefonoId };
  }

  /** One delivery's body for a batch of statuses: a single change, or with `webhooksMixtos`
   * two entries whose changes mix the statuses with what else a subscription receives. */
  private cuerpoWebhook(lote: Estado[]): unknown {
    const mensajes = (statuses: Estado[], telefonoId?: string) => ({
      field: 'messages',
      value: { messaging_product: 'whatsapp', metadata: this.metadata(telefonoId), statuses },
    });
    if (!this.o.webhooksMixtos)
      return {
        object: 'whatsapp_business_account',
        entry: [{ id: this.o.wabaId ?? 'sim-waba', changes: [mensajes(lote)] }],
      };
    const waba = this.o.wabaId ?? 'sim-waba';
    const time = Math.floor(Date.now() / 1000);
    const mitad = Math.ceil(lote.length / 2);
    const ts = String(time);
    const p = this.plantillas()[0];
    // The same app's other number reports a failure of a wamid of this one's: whoever applies
    // statuses without checking phone_number_id fails a delivered recipient.
    const ajeno: Estado = {
      id: lote[0]?.id ?? 'wamid.ajeno',
      status: 'failed',
      timestamp: ts,
      recipient_id: lote[0]?.recipient_id ?? '5215500000000',
      errors: [errorEstado(131026)],
    };
    return {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: waba,
          time,
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: 'APPROVED',
                message_template_id: 9000,
                message_template_name: p?.name ?? 'aviso_simulacro',
                message_template_language: p?.language ?? 'es_MX',
                reason: 'NONE',
                message_template_category: p?.category ?? 'UTILITY',
              },
            },
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: this.metadata(),
                contacts: [{ profile: { name: 'Vecina' }, wa_id: '5215500000001' }],
                messages: [
                  {
                    from: '5215500000001',
                    id: `wamid.${crypto.randomBytes(12).toString('base64url')}`,
                    timestamp: ts,
                    type: 'text',
                    text: { body: 'Recibido, gracias' },
                  },
                ],
              },
            },
            mensajes(lote.slice(0, mitad)),
          ],
        },
        {
          id: waba,
          time,
          changes: [
            {
              field: 'account_update',
              value: { phone_number: '15550000000', event: 'VERIFIED_ACCOUNT' },
            },
            mensajes([ajeno], this.o.otroTelefonoId ?? '109999999999999'),
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: this.metadata(),
                errors: [errorEstado(130429)],
              },
            },
            mensajes(lote.slice(mitad)),
          ],
        },
      ],
    };
  }

  private async vaciar(): Promise<void> {
    if (this.vaciando) return;
    this.vaciando = true;
    try {
      while (this.cola.length && this.o.webhookUrl) {
        const lote = this.cola.splice(0, 200);
        let status = 0;
        try {
          status = await this.entregarWebhook(this.cuerpoWebhook(lote));
        } catch {
          // unreachable receiver: retried like a refusal
        }
        if (status < 200 || status >= 300) {
          // Meta retries a delivery not answered 200; so does the simulator, after a pause.
          this.cola.unshift(...lote);
          await esperar(1000);
        }
      }
    } finally {
      this.vaciando = false;
    }
  }
}

/** Graph's answer to a request on an object id the token cannot see (code 100, subcode 33). */
function noExiste(id: string, metodo: 'get' | 'post') {
  return {
    error: {
      message: `Unsupported ${metodo} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
      type: 'GraphMethodException',
      code: 100,
      error_subcode: 33,
      fbtrace_id: `sim${crypto.randomBytes(6).toString('hex')}`,
    },
  };
}
