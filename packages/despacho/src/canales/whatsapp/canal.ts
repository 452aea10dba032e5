import { msg } from '@pregon/contract/messages';
import {
  VERSION_API_WHATSAPP,
  claseErrorWhatsapp,
  leerAccionWhatsapp,
  textoErrorMeta,
  type ErrorMeta,
} from '@pregon/contract/rules/whatsapp';
import {
  credencial,
  noLlego,
  registrarCanal,
  textoError,
  type Canal,
  type Envio,
  type OpcionesCanal,
  type ResultadoEnvio,
} from '../../canal.ts';
import { problemaVersionWhatsapp } from '@pregon/contract/rules/equipment';
import { motivoUrlRefusada, pedirJson, urlGateway } from '../../http-cliente.ts';

// The WhatsApp Cloud API: `POST /{version}/{phone-number-id}/messages` with a bearer token: an
// approved template (`type: 'template'`, name, language, body parameters) when the exercise's
// accion holds one, else free text (delivered only inside the 24-hour service window: the API
// answers 131047 otherwise). Receipts arrive as status webhooks at the api (webhook-whatsapp.ts).
// The API takes no idempotency key: a request whose answer was lost is 'incierto', never resent.
// Errors are read by Meta's code (contract rules/whatsapp.ts, claseErrorWhatsapp): credentials,
// account restrictions and an unusable phone_number_id pause the exercise at once with the row
// kept pending; rate limits and Meta's own trouble retry with backoff; a request refused as built
// (100, 131009…) is not the recipient's fault: the row stays pending and the error counts toward
// the automatic pause; 131047 and 131026 are permanent for the recipient.

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
  /** The messages url, or the Spanish reason the device's url or credentials cannot build one. */
  private readonly endpoint: { url: string } | { problema: string };
  private readonly token: string;
  private readonly telefonoId: string;

  constructor(private readonly o: OpcionesCanal) {
    const c = o.equipo.credenciales;
    const version = credencial(c, 'whatsapp', 'version').trim() || VERSION_API_WHATSAPP;
    this.telefonoId = credencial(c, 'whatsapp', 'phone_number_id');
    this.token = credencial(c, 'whatsapp', 'token');
    // The version and the phone number id enter the path: only a version like v21.0, each part
    // encoded and none '..' (issue 49.3); a device saved before the rule pauses with the reason.
    const problema = problemaVersionWhatsapp(version);
    try {
      this.endpoint = problema
        ? { problema }
        : {
            url: urlGateway(o.equipo.url, [version, this.telefonoId, 'messages'], {
              forma: 'formaUrlWhatsapp',
            }),
          };
    } catch (err) {
      this.endpoint = { problema: (err as Error).message };
    }
  }

  async enviar(e: Envio): Promise<ResultadoEnvio> {
    let r: { status: number; cuerpo: Record<string, unknown> };
    // The attempt counts right before the request is sent.
    if (e.salir)
      try {
        await e.salir();
      } catch (err) {
        return { tipo: 'reintentar', motivo: String(err) };
      }
    if ('problema' in this.endpoint)
      return { tipo: 'reintentar', pausar: true, sinSalir: true, motivo: this.endpoint.problema };
    try {
      r = await pedirJson(this.endpoint.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}` },
        cuerpo: cuerpoWhatsapp(e.telefono, e.texto),
        timeoutMs: this.o.config.timeoutEnvioMs,
      });
    } catch (err) {
      const configuracion = motivoUrlRefusada(err);
      if (configuracion)
        return { tipo: 'reintentar', pausar: true, sinSalir: true, motivo: configuracion };
      const motivo = `WhatsApp: ${textoError(err)}`;
      // Refused or unroutable: the request never reached Meta, nothing left.
      return noLlego(err)
        ? { tipo: 'reintentar', motivo, sinSalir: true, sinConexion: true }
        : { tipo: 'incierto', motivo };
    }
    const ok = r.status >= 200 && r.status < 300;
    const cuerpo = r.cuerpo as {
      messages?: { id?: string }[];
      error?: ErrorMeta;
    };
    if (ok && cuerpo.messages?.[0]?.id)
      return { tipo: 'aceptado', id_gateway: cuerpo.messages[0].id };
    const error = cuerpo.error;
    const codigo = typeof error?.code === 'number' ? error.code : -1;
    const detalle = error ? textoErrorMeta(error) : `HTTP ${r.status}`;
    const motivo = `WhatsApp HTTP ${r.status}${error ? ` (${detalle})` : ''}`;
    if (ok) return { tipo: 'incierto', motivo };
    const alias = this.o.equipo.alias;
    const clase = claseErrorWhatsapp(codigo, error?.error_subcode);
    switch (clase) {
      case 'credenciales':
        return this.pausa(
          msg('credencialesEquipoInvalidas', { alias, protocolo: 'WhatsApp', detalle: motivo }),
        );
      case 'cuenta':
        return this.pausa(msg('whatsappCuentaRestringida', { alias, detalle }));
      case 'telefonoId':
        return this.pausa(
          msg('whatsappTelefonoIdInvalido', { alias, telefono: this.telefonoId, detalle }),
        );
      case 'limite':
        return { tipo: 'reintentar', motivo: `${msg('whatsappLimite', { codigo })} — ${motivo}` };
      case 'transitorio':
        return { tipo: 'reintentar', motivo };
      case 'solicitud':
        return {
          tipo: 'reintentar',
          configuracion: true,
          motivo: msg('whatsappSolicitudRechazada', { alias, detalle }),
        };
      case 'fueraDeVentana':
        return { tipo: 'fallido', motivo: msg('whatsappFueraDeVentana') };
      case 'noEntregable':
        return { tipo: 'invalido', motivo: `${msg('whatsappNoEntregable')} (${detalle})` };
      case 'plantilla': {
        const a = leerAccionWhatsapp(e.texto);
        return {
          tipo: 'fallido',
          motivo: `${msg('whatsappPlantillaInvalida', {
            plantilla: a.tipo === 'plantilla' ? a.plantilla : '',
            idioma: a.tipo === 'plantilla' ? a.idioma : '',
          })} — ${motivo}`,
        };
      }
      case 'destinatario':
        return { tipo: 'fallido', motivo: `${msg('whatsappEntregaFallida')} (${detalle})` };
      default:
        if (r.status === 401 || r.status === 403)
          return this.pausa(
            msg('credencialesEquipoInvalidas', { alias, protocolo: 'WhatsApp', detalle: motivo }),
          );
        if (r.status === 429 || r.status >= 500) return { tipo: 'reintentar', motivo };
        return { tipo: 'fallido', motivo };
    }
  }

  /** The device itself cannot send: the row stays pending and the exercise pauses now. */
  private pausa(motivo: string): ResultadoEnvio {
    return { tipo: 'reintentar', pausar: true, motivo };
  }

  async cerrar(): Promise<void> {}
}

registrarCanal('whatsapp', { crear: (o) => new CanalWhatsapp(o), idempotente: false });
