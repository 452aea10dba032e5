import dns from 'node:dns';
import net from 'node:net';
import { ProtocoloSchema } from '@pregon/contract/esquemas';
import { msg } from '@pregon/contract/messages';
import { destinoEquipo } from '@pregon/contract/rules/equipment';

// Where a device's url may point (issue 49.3). A device url is typed by an operator and the api
// connects to it: without a rule it reads the local network (an SMPP test send to 127.0.0.1:5432
// answered with PostgreSQL's first bytes) and relays credentials to local services. Loopback,
// link-local and private addresses are refused unless EQUIPOS_DESTINOS_PERMITIDOS lists the
// host:port or the range; by default it lists the built-in simulators' ports on loopback. The
// rule applies when a device is saved and again at each connection (the name may resolve
// elsewhere later): HTTP requests check every address their lookup returns, SMPP and AMI check
// before they connect.

/** The parsed EQUIPOS_DESTINOS_PERMITIDOS: ranges (any port) and host:port pairs. */
export interface ListaDestinos {
  redes: net.BlockList;
  pares: { host: string; puerto: number }[];
  /** The setting as written (logs, tests). */
  texto: string;
}

/** Addresses a device may not reach unless listed: loopback, link-local, private, unspecified
 * (0.0.0.0 and :: reach the local host). IPv4-mapped IPv6 addresses are checked as IPv4. */
const RESTRINGIDAS = (() => {
  const b = new net.BlockList();
  for (const [red, prefijo] of [
    ['0.0.0.0', 8],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
  ] as const)
    b.addSubnet(red, prefijo, 'ipv4');
  for (const [red, prefijo] of [
    ['::', 128],
    ['::1', 128],
    ['fe80::', 10],
    ['fc00::', 7],
  ] as const)
    b.addSubnet(red, prefijo, 'ipv6');
  return b;
})();

const familia = (ip: string) => (net.isIPv6(ip) ? 'ipv6' : 'ipv4');

/** Whether an address is loopback, link-local, private or unspecified. */
export function direccionRestringida(ip: string): boolean {
  return net.isIP(ip) !== 0 && RESTRINGIDAS.check(ip, familia(ip));
}

/** The host of a url or an entry without IPv6 brackets, lower case. */
const sinCorchetes = (h: string) => h.replace(/^\[|\]$/g, '').toLowerCase();

/** Parses EQUIPOS_DESTINOS_PERMITIDOS: comma-separated addresses ('10.0.0.5', '::1'), CIDR
 * ranges ('10.0.0.0/8', 'fd00::/8'), which allow any port, or host:port pairs
 * ('127.0.0.1:2775', 'smsc.lan:2775', '[::1]:2775'). Anything else is refused with a Spanish
 * error naming it. */
export function leerDestinosPermitidos(texto: string): ListaDestinos {
  const redes = new net.BlockList();
  const pares: ListaDestinos['pares'] = [];
  const invalido = (p: string) =>
    new Error(
      `EQUIPOS_DESTINOS_PERMITIDOS inválido: '${p}' (use host:puerto, direcciones o rangos CIDR separados por comas, por ejemplo 127.0.0.1:2775,10.0.0.0/8)`,
    );
  for (const p of texto
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const cidr = /^([^/]+)\/(\d{1,3})$/.exec(p);
    if (cidr) {
      const ip = sinCorchetes(cidr[1]!);
      const prefijo = Number(cidr[2]);
      if (!net.isIP(ip) || prefijo > (net.isIPv6(ip) ? 128 : 32)) throw invalido(p);
      redes.addSubnet(ip, prefijo, familia(ip));
      continue;
    }
    if (net.isIP(sinCorchetes(p))) {
      redes.addAddress(sinCorchetes(p), familia(sinCorchetes(p)));
      continue;
    }
    const par = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})$/i.exec(p);
    const puerto = Number(par?.[2]);
    if (!par || !(puerto >= 1 && puerto <= 65535)) throw invalido(p);
    pares.push({ host: sinCorchetes(par[1]!), puerto });
  }
  return { redes, pares, texto };
}

/** The default list: the built-in simulators' ports on their host (SIM_HOST, loopback), as
 * `npm start` runs them (SIM_SMPP_PORT 2775, SIM_ANDROID_PORT 8081, SIM_WHATSAPP_PORT 8082,
 * SIM_AMI_PORT 5038: the last is also a local Asterisk's AMI). */
export function destinosPorDefecto(env: NodeJS.ProcessEnv = process.env): string {
  const host = env.SIM_HOST ?? '127.0.0.1';
  const h = net.isIPv6(host) ? `[${host}]` : host;
  return [
    env.SIM_SMPP_PORT ?? 2775,
    env.SIM_ANDROID_PORT ?? 8081,
    env.SIM_WHATSAPP_PORT ?? 8082,
    env.SIM_AMI_PORT ?? 5038,
  ]
    .map((p) => `${h}:${p}`)
    .join(',');
}

/** EQUIPOS_DESTINOS_PERMITIDOS of an environment, or the default when unset. */
export function destinosDeEntorno(env: NodeJS.ProcessEnv = process.env): ListaDestinos {
  return leerDestinosPermitidos(env.EQUIPOS_DESTINOS_PERMITIDOS ?? destinosPorDefecto(env));
}

let vigente: ListaDestinos | undefined;

/** Sets the list every connection of this process checks (the api sets its configuration's; a
 * process that sets none reads EQUIPOS_DESTINOS_PERMITIDOS from its environment). */
export function fijarDestinosPermitidos(lista: ListaDestinos): void {
  vigente = lista;
}

/** The list this process's connections check. */
export function destinosPermitidos(): ListaDestinos {
  vigente ??= destinosDeEntorno();
  return vigente;
}

/** Whether `ip`, reached through the url's `host` at `puerto`, may be connected to: a public
 * address always; a restricted one when its range, its address or host:port is listed. */
export function destinoPermitido(
  lista: ListaDestinos,
  host: string,
  ip: string,
  puerto: number,
): boolean {
  if (!direccionRestringida(ip)) return true;
  if (lista.redes.check(ip, familia(ip))) return true;
  const h = sinCorchetes(host);
  return lista.pares.some(
    (p) =>
      p.puerto === puerto &&
      (p.host === h || (net.isIP(p.host) !== 0 && unaDireccion(p.host).check(ip, familia(ip)))),
  );
}

/** A BlockList holding one address: compares two spellings of it ('::1' and '0:0::1', an
 * IPv4-mapped IPv6 and its IPv4). */
function unaDireccion(ip: string): net.BlockList {
  const b = new net.BlockList();
  b.addAddress(ip, familia(ip));
  return b;
}

/** Code of the error a refused destination raises (a socket never opened). */
export const CODIGO_DESTINO = 'EDESTINO';

/** The error of a refused destination: its message the Spanish reason naming host:port. */
export function errorDestino(host: string, puerto: number, ip: string): Error {
  const h = sinCorchetes(host);
  const destino = `${net.isIPv6(h) ? `[${h}]` : h}:${puerto}`;
  return Object.assign(new Error(msg('destinoNoPermitido', { destino, ip })), {
    code: CODIGO_DESTINO,
  });
}

/** Checks a destination before connecting: resolves the host (every address) and answers the
 * refusal, or null when it may be reached (or the name does not resolve: the connection then
 * fails with its own reason). */
export async function comprobarDestino(
  host: string,
  puerto: number,
  lista: ListaDestinos = destinosPermitidos(),
): Promise<Error | null> {
  const h = sinCorchetes(host);
  let ips: string[];
  if (net.isIP(h)) ips = [h];
  else
    try {
      ips = (await dns.promises.lookup(h, { all: true })).map((a) => a.address);
    } catch {
      return null;
    }
  const malo = ips.find((ip) => !destinoPermitido(lista, h, ip, puerto));
  return malo === undefined ? null : errorDestino(h, puerto, malo);
}

/** The refusal of a destination whose host is an address (net and http never call `lookup` for
 * one), checked at once; null for a name or a permitted address. */
export function destinoLiteralRefusado(
  host: string,
  puerto: number,
  lista: ListaDestinos = destinosPermitidos(),
): Error | null {
  const h = sinCorchetes(host);
  if (!net.isIP(h) || destinoPermitido(lista, h, h, puerto)) return null;
  return errorDestino(h, puerto, h);
}

type Busqueda = (
  hostname: string,
  options: dns.LookupOptions,
  callback: (
    err: NodeJS.ErrnoException | null,
    address: string | dns.LookupAddress[],
    family?: number,
  ) => void,
) => void;

/** A `lookup` for net.connect and http.request that refuses, at each new connection, a name
 * resolving to an address not permitted for `puerto` (a socket is never opened to it). */
export function busquedaGuardada(
  puerto: number,
  lista: () => ListaDestinos = destinosPermitidos,
): Busqueda {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options }, (err, address, family) => {
      if (err) return callback(err, address, family);
      const todas = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const malo = todas.find((ip) => !destinoPermitido(lista(), hostname, ip, puerto));
      if (malo !== undefined) return callback(errorDestino(hostname, puerto, malo), '', 0);
      callback(null, address, family);
    });
  };
}

/** Why a device's url may not be reached from here (a Spanish message naming the field url), or
 * null: the url read as its adapter reads it, its host resolved and checked against `lista`.
 * The device routes call it before saving (issue 49.3); a url of the wrong form is left to the
 * contract's rule. */
export async function problemaDestinoEquipo(
  protocolo: string,
  url: string,
  lista: ListaDestinos = destinosPermitidos(),
): Promise<string | null> {
  const p = ProtocoloSchema.safeParse(protocolo);
  const destino = p.success ? destinoEquipo(p.data, url) : null;
  if (!destino) return null;
  return (await comprobarDestino(destino.host, destino.puerto, lista))?.message ?? null;
}
