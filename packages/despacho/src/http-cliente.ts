import http from 'node:http';
import https from 'node:https';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';
import { busquedaGuardada, CODIGO_DESTINO, destinoLiteralRefusado } from './destinos.ts';

// A small JSON-over-HTTP client with keep-alive agents for the HTTP channels: on loopback it
// answers about twice as fast as fetch, which the Android and WhatsApp channels feel at scale.

const agenteHttp = new http.Agent({ keepAlive: true, maxSockets: 256 });
const agenteHttps = new https.Agent({ keepAlive: true, maxSockets: 256 });

/** The answer of pedirJson: status, the parsed body ({} when it is not JSON) and the headers. */
export interface RespuestaJson {
  status: number;
  cuerpo: Record<string, unknown>;
  cabeceras: http.IncomingHttpHeaders;
}

/** Error of a request that failed at the socket; `code` is the system error (ECONNREFUSED…). */
export class ErrorHttp extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Code of an ErrorHttp for a gateway url the request was not built from (a query, fragment or
 * user in the base url, a path part '.' or '..'): nothing was sent. */
export const CODIGO_URL = 'EURL';

/** A gateway request's url: the device's base url (no query, fragment or user: the parts would
 * otherwise land in them and the request go to the base url's own path) and path parts, each
 * percent-encoded and none empty, '.' or '..' (credentials enter the path: 'v21.0/../x' must not
 * climb out of it); `consulta` is ours. Throws ErrorHttp with CODIGO_URL and a Spanish reason. */
export function urlGateway(
  base: string,
  partes: readonly string[],
  o: { forma: ClaveMensaje; consulta?: string },
): string {
  const texto = base.trim();
  let u: URL;
  try {
    u = new URL(texto);
  } catch {
    throw new ErrorHttp(msg('urlEquipoForma', { forma: msg(o.forma) }), CODIGO_URL);
  }
  if (/[?#]/.test(texto) || u.username || u.password || /^[^/]*\/\/[^/]*@/.test(texto))
    throw new ErrorHttp(msg('urlEquipoConsulta', { forma: msg(o.forma) }), CODIGO_URL);
  if (partes.some((p) => p === '' || p === '.' || p === '..'))
    throw new ErrorHttp(msg('rutaGatewayInvalida'), CODIGO_URL);
  const ruta = partes.map((p) => `/${encodeURIComponent(p)}`).join('');
  return `${texto.replace(/\/+$/, '')}${ruta}${o.consulta ? `?${o.consulta}` : ''}`;
}

/** The Spanish reason of a request refused before it left because of the device's url (its form,
 * or a destination EQUIPOS_DESTINOS_PERMITIDOS does not allow), else null: the exercise pauses
 * with it, as for any device misconfiguration. */
export function motivoUrlRefusada(err: unknown): string | null {
  const e = err as { code?: string; message?: string };
  return e?.code === CODIGO_URL || e?.code === CODIGO_DESTINO ? (e.message ?? null) : null;
}

/** Sends one request with an optional JSON body and reads a JSON answer, within `timeoutMs`. A
 * loopback, link-local or private destination not in EQUIPOS_DESTINOS_PERMITIDOS is refused
 * before any socket opens (ErrorHttp 'EDESTINO'): an address at once, a name at each lookup. */
export function pedirJson(
  url: string,
  o: { method?: string; headers?: Record<string, string>; cuerpo?: unknown; timeoutMs: number },
): Promise<RespuestaJson> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const puerto = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    const refusado = destinoLiteralRefusado(u.hostname, puerto);
    if (refusado) return reject(new ErrorHttp(refusado.message, CODIGO_DESTINO));
    const datos = o.cuerpo === undefined ? undefined : Buffer.from(JSON.stringify(o.cuerpo));
    const modulo = u.protocol === 'https:' ? https : http;
    const req = modulo.request(
      u,
      {
        method: o.method ?? 'GET',
        agent: u.protocol === 'https:' ? agenteHttps : agenteHttp,
        headers: {
          ...o.headers,
          ...(datos
            ? { 'content-type': 'application/json', 'content-length': String(datos.length) }
            : {}),
        },
        timeout: o.timeoutMs,
        lookup: busquedaGuardada(puerto),
      },
      (res) => {
        const partes: Buffer[] = [];
        res.on('data', (c: Buffer) => partes.push(c));
        res.on('error', (e) => reject(new ErrorHttp(e.message, 'ECONNRESET')));
        res.on('end', () => {
          let cuerpo: Record<string, unknown> = {};
          try {
            const v: unknown = JSON.parse(Buffer.concat(partes).toString('utf8'));
            if (v && typeof v === 'object') cuerpo = v as Record<string, unknown>;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, cuerpo, cabeceras: res.headers });
        });
      },
    );
    req.on('timeout', () => req.destroy(new ErrorHttp('tiempo de espera agotado', 'ETIMEDOUT')));
    req.on('error', (e: NodeJS.ErrnoException) =>
      reject(new ErrorHttp(e.message, e.code ?? 'EIO')),
    );
    req.end(datos);
  });
}
