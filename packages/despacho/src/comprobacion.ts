import net from 'node:net';
import { ClienteAmi, destinoAmi } from '@pregon/ami';
import { ProtocoloSchema } from '@pregon/contract/esquemas';
import {
  FORMA_URL,
  destinoEquipo,
  mensajeRed,
  motivoRed,
  problemaUrlEquipo,
} from '@pregon/contract/rules/equipment';
import { credencial, leerCredenciales } from './canal.ts';
import { motivoConexionAmi } from './canales/asterisk/canal.ts';
import { comprobarDestino } from './destinos.ts';

// Pre-start checks (issue 17): before an exercise starts, its device's gateway must answer within
// a few seconds, and a call's audio must be on the telephony server when the PBX agent is known.
// Each returns null when fine, else the reason (for a device, in Spanish: FalloEquipo). The test
// send (prueba.ts) runs the device check first too.

/** Opens a TCP connection to host:port and closes it: null when it connects in time, else the
 * system error code (ECONNREFUSED, ENOTFOUND…) or 'TIMEOUT'. */
export function conectarTcp(host: string, port: number, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    const fin = (codigo: string | null) => {
      s.destroy();
      resolve(codigo);
    };
    s.setTimeout(timeoutMs, () => fin('TIMEOUT'));
    s.once('connect', () => fin(null));
    s.once('error', (e: NodeJS.ErrnoException) => fin(e.code ?? e.message));
  });
}

/** Sends GET to a base URL; any HTTP answer (even 4xx/5xx) shows the gateway is there. Null
 * then, else the error code of the connection (or of the TLS handshake) or 'TIMEOUT'. */
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
    const err = e as Error & { cause?: { code?: string; message?: string } };
    if (err.name === 'TimeoutError') return 'TIMEOUT';
    return err.cause?.code ?? err.cause?.message ?? err.message;
  }
}

/** Why a device's gateway does not answer, in Spanish: `motivo` is short (the start refusal
 * reads '… no responde en {url} ({motivo})'), `mensaje` a sentence naming the gateway ('No se
 * pudo conectar con 127.0.0.1:2775: conexión rechazada', 'No se encontró el host …'). */
export interface FalloEquipo {
  motivo: string;
  mensaje: string;
}

/** Whether a device's gateway answers within `timeoutMs`: SMPP and Asterisk (AMI) by TCP connect,
 * Android and WhatsApp by an HTTP request to the base URL (the url read as the adapters read it).
 * Null when it answers; a url no adapter could use (for the HTTP gateways also one with a query
 * or fragment) and a local or private destination EQUIPOS_DESTINOS_PERMITIDOS does not list fail
 * with their Spanish reason, without any traffic (issue 49.3). */
export async function comprobarEquipo(
  equipo: { protocolo: string; url: string },
  timeoutMs: number,
): Promise<FalloEquipo | null> {
  const p = ProtocoloSchema.safeParse(equipo.protocolo);
  if (!p.success) return null;
  const destino = destinoEquipo(p.data, equipo.url);
  const http = FORMA_URL[p.data].sonda === 'http';
  if (!destino || (http && problemaUrlEquipo(p.data, equipo.url))) {
    const m = problemaUrlEquipo(p.data, equipo.url) ?? '';
    return { motivo: m, mensaje: m };
  }
  const refusado = await comprobarDestino(destino.host, destino.puerto);
  if (refusado) return { motivo: refusado.message, mensaje: refusado.message };
  const codigo = !http
    ? await conectarTcp(destino.host, destino.puerto, timeoutMs)
    : await pedirHttp(equipo.url.trim(), timeoutMs);
  if (codigo === null) return null;
  return {
    motivo: motivoRed(codigo, { host: destino.host, timeoutMs }),
    mensaje: mensajeRed(codigo, destino, timeoutMs),
  };
}

/** An audio as the PBX agent holds it: its SHA-256 (hex) and length in seconds, from the
 * `x-sha256` and `x-duracion-s` headers of HEAD /{software}/audio/{nombre}; null when the agent
 * did not send them (an older agent). */
export type HuellaAudio = { sha256: string; duracion_s: number } | null;

/** Whether an audio file is on the telephony server: HEAD {pbxBase}/{software}/audio/{nombre} on
 * the PBX agent. 'falta' for a 404, `{huella}` when present, else the reason it could not be asked. */
export async function audioEnPbx(
  pbxBase: string,
  software: string,
  nombre: string,
  opciones: { timeoutMs: number; token?: string },
): Promise<'falta' | string | { huella: HuellaAudio }> {
  const url = `${pbxBase.replace(/\/+$/, '')}/${encodeURIComponent(software)}/audio/${encodeURIComponent(nombre)}`;
  try {
    const r = await fetch(url, {
      method: 'HEAD',
      signal: AbortSignal.timeout(opciones.timeoutMs),
      headers: opciones.token ? { authorization: opciones.token } : {},
    });
    if (r.status === 404) return 'falta';
    if (!r.ok) return `HTTP ${r.status}`;
    const sha256 = (r.headers.get('x-sha256') ?? '').toLowerCase();
    const duracion_s = Number(r.headers.get('x-duracion-s'));
    const valida = /^[0-9a-f]{64}$/.test(sha256) && Number.isFinite(duracion_s) && duracion_s >= 0;
    return { huella: valida ? { sha256, duracion_s } : null };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    if (err.name === 'TimeoutError') return `sin respuesta en ${opciones.timeoutMs} ms`;
    return err.cause?.code ?? err.message;
  }
}

/** Asterisk's own prompts missing for a language, as the PBX agent reports them (GET
 * /{software}/idioma/{idioma}/): each missing prompt with the include file type that plays it (the
 * folder it looked in stays in the agent's log); a string when it could not be asked. */
export async function promptsEnPbx(
  pbxBase: string,
  software: string,
  idioma: string,
  opciones: { timeoutMs: number; token?: string },
): Promise<string | { faltan: { prompt: string; tipo: string }[] }> {
  const url = `${pbxBase.replace(/\/+$/, '')}/${encodeURIComponent(software)}/idioma/${encodeURIComponent(idioma)}/`;
  try {
    const r = await fetch(url, {
      signal: AbortSignal.timeout(opciones.timeoutMs),
      headers: opciones.token ? { authorization: opciones.token } : {},
    });
    if (!r.ok) {
      await r.body?.cancel();
      return `HTTP ${r.status}`;
    }
    const cuerpo = (await r.json()) as { faltan?: unknown };
    if (!Array.isArray(cuerpo.faltan)) return 'respuesta no válida';
    return {
      faltan: (cuerpo.faltan as { prompt?: unknown; tipo?: unknown }[]).map((f) => ({
        prompt: String(f.prompt),
        tipo: String(f.tipo),
      })),
    };
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
  const refusado = await comprobarDestino(host, puerto);
  if (refusado) return refusado.message;
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
    return motivoConexionAmi(e, { host, puerto }, timeoutMs);
  } finally {
    await cliente.cerrar().catch(() => {});
  }
}
