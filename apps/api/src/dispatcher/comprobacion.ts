import net from 'node:net';
import { ClienteAmi, destinoAmi } from '@pregon/ami';
import type { Protocolo } from '@pregon/contract/constants';
import { credencial, leerCredenciales } from './canal.ts';

// Pre-start checks (issue 17): before an exercise starts, its device's gateway must answer within
// a few seconds, and a call's audio must be on the telephony server when the PBX agent is known.
// Each returns null when fine, else a short reason (the caller words the Spanish refusal).

/** Opens a TCP connection to host:port and closes it; null when it connects in time. */
export function conectarTcp(host: string, port: number, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    const fin = (motivo: string | null) => {
      s.destroy();
      resolve(motivo);
    };
    s.setTimeout(timeoutMs, () => fin(`sin respuesta en ${timeoutMs} ms`));
    s.once('connect', () => fin(null));
    s.once('error', (e: NodeJS.ErrnoException) => fin(e.code ?? e.message));
  });
}

/** Sends GET to a base URL; any HTTP answer (even 4xx/5xx) shows the gateway is there. */
export async function pedirHttp(url: string, timeoutMs: number): Promise<string | null> {
  try {
    const r = await fetch(url, {
      method: 'GET',
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    await r.body?.cancel();
    return null;
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    if (err.name === 'TimeoutError') return `sin respuesta en ${timeoutMs} ms`;
    return err.cause?.code ?? err.message;
  }
}

const hostPuerto = (url: string, esquema: string, puertoDefecto: number) => {
  const u = new URL(url.includes('://') ? url : `${esquema}://${url}`);
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || puertoDefecto) };
};

/** Whether a device's gateway answers: SMPP and Asterisk (AMI) by TCP connect, Android and
 * WhatsApp by an HTTP request to the base URL. Null when it answers, else the reason. */
export async function comprobarEquipo(
  equipo: { protocolo: string; url: string },
  timeoutMs: number,
): Promise<string | null> {
  try {
    switch (equipo.protocolo as Protocolo) {
      case 'smpp': {
        const { host, port } = hostPuerto(equipo.url, 'smpp', 2775);
        return await conectarTcp(host, port, timeoutMs);
      }
      case 'asterisk': {
        const { host, port } = hostPuerto(equipo.url, 'ami', 5038);
        return await conectarTcp(host, port, timeoutMs);
      }
      case 'android':
      case 'whatsapp':
        return await pedirHttp(equipo.url, timeoutMs);
      default:
        return null;
    }
  } catch (e) {
    return (e as Error).message;
  }
}

/** Whether an audio file is on the telephony server: HEAD {pbxBase}/{software}/audio/{nombre} on
 * the PBX agent. 'falta' for a 404, null when present, else the reason it could not be asked. */
export async function audioEnPbx(
  pbxBase: string,
  software: string,
  nombre: string,
  opciones: { timeoutMs: number; token?: string },
): Promise<'falta' | string | null> {
  const url = `${pbxBase.replace(/\/+$/, '')}/${encodeURIComponent(software)}/audio/${encodeURIComponent(nombre)}`;
  try {
    const r = await fetch(url, {
      method: 'HEAD',
      signal: AbortSignal.timeout(opciones.timeoutMs),
      headers: opciones.token ? { authorization: opciones.token } : {},
    });
    if (r.status === 404) return 'falta';
    return r.ok ? null : `HTTP ${r.status}`;
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    if (err.name === 'TimeoutError') return `sin respuesta en ${opciones.timeoutMs} ms`;
    return err.cause?.code ?? err.message;
  }
}

/** Whether the device's Asterisk has the exercise's context loaded: AMI `ShowDialPlan` with
 * `Context` and `Extension: s` (pbx.c manager_show_dialplan answers 'Did not find context X' or
 * 'Did not find extension s@X' when absent). 'falta' when absent, null when loaded, else the
 * reason it could not be asked ('sin permiso' when the AMI user may not read the dialplan:
 * ShowDialPlan needs read = config or reporting). */
export async function contextoEnAsterisk(
  equipo: { url: string; credenciales: string | null },
  contexto: string,
  timeoutMs: number,
): Promise<'falta' | 'sin permiso' | string | null> {
  const c = leerCredenciales(equipo.credenciales);
  const { host, puerto } = destinoAmi(equipo.url || 'ami://127.0.0.1:5038');
  const cliente = new ClienteAmi({
    host,
    puerto,
    usuario: credencial(c, 'ami', 'usuario'),
    secreto: credencial(c, 'ami', 'secreto'),
    eventos: 'off',
    pingMs: 0,
    timeoutMs,
  });
  try {
    await cliente.conectar();
    const { respuesta } = await cliente.accion(
      'ShowDialPlan',
      { Context: contexto, Extension: 's' },
      { eventoFinal: 'ShowDialPlanComplete' },
    );
    if (respuesta.valor('Response') === 'Success') return null;
    const m = respuesta.valor('Message') ?? '';
    if (/^Did not find (context|extension)/i.test(m)) return 'falta';
    if (/permission denied/i.test(m)) return 'sin permiso';
    return m || 'error';
  } catch (e) {
    return (e as Error).message;
  } finally {
    await cliente.cerrar().catch(() => {});
  }
}
