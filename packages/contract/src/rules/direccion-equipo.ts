import type { Protocolo } from '../constants.ts';
import { destinoEquipo, FORMA_URL } from './equipment.ts';

// When a device's stored credentials stop applying (issue 49.2): they were given for one
// gateway, so a change of protocol or of the url's scheme, host or port clears them unless the
// same change writes them again. The api applies it on PUT /equipos/{id}/; the device form reads it
// to ask for the password again before saving.

/** A device's address as its adapter reads it: protocol, url scheme, host (lower case) and port;
 * null when the url reads no host. */
function direccion(protocolo: Protocolo, url: string): string | null {
  const destino = destinoEquipo(protocolo, url);
  if (!destino) return null;
  const f = FORMA_URL[protocolo];
  let texto = url.trim();
  if (texto === '' && f.vacia) texto = f.vacia;
  if (f.soloHost && !texto.includes('://')) texto = `${Object.keys(f.esquemas)[0]}//${texto}`;
  const esquema = texto.slice(0, texto.indexOf(':') + 1).toLowerCase();
  return `${protocolo} ${esquema} ${destino.host.toLowerCase()} ${destino.puerto}`;
}

/** Whether two (protocol, url) pairs reach the same gateway: same protocol, scheme, host and
 * port (a path change of an HTTP gateway's url keeps them). A url that reads no host is never the
 * same as anything: the credentials are not kept on a guess. */
export function mismaDireccionEquipo(
  a: { protocolo: Protocolo; url: string },
  b: { protocolo: Protocolo; url: string },
): boolean {
  const x = direccion(a.protocolo, a.url);
  return x !== null && x === direccion(b.protocolo, b.url);
}
