import { rellenarRuta, type Endpoint } from '@pregon/contract/api/endpoint';
import { msg } from '@pregon/contract/messages';
import { esSesionExpirada, mensajeDeRespuesta } from '@pregon/contract/rules/session';
import { ErrorApi } from './api-client.ts';
import { expirarSesion, leerToken, mensajeDeExpiracion } from './sesion.ts';

/**
 * Downloads a file the api streams (such as the after-action .xlsx, `query` its query string) with the session's
 * Authorization header, under the name the server gives in Content-Disposition (or `nombre`).
 * Errors arrive as the api's JSON and are thrown as ErrorApi; an expired session goes to /signin.
 */
export async function descargarArchivo(
  ep: Endpoint,
  params: Record<string, string | number>,
  nombre: string,
  query: Record<string, string | number | undefined> = {},
): Promise<void> {
  const token = leerToken();
  const busqueda = new URLSearchParams(
    Object.entries(query).flatMap(([k, v]) =>
      v === undefined || v === '' ? [] : [[k, String(v)]],
    ),
  ).toString();
  let res: Response;
  try {
    res = await fetch(rellenarRuta(ep.path, params) + (busqueda ? `?${busqueda}` : ''), {
      headers: token ? { authorization: token } : {},
    });
  } catch {
    throw new ErrorApi(msg('errorRed'), 0, null);
  }
  if (!res.ok) {
    const texto = await res.text();
    let body: unknown = texto;
    try {
      body = JSON.parse(texto);
    } catch {
      // not JSON: keep the text
    }
    if (esSesionExpirada(body, res.status)) {
      const mensaje = mensajeDeExpiracion(mensajeDeRespuesta(body));
      expirarSesion(mensaje);
      throw new ErrorApi(mensaje, res.status, body, true);
    }
    throw new ErrorApi(mensajeDeRespuesta(body), res.status, body);
  }
  const disposicion = res.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposicion)?.[1];
  const archivo = utf8 ? decodeURIComponent(utf8) : nombre;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = archivo;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
