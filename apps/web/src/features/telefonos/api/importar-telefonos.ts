import { importarTelefonos, type ModoDuplicados } from '@pregon/contract/api/telefonos';
import { msg } from '@pregon/contract/messages';
import type { Codificacion } from '@pregon/contract/rules/codificacion';
import { esSesionExpirada, mensajeDeRespuesta } from '@pregon/contract/rules/session';
import { ErrorApi } from '../../../lib/api-client.ts';
import { expirarSesion, leerToken } from '../../../lib/sesion.ts';

/** POST /telefonos/importar/ (multipart): uploads the file with the default state and
 * categories, the text encoding the operator kept and what to do with phones that exist (issue
 * 25.5); returns the job's id at once. */
export async function importarTelefonosApi(
  archivo: File,
  porDefecto: {
    id_estado?: number;
    categorias: number[];
    codificacion?: Codificacion;
    duplicados?: ModoDuplicados;
  },
): Promise<number> {
  const datos = new FormData();
  if (porDefecto.id_estado !== undefined) datos.set('id_estado', String(porDefecto.id_estado));
  if (porDefecto.categorias.length > 0) datos.set('categorias', porDefecto.categorias.join(','));
  if (porDefecto.codificacion) datos.set('codificacion', porDefecto.codificacion);
  if (porDefecto.duplicados) datos.set('duplicados', porDefecto.duplicados);
  datos.set('file', archivo, archivo.name);
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = leerToken();
  if (token) headers.authorization = token;
  let res: Response;
  try {
    res = await fetch(importarTelefonos.path, { method: 'POST', headers, body: datos });
  } catch {
    throw new ErrorApi(msg('errorRed'), 0, null);
  }
  const body: unknown = await res.json().catch(() => null);
  if (esSesionExpirada(body, res.status)) {
    expirarSesion();
    throw new ErrorApi(msg('sesionExpirada'), res.status, body, true);
  }
  const r = importarTelefonos.respuesta.safeParse(body);
  if (!res.ok || !r.success) throw new ErrorApi(mensajeDeRespuesta(body), res.status, body);
  return r.data.id_importacion;
}
