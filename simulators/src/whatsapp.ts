import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { parametrosDeCuerpo, textoDePlantilla } from '@pregon/contract/rules/whatsapp';
import {
  comportamientoDe,
  NUMERO_VALIDO,
  esperar,
  type Comportamiento,
  type MensajeRecibido,
} from './comun.ts';

// The WhatsApp Cloud API on loopback: `POST /{version}/{phone-number-id}/messages` with a bearer
// token (text messages), answered with a wamid; after the receipt delay it POSTs the 'sent' and
// 'delivered' statuses to the configured webhook URL, signed with X-Hub-Signature-256 (HMAC-SHA256
// of the raw body with the app secret), batching the statuses of up to 100 messages per call.
// As Meta does, free text reaches only recipients inside the 24-hour service window (else 131047)
// and a template must exist, be APPROVED in that language and get its body parameters (132001,
// 132000); `GET /{version}/{waba-id}/message_templates` lists the templates.

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
}

interface Estado {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  timestamp: string;
  recipient_id: string;
}

/** A simulated WhatsApp Cloud API. */
export class SimuladorWhatsapp {
  /** Every message accepted, in order. */
  readonly registro: MensajeRecibido[] = [];
  /** Current behaviour; change it with ajustar(). */
  readonly comportamiento: Comportamiento;
  /** Webhook calls answered 200 by the receiver. */
  webhooksEntregados = 0;
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

  private error(code: number, message: string) {
    return { error: { message, type: 'OAuthException', code, fbtrace_id: 'sim' } };
  }

  private rutas(): void {
    this.app.get('/:version/:wabaId/message_templates', async (req, reply) => {
      if (this.o.token && req.headers.authorization !== `Bearer ${this.o.token}`)
        return reply.code(401).send(this.error(190, 'Invalid OAuth access token'));
      const { wabaId } = req.params as { wabaId: string };
      if (this.o.wabaId && wabaId !== this.o.wabaId)
        return reply.code(400).send(this.error(100, `Object with ID '${wabaId}' does not exist`));
      this.consultasPlantillas++;
      return {
        data: this.plantillas().map((p, i) => ({ ...p, id: String(9000 + i) })),
        paging: { cursors: { before: 'MAZDZD', after: 'MjQZD' } },
      };
    });
    this.app.post('/:version/:phoneId/messages', async (req, reply) => {
      const c = this.comportamiento;
      if (c.caido) return reply.code(503).send(this.error(2, 'Service temporarily unavailable'));
      if (this.o.token && req.headers.authorization !== `Bearer ${this.o.token}`)
        return reply.code(401).send(this.error(190, 'Invalid OAuth access token'));
      const { phoneId } = req.params as { phoneId: string };
      if (this.o.phoneNumberId && phoneId !== this.o.phoneNumberId)
        return reply
          .code(400)
          .send(
            this.error(100, `Unsupported post request. Object with ID '${phoneId}' does not exist`),
          );
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
      const forzado = this.erroresForzados.shift();
      if (forzado !== undefined)
        return reply
          .code(forzado === 190 ? 401 : 400)
          .send(this.error(forzado, `Simulated error ${forzado}`));
      if (b.messaging_product !== 'whatsapp')
        return reply.code(400).send(this.error(100, 'Invalid parameter'));
      const to = String(b.to ?? '');
      if (!NUMERO_VALIDO.test(to))
        return reply.code(400).send(this.error(131026, 'Message undeliverable'));
      let texto: string;
      if (b.type === 'text' && b.text?.body) {
        const escribio = this.escribieron.get(to);
        if (!this.o.ventanaAbierta && !(escribio && Date.now() - escribio < 24 * 3_600_000))
          return reply
            .code(400)
            .send(
              this.error(
                131047,
                'Re-engagement message: more than 24 hours have passed since the recipient last replied',
              ),
            );
        texto = b.text.body;
      } else if (b.type === 'template' && b.template?.name) {
        const t = b.template;
        const p = this.plantillas().find(
          (x) => x.name === t.name && x.language === t.language?.code && x.status === 'APPROVED',
        );
        if (!p)
          return reply
            .code(404)
            .send(this.error(132001, 'Template name does not exist in the translation'));
        const cuerpo = p.components.find((c) => c.type === 'BODY')?.text ?? '';
        const params = (t.components ?? [])
          .filter((c) => c.type === 'body')
          .flatMap((c) => c.parameters ?? [])
          .map((x) => String(x.text ?? ''));
        if (params.length !== parametrosDeCuerpo(cuerpo))
          return reply
            .code(400)
            .send(this.error(132000, 'Number of parameters does not match the expected number'));
        texto = textoDePlantilla(cuerpo, params);
      } else return reply.code(400).send(this.error(100, 'Invalid parameter'));
      if (c.tasaFallo > 0 && Math.random() < c.tasaFallo)
        return reply.code(500).send(this.error(131000, 'Something went wrong'));
      const id = `wamid.${crypto.randomBytes(12).toString('base64url')}`;
      const t = Date.now();
      this.registro.push({ id, telefono: to, texto, t });
      setTimeout(() => {
        const ts = String(Math.floor(Date.now() / 1000));
        this.cola.push({ id, status: 'sent', timestamp: ts, recipient_id: to });
        this.cola.push({ id, status: 'delivered', timestamp: ts, recipient_id: to });
        void this.vaciar();
      }, c.retrasoReciboMs).unref();
      return {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id }],
      };
    });
  }

  private async vaciar(): Promise<void> {
    if (this.vaciando) return;
    this.vaciando = true;
    try {
      while (this.cola.length && this.o.webhookUrl) {
        const lote = this.cola.splice(0, 200);
        const cuerpo = JSON.stringify({
          object: 'whatsapp_business_account',
          entry: [
            {
              id: 'sim-waba',
              changes: [
                {
                  field: 'messages',
                  value: {
                    messaging_product: 'whatsapp',
                    metadata: {
                      display_phone_number: '15550000000',
                      phone_number_id: this.o.phoneNumberId ?? '',
                    },
                    statuses: lote,
                  },
                },
              ],
            },
          ],
        });
        const firma = crypto
          .createHmac('sha256', this.o.appSecret ?? '')
          .update(cuerpo)
          .digest('hex');
        try {
          const r = await fetch(this.o.webhookUrl, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-hub-signature-256': `sha256=${firma}`,
            },
            body: cuerpo,
          });
          if (r.ok) this.webhooksEntregados++;
          else throw new Error(String(r.status));
        } catch {
          // Meta retries failed webhooks; so does the simulator, after a pause.
          this.cola.unshift(...lote);
          await esperar(1000);
        }
      }
    } finally {
      this.vaciando = false;
    }
  }
}
