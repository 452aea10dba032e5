import { msg } from '@pregon/contract/messages';
import {
  VERSION_API_WHATSAPP,
  parametrosDeCuerpo,
  textoErrorMeta,
  type ErrorMeta,
  type PlantillaWhatsapp,
} from '@pregon/contract/rules/whatsapp';
import { problemaVersionWhatsapp } from '@pregon/contract/rules/equipment';
import type { Contexto } from '../contexto.ts';
import { descifrarCredenciales } from '@pregon/db/credenciales';
import { error, HttpError, noEncontrado } from '@pregon/servidor/http/errores';
import { leerParaCanal } from '../repositories/equipos.ts';
import {
  credencial,
  motivoUrlRefusada,
  pedirJson,
  textoError,
  urlGateway,
  type EquipoCanal,
} from '@pregon/despacho';

// Reads a WhatsApp device's approved templates from the Cloud API
// (`GET /{version}/{waba_id}/message_templates`), keeping them a few minutes per device.

/** How long a device's template list is reused. */
export const CACHE_PLANTILLAS_MS = 5 * 60_000;

const cache = new Map<string, { hasta: number; plantillas: PlantillaWhatsapp[] }>();

interface PlantillaMeta {
  name?: string;
  language?: string;
  status?: string;
  components?: { type?: string; text?: string }[];
}

/** The device's APPROVED templates; throws an Error with the Spanish reason when Meta cannot be
 * read. The list's pages are followed only on the device url's own origin: `paging.next` comes
 * from the server, and the request carries the bearer token (issue 49.3). */
export async function plantillasAprobadas(
  e: EquipoCanal,
  timeoutMs = 10_000,
): Promise<PlantillaWhatsapp[]> {
  const c = e.credenciales;
  const version = credencial(c, 'whatsapp', 'version').trim() || VERSION_API_WHATSAPP;
  const waba = credencial(c, 'whatsapp', 'waba_id');
  const token = credencial(c, 'whatsapp', 'token');
  const clave = `${e.id_equipo}|${e.url}|${waba}|${token}`;
  const guardada = cache.get(clave);
  if (guardada && guardada.hasta > Date.now()) return guardada.plantillas;
  const fallo = (motivo: string) =>
    new Error(msg('plantillasNoDisponibles', { alias: e.alias, motivo }));
  if (!waba) throw fallo('falta waba_id en las credenciales');
  const problemaVersion = problemaVersionWhatsapp(version);
  if (problemaVersion) throw fallo(problemaVersion);
  const plantillas: PlantillaWhatsapp[] = [];
  let url: string | undefined;
  try {
    url = urlGateway(e.url, [version, waba, 'message_templates'], {
      forma: 'formaUrlWhatsapp',
      consulta: 'limit=100',
    });
  } catch (err) {
    throw fallo((err as Error).message);
  }
  const origen = new URL(url).origin;
  for (let paginas = 0; url && paginas < 20; paginas++) {
    let r;
    try {
      r = await pedirJson(url, { headers: { authorization: `Bearer ${token}` }, timeoutMs });
    } catch (err) {
      throw fallo(motivoUrlRefusada(err) ?? textoError(err));
    }
    const cuerpo = r.cuerpo as {
      data?: PlantillaMeta[];
      paging?: { next?: string };
      error?: ErrorMeta;
    };
    if (r.status !== 200)
      throw fallo(`HTTP ${r.status}${cuerpo.error ? ` (${textoErrorMeta(cuerpo.error)})` : ''}`);
    for (const p of cuerpo.data ?? []) {
      if (p.status !== 'APPROVED' || !p.name || !p.language) continue;
      const texto = p.components?.find((x) => x.type?.toUpperCase() === 'BODY')?.text ?? '';
      plantillas.push({
        nombre: p.name,
        idioma: p.language,
        cuerpo: texto,
        parametros: parametrosDeCuerpo(texto),
      });
    }
    url = cuerpo.paging?.next;
    if (url && !mismoOrigen(url, origen)) throw fallo(msg('paginaOtroServidor'));
  }
  if (cache.size > 100) cache.clear();
  cache.set(clave, { hasta: Date.now() + CACHE_PLANTILLAS_MS, plantillas });
  return plantillas;
}

/** GET /equipos/{id}/plantillas/: a WhatsApp device's approved templates; 404 for no device, 400
 * for another protocol or a device without credentials, 502 with the Spanish reason when Meta
 * cannot be read. */
export async function plantillasDeEquipo(
  ctx: Contexto,
  id_equipo: number,
): Promise<PlantillaWhatsapp[]> {
  const e = await leerParaCanal(ctx.db.kysely, id_equipo);
  if (!e) throw noEncontrado('Equipo');
  if (e.protocolo !== 'whatsapp')
    throw error(400, 'plantillasSoloWhatsapp', { alias: e.alias, protocolo: e.protocolo });
  const credenciales = descifrarCredenciales(e.credenciales);
  // Cleared by a change of address (issue 49.2): Meta is not asked without them. Said as
  // the templates' own failure, which is what the create dialog shows beside the device.
  if (Object.keys(credenciales).length === 0)
    throw error(
      400,
      'plantillasNoDisponibles',
      { alias: e.alias, motivo: msg('motivoSinCredenciales') },
      'credenciales',
    );
  try {
    return await plantillasAprobadas({ ...e, credenciales });
  } catch (err) {
    throw new HttpError(502, (err as Error).message);
  }
}

/** Whether a url the server sent is on `origen` (scheme, host and port of the device's url). */
function mismoOrigen(url: string, origen: string): boolean {
  try {
    return new URL(url).origin === origen;
  } catch {
    return false;
  }
}
