/** Which equipment the 'Equipo' select offers for the chosen exercise type (SPEC 9). */
import {
  ETIQUETA_PROTOCOLO,
  MARCADO_DEFECTO,
  NOMBRE_MENSAJERIA,
  type IdTipoEjercicio,
  type Protocolo,
} from '../constants.ts';
import { msg } from '../messages.ts';
import { porProtocolo, usaMarcado, type CampoCredencial, type FormaUrl } from '../protocolos.ts';
import { VERSION_API_WHATSAPP } from './whatsapp.ts';

/** Keywords per type: an equipment is offered when its alias contains one, ignoring case. */
export const PALABRAS_EQUIPO: Readonly<Record<IdTipoEjercicio, readonly string[]>> = {
  1: ['SMS', 'MENSAJES'],
  2: ['LLAMADAS', 'LLAMADA', 'CALL', 'CALLS'],
  3: [NOMBRE_MENSAJERIA.toUpperCase()],
  4: ['QUIZ', 'CUESTIONARIO', 'CUESTIONARIOS'],
};

/** Whether an alias fits a type; an unknown type fits nothing. */
export function equipoParaTipo(alias: string | null | undefined, tipo: number | string): boolean {
  const palabras = PALABRAS_EQUIPO[Number(tipo) as IdTipoEjercicio] ?? [];
  const nombre = (alias ?? '').toUpperCase();
  return palabras.some((p) => nombre.includes(p));
}

/** Equipment offered for a type; with no type chosen (undefined, null or ''), all of it. */
export function equiposParaTipo<T extends { alias?: string | null }>(
  equipos: readonly T[],
  tipo?: number | string | null,
): T[] {
  if (tipo === undefined || tipo === null || String(tipo).trim() === '') return [...equipos];
  return equipos.filter((e) => equipoParaTipo(e.alias, tipo));
}

/** Exercise types a device with this alias is offered for (the device form's live preview). */
export function tiposParaAlias(alias: string | null | undefined): IdTipoEjercicio[] {
  return (Object.keys(PALABRAS_EQUIPO).map(Number) as IdTipoEjercicio[]).filter((t) =>
    equipoParaTipo(alias, t),
  );
}

export type { CampoCredencial, FormaUrl } from '../protocolos.ts';

/** The credentials each protocol's adapter reads (packages/despacho/src/canales/<protocolo>/canal.ts and the
 * AMI login of docs/telefonia.md): PROTOCOLO[p].credenciales. */
export const CAMPOS_CREDENCIALES: Readonly<Record<Protocolo, readonly CampoCredencial[]>> =
  porProtocolo((d) => d.credenciales);

/** The credentials object to send from a form's values: the protocol's non-empty fields, or
 * undefined when every field was left empty (the stored credentials are kept). */
export function credencialesDeFormulario(
  protocolo: Protocolo,
  valores: Readonly<Record<string, string | undefined>>,
): Record<string, string> | undefined {
  const r: Record<string, string> = {};
  for (const c of CAMPOS_CREDENCIALES[protocolo]) {
    const v = valores[c.clave]?.trim();
    if (v) r[c.clave] = v;
  }
  return Object.keys(r).length > 0 ? r : undefined;
}

/** How each protocol's adapter reads its device's url (packages/despacho/src/canales/<protocolo>/canal.ts):
 * PROTOCOLO[p].url. */
export const FORMA_URL: Readonly<Record<Protocolo, FormaUrl>> = porProtocolo((d) => d.url);

/** Where a device's gateway is: host (brackets of an IPv6 address removed) and port. */
export interface DestinoEquipo {
  host: string;
  puerto: number;
  /** host:port as written in messages ('[::1]:2775' for IPv6). */
  texto: string;
}

/** Where a device's adapter will connect, read as the adapters read a url (so a device saved
 * before problemaUrlEquipo existed is checked as it works): a url without scheme takes the
 * protocol's first one, a missing port the scheme's default, an empty AMI url the local
 * Asterisk. Null when not even that reads a host (problemaUrlEquipo then says why). */
export function destinoEquipo(protocolo: Protocolo, url: string): DestinoEquipo | null {
  const f = FORMA_URL[protocolo];
  let texto = url.trim();
  if (texto === '' && f.vacia) texto = f.vacia;
  // SMPP and AMI adapters take 'host:port' alone; the HTTP ones need their scheme.
  if (f.soloHost && !texto.includes('://')) texto = `${Object.keys(f.esquemas)[0]}//${texto}`;
  let u: URL;
  try {
    u = new URL(texto);
  } catch {
    return null;
  }
  const defecto = f.esquemas[u.protocol];
  if (!u.hostname || defecto === undefined || defecto === null) return null;
  const puerto = Number(u.port || defecto);
  return { host: u.hostname.replace(/^\[|\]$/g, ''), puerto, texto: `${u.hostname}:${puerto}` };
}

/** Why a url does not fit a protocol, in Spanish naming the field 'url' (null when it fits): a
 * scheme the adapter speaks, a host, a port from 1 to 65535 (SMPP and AMI must name it), no
 * user or password (they go in the credentials), for SMPP and AMI nothing after the port, and
 * for the HTTP gateways no query or fragment: the adapters append their routes to it, and a
 * '#' or '?' would turn them into a fragment or query and send to the url's own path. */
export function problemaUrlEquipo(protocolo: Protocolo, url: string): string | null {
  const f = FORMA_URL[protocolo];
  const forma = msg('urlEquipoForma', { forma: msg(f.forma) });
  // The port first, from the text: the URL parser refuses 99999 without saying why.
  const puerto = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(url.trim())?.[1];
  if (puerto !== undefined && !(Number(puerto) >= 1 && Number(puerto) <= 65535))
    return msg('urlEquipoPuerto', { puerto });
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return forma;
  }
  if (!Object.hasOwn(f.esquemas, u.protocol) || !u.hostname) return forma;
  // From the text as well: 'http://@h' and 'http://h/#' parse to an empty user and fragment.
  const autoridad = /^[a-z][a-z0-9+.-]*:\/\/([^/?#\\]*)/i.exec(url.trim())?.[1] ?? '';
  if (u.username || u.password || autoridad.includes('@')) return msg('urlEquipoConClaves');
  if (f.puertoObligatorio && !u.port) return forma;
  const consulta = u.search || u.hash || /[?#]/.test(url);
  if (f.soloHost && ((u.pathname !== '' && u.pathname !== '/') || consulta)) return forma;
  if (consulta) return msg('urlEquipoConsulta', { forma: msg(f.forma) });
  return null;
}

/** The form of the WhatsApp `version` credential (the Graph API version in the request path,
 * 'v21.0'): nothing else may enter the path, '../' least of all. */
export const FORMA_VERSION_WHATSAPP = /^v\d{1,3}\.\d{1,2}$/;

/** Why a WhatsApp `version` credential cannot be used (null when it fits or is empty: the
 * adapters then use VERSION_API_WHATSAPP). */
export function problemaVersionWhatsapp(version: string): string | null {
  const v = version.trim();
  if (v === '' || FORMA_VERSION_WHATSAPP.test(v)) return null;
  return msg('versionWhatsappForma', { defecto: VERSION_API_WHATSAPP });
}

/** A credential as the adapters read it: under the protocol's own section ({smpp: {...}}, AMI's
 * is 'ami') or at the top level; '' when absent. */
export function valorCredencial(
  credenciales: Readonly<Record<string, unknown>> | null | undefined,
  seccion: string,
  clave: string,
): string {
  const c = credenciales ?? {};
  const sub = c[seccion];
  const v = sub && typeof sub === 'object' ? (sub as Record<string, unknown>)[clave] : c[clave];
  return v === undefined || v === null ? '' : String(v);
}

/** The section under which a protocol's adapter looks for its credentials
 * (PROTOCOLO[p].seccion). */
export const SECCION_CREDENCIALES: Readonly<Record<Protocolo, string>> = porProtocolo(
  (d) => d.seccion,
);

/** The credentials a device of this protocol needs: the required ones of CAMPOS_CREDENCIALES,
 * plus the trunk when the dial template uses {troncal} (the default one does). */
export function credencialesObligatorias(
  protocolo: Protocolo,
  marcado?: string | null,
): CampoCredencial[] {
  const campos = CAMPOS_CREDENCIALES[protocolo];
  return campos.filter(
    (c) =>
      c.obligatorio ||
      (usaMarcado(protocolo) &&
        c.clave === 'troncal' &&
        (marcado || MARCADO_DEFECTO).includes('{troncal}')),
  );
}

/** One reason a device cannot be saved: the field it names ('url', 'credenciales.password') and
 * the Spanish message. */
export interface ProblemaEquipo {
  campo: string;
  mensaje: string;
}

/** Everything that keeps a device from working, in the order of the form (url first, then each
 * missing credential, then a WhatsApp `version` of the wrong form). The api refuses to save such a device and the web form shows the same
 * messages under the same fields. */
export function problemasEquipo(e: {
  protocolo: Protocolo;
  url: string;
  credenciales?: Readonly<Record<string, unknown>> | null;
  marcado?: string | null;
}): ProblemaEquipo[] {
  const r: ProblemaEquipo[] = [];
  const url = problemaUrlEquipo(e.protocolo, e.url);
  if (url) r.push({ campo: 'url', mensaje: url });
  for (const c of credencialesObligatorias(e.protocolo, e.marcado))
    if (!valorCredencial(e.credenciales, SECCION_CREDENCIALES[e.protocolo], c.clave).trim())
      r.push({
        campo: `credenciales.${c.clave}`,
        mensaje: msg('credencialObligatoria', {
          etiqueta: msg(c.etiqueta),
          protocolo: msg(ETIQUETA_PROTOCOLO[e.protocolo]),
        }),
      });
  if (e.protocolo === 'whatsapp') {
    const v = problemaVersionWhatsapp(valorCredencial(e.credenciales, 'whatsapp', 'version'));
    if (v) r.push({ campo: 'credenciales.version', mensaje: v });
  }
  return r;
}

/** A network failure in Spanish, short, for '… no responde en {url} ({motivo})': the system
 * error code of a socket or request (ECONNREFUSED, ENOTFOUND…), 'TIMEOUT', or the class of a
 * peer that answered but is not the gateway ('NO_SMSC', 'NO_AMI', 'CERRADA': closed before
 * answering). Never the peer's own bytes or messages: a device url must not read other
 * services on the network. */
export function motivoRed(codigo: string, o: { host: string; timeoutMs: number }): string {
  switch (codigo) {
    case 'NO_SMSC':
      return msg('redNoSmsc');
    case 'NO_AMI':
      return msg('redNoAsterisk');
    case 'CERRADA':
      return msg('redCerradaSinRespuesta');
    case 'TIMEOUT':
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return msg('redSinRespuesta', { ms: o.timeoutMs });
    case 'ECONNREFUSED':
      return msg('redRechazada');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return msg('redHostDesconocido', { host: o.host });
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return msg('redInalcanzable');
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return msg('redCortada');
    default:
      return /CERT|SELF_SIGNED|TLS|SSL/.test(codigo)
        ? msg('redCertificado', { codigo })
        : msg('redOtra', { codigo });
  }
}

/** The same failure as a sentence naming the gateway: 'No se encontró el host noexiste.invalid',
 * 'No se pudo conectar con 127.0.0.1:2775: conexión rechazada'. */
export function mensajeRed(codigo: string, destino: DestinoEquipo, timeoutMs: number): string {
  if (codigo === 'ENOTFOUND' || codigo === 'EAI_NONAME')
    return msg('hostNoEncontrado', { host: destino.host });
  return msg('sinConexionCon', {
    destino: destino.texto,
    motivo: motivoRed(codigo, { host: destino.host, timeoutMs }),
  });
}
