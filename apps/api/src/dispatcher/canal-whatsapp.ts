import { msg } from '@pregon/contract/messages';
import {
  credencial,
  noLlego,
  registrarCanal,
  textoError,
  type Canal,
  type Envio,
  type OpcionesCanal,
  type ResultadoEnvio,
} from './canal.ts';
import { pedirJson } from './http-cliente.ts';

// The WhatsApp Cloud API: `POST /{version}/{phone-number-id}/messages` with a bearer token,
// text messages. Receipts arrive as status webhooks at the api (webhook-whatsapp.ts). The API
// takes no idempotency key: a request whose answer was lost is 'incierto', never resent.

/** Graph API version used when the device's credentials name none. */
export const VERSION_WHATSAPP = 'v21.0';

/** Cloud API error codes that mean the recipient cannot receive the message. */
const CODIGOS_INVALIDOS = new Set([131026, 131030, 100, 131009]);

class CanalWhatsapp implements Canal {
  private readonly endpoint: string;
  private readonly token: string;

  constructor(private readonly o: OpcionesCanal) {
    const c = o.equipo.credenciales;
    const version = credencial(c, 'whatsapp', 'version') || VERSION_WHATSAPP;
    const telefonoId = credencial(c, 'whatsapp', 'phone_number_id');
    this.endpoint = `${o.equipo.url.replace(/\/+$/, '')}/${version}/${encodeURIComponent(telefonoId)}/messages`;
    this.token = credencial(c, 'whatsapp', 'token');
  }

  async enviar(e: Envio): Promise<ResultadoEnvio> {
    let r: { status: number; cuerpo: Record<string, unknown> };
    try {
      r = await pedirJson(this.endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}` },
        cuerpo: {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: e.telefono.replace(/^\+/, ''),
          type: 'text',
          text: { preview_url: false, body: e.texto },
        },
        timeoutMs: this.o.config.timeoutEnvioMs,
      });
    } catch (err) {
      const motivo = `WhatsApp: ${textoError(err)}`;
      return noLlego(err) ? { tipo: 'reintentar', motivo } : { tipo: 'incierto', motivo };
    }
    const ok = r.status >= 200 && r.status < 300;
    const cuerpo = r.cuerpo as {
      messages?: { id?: string }[];
      error?: { message?: string; code?: number };
    };
    if (ok && cuerpo.messages?.[0]?.id)
      return { tipo: 'aceptado', id_gateway: cuerpo.messages[0].id };
    const motivo = `WhatsApp HTTP ${r.status}${cuerpo.error ? ` (${cuerpo.error.code}): ${cuerpo.error.message}` : ''}`;
    if (ok) return { tipo: 'incierto', motivo };
    if (r.status === 401 || r.status === 403)
      return {
        tipo: 'reintentar',
        pausar: true,
        motivo: msg('credencialesEquipoInvalidas', {
          alias: this.o.equipo.alias,
          protocolo: 'WhatsApp',
          detalle: motivo,
        }),
      };
    if (r.status === 400 && CODIGOS_INVALIDOS.has(cuerpo.error?.code ?? -1))
      return { tipo: 'invalido', motivo };
    if (r.status === 429 || r.status >= 500) return { tipo: 'reintentar', motivo };
    return { tipo: 'fallido', motivo };
  }

  async cerrar(): Promise<void> {}
}

registrarCanal('whatsapp', { crear: (o) => new CanalWhatsapp(o), idempotente: false });
