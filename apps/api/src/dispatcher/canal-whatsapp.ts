import { msg } from '@pregon/contract/messages';
import { CODIGOS_WHATSAPP, leerAccionWhatsapp } from '@pregon/contract/rules/whatsapp';
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

// The WhatsApp Cloud API: `POST /{version}/{phone-number-id}/messages` with a bearer token: an
// approved template (`type: 'template'`, name, language, body parameters) when the exercise's
// accion holds one, else free text (delivered only inside the 24-hour service window: the API
// answers 131047 otherwise). Receipts arrive as status webhooks at the api (webhook-whatsapp.ts).
// The API takes no idempotency key: a request whose answer was lost is 'incierto', never resent.

/** Graph API version used when the device's credentials name none. */
export const VERSION_WHATSAPP = 'v21.0';

/** Cloud API error codes that mean the recipient's number cannot receive the message. */
const CODIGOS_INVALIDOS = new Set([131030, 100, 131009]);
/** Cloud API error codes of a template that does not exist, is not approved or does not fit. */
const CODIGOS_PLANTILLA = new Set([132000, 132001, 132005, 132007, 132012, 132015, 132016]);

/** The `messages` request body for one recipient and an exercise's accion. */
export function cuerpoWhatsapp(telefono: string, accion: string): Record<string, unknown> {
  const a = leerAccionWhatsapp(accion);
  const base = {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: telefono.replace(/^\+/, ''),
  };
  if (a.tipo === 'texto')
    return { ...base, type: 'text', text: { preview_url: false, body: a.texto } };
  return {
    ...base,
    type: 'template',
    template: {
      name: a.plantilla,
      language: { code: a.idioma },
      components: a.parametros.length
        ? [{ type: 'body', parameters: a.parametros.map((text) => ({ type: 'text', text })) }]
        : [],
    },
  };
}

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
        cuerpo: cuerpoWhatsapp(e.telefono, e.texto),
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
    const codigo = cuerpo.error?.code ?? -1;
    const motivo = `WhatsApp HTTP ${r.status}${cuerpo.error ? ` (${codigo}): ${cuerpo.error.message}` : ''}`;
    if (ok) return { tipo: 'incierto', motivo };
    if (r.status === 401 || r.status === 403 || codigo === CODIGOS_WHATSAPP.token)
      return {
        tipo: 'reintentar',
        pausar: true,
        motivo: msg('credencialesEquipoInvalidas', {
          alias: this.o.equipo.alias,
          protocolo: 'WhatsApp',
          detalle: motivo,
        }),
      };
    if (CODIGOS_WHATSAPP.reintentar.includes(codigo))
      return { tipo: 'reintentar', motivo: `${msg('whatsappLimite', { codigo })} — ${motivo}` };
    if (codigo === CODIGOS_WHATSAPP.fueraDeVentana)
      return { tipo: 'fallido', motivo: msg('whatsappFueraDeVentana') };
    if (codigo === CODIGOS_WHATSAPP.noEntregable)
      return { tipo: 'invalido', motivo: msg('whatsappNoEntregable') };
    if (CODIGOS_PLANTILLA.has(codigo)) {
      const a = leerAccionWhatsapp(e.texto);
      return {
        tipo: 'fallido',
        motivo: `${msg('whatsappPlantillaInvalida', {
          plantilla: a.tipo === 'plantilla' ? a.plantilla : '',
          idioma: a.tipo === 'plantilla' ? a.idioma : '',
        })} — ${motivo}`,
      };
    }
    if (r.status === 400 && CODIGOS_INVALIDOS.has(codigo)) return { tipo: 'invalido', motivo };
    if (r.status === 429 || r.status >= 500) return { tipo: 'reintentar', motivo };
    return { tipo: 'fallido', motivo };
  }

  async cerrar(): Promise<void> {}
}

registrarCanal('whatsapp', { crear: (o) => new CanalWhatsapp(o), idempotente: false });
