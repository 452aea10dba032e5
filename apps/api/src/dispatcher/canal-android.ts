import { msg } from '@pregon/contract/messages';
import {
  credencial,
  registrarCanal,
  textoError,
  type Canal,
  type Envio,
  type OpcionesCanal,
  type ResultadoEnvio,
} from './canal.ts';
import { pedirJson } from './http-cliente.ts';

// The Android SMS gateway's local server ('SMS Gateway for Android'): `POST /message` with basic
// auth and a client-chosen message id, `GET /message/{id}` for its state (Pending, Processed,
// Sent, Delivered, Failed). The id is derived from the recipient row, so a retry or a resend
// after a crash carries the same id and the gateway never sends it twice.

/** Message id of a recipient row at the gateway (stable across attempts and restarts). */
export const idAndroid = (id_detalle: number) => `pregon-${id_detalle}`;

/** Delays after which a sent message's state is read back for its delivery receipt. */
const CONSULTAS_MS = [1_000, 3_000, 10_000, 30_000];

interface EstadoMensaje {
  id?: string;
  state?: string;
  recipients?: { phoneNumber?: string; state?: string; error?: string | null }[];
}

class CanalAndroid implements Canal {
  private readonly base: string;
  private readonly auth: string;
  private readonly timers = new Set<NodeJS.Timeout>();
  private cerrado = false;

  constructor(private readonly o: OpcionesCanal) {
    this.base = o.equipo.url.replace(/\/+$/, '');
    const c = o.equipo.credenciales;
    const usuario = credencial(c, 'android', 'usuario') || credencial(c, 'android', 'username');
    const password = credencial(c, 'android', 'password');
    this.auth = `Basic ${Buffer.from(`${usuario}:${password}`).toString('base64')}`;
  }

  private async estado(id: string): Promise<EstadoMensaje | undefined> {
    const r = await pedirJson(`${this.base}/message/${encodeURIComponent(id)}`, {
      headers: { authorization: this.auth },
      timeoutMs: this.o.config.timeoutEnvioMs,
    });
    if (r.status !== 200) return undefined;
    return r.cuerpo as EstadoMensaje;
  }

  private seguir(id: string, paso = 0): void {
    if (this.cerrado || paso >= CONSULTAS_MS.length) return;
    const t = setTimeout(async () => {
      this.timers.delete(t);
      try {
        const e = await this.estado(id);
        const s = e?.state?.toLowerCase();
        if (s === 'delivered' || s === 'failed') {
          this.o.alRecibo({
            id_equipo: this.o.equipo.id_equipo,
            id_gateway: id,
            entregado: s === 'delivered',
            motivo:
              s === 'failed' ? `Android: ${e?.recipients?.[0]?.error ?? 'Failed'}` : undefined,
          });
          return;
        }
      } catch {
        /* read again later */
      }
      this.seguir(id, paso + 1);
    }, CONSULTAS_MS[paso]);
    t.unref();
    this.timers.add(t);
  }

  async enviar(e: Envio): Promise<ResultadoEnvio> {
    const id = e.id_gateway ?? idAndroid(e.id_detalle);
    let r: { status: number; cuerpo: EstadoMensaje & { message?: string } };
    try {
      r = await pedirJson(`${this.base}/message`, {
        method: 'POST',
        headers: { authorization: this.auth },
        cuerpo: { id, message: e.texto, phoneNumbers: [e.telefono], withDeliveryReport: true },
        timeoutMs: this.o.config.timeoutEnvioMs,
      });
    } catch (err) {
      // Whether or not the request arrived, resending with the same id is safe.
      return { tipo: 'reintentar', motivo: `Android: ${textoError(err)}`, id_gateway: id };
    }
    const cuerpo = r.cuerpo;
    const ok = r.status >= 200 && r.status < 300;
    if (r.status === 409) {
      // Already taken under this id (a resend after a crash): read its state instead.
      const e2 = await this.estado(id).catch(() => undefined);
      if (e2?.state?.toLowerCase() === 'failed')
        return { tipo: 'fallido', motivo: 'Android: Failed', id_gateway: id };
      this.seguir(id);
      return {
        tipo: 'aceptado',
        id_gateway: id,
        entregado: e2?.state?.toLowerCase() === 'delivered',
      };
    }
    if (ok) {
      this.seguir(id);
      return {
        tipo: 'aceptado',
        id_gateway: id,
        entregado: cuerpo.state?.toLowerCase() === 'delivered',
      };
    }
    const motivo = `Android HTTP ${r.status}${cuerpo.message ? `: ${cuerpo.message}` : ''}`;
    if (r.status === 400) return { tipo: 'invalido', motivo, id_gateway: id };
    if (r.status === 401 || r.status === 403)
      return {
        tipo: 'reintentar',
        pausar: true,
        motivo: msg('credencialesEquipoInvalidas', {
          alias: this.o.equipo.alias,
          protocolo: 'Android',
          detalle: motivo,
        }),
        id_gateway: id,
      };
    return { tipo: 'reintentar', motivo, id_gateway: id };
  }

  async cerrar(): Promise<void> {
    this.cerrado = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

registrarCanal('android', { crear: (o) => new CanalAndroid(o), idempotente: true });
