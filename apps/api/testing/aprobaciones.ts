import { pedir, type ApiDePrueba } from './entorno.ts';
import { tokenConRol } from './roles.ts';

/**
 * Issue 47.2: asks for exercise `id`'s approval as `solicitante` and approves it as a second
 * person holding 'aprobadores' (created once per api, named `aprobador`); fails the test when
 * either answer is not 200.
 */
export async function aprobarPorApi(
  api: ApiDePrueba,
  solicitante: string,
  id: number,
  aprobador = 'aprobador_prueba',
): Promise<void> {
  const s = await pedir(api.url, 'POST', `/ejercicio/${id}/aprobacion/`, { token: solicitante });
  if (s.status !== 200) throw new Error(`solicitar: ${s.status} ${JSON.stringify(s.body)}`);
  const token = await tokenAprobador(api, aprobador);
  const a = await pedir(api.url, 'POST', `/ejercicio/${id}/aprobacion/aprobar/`, { token });
  if (a.status !== 200) throw new Error(`aprobar: ${a.status} ${JSON.stringify(a.body)}`);
}

const tokens = new WeakMap<ApiDePrueba, Map<string, string>>();

/** A session of a user holding only 'aprobadores' (created on first use). */
export async function tokenAprobador(api: ApiDePrueba, usuario = 'aprobador_prueba') {
  const porApi = tokens.get(api) ?? new Map<string, string>();
  tokens.set(api, porApi);
  const hecho = porApi.get(usuario);
  if (hecho) return hecho;
  const { token } = await tokenConRol(api, 'aprobadores', usuario);
  porApi.set(usuario, token);
  return token;
}
