import http from 'node:http';
import https from 'node:https';
import type { Kysely } from 'kysely';
import { ROL_ADMINISTRADOR } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import {
  ErrorCap,
  infoPreferida,
  leerAlertaCap,
  type AlertaCap,
  type NodoXml,
} from '@pregon/contract/rules/cap';
import {
  entradasDeFuente,
  esFuente,
  noCoincide,
  SEVERIDADES_REGLA,
  type ReglaFuenteCap,
} from '@pregon/contract/rules/cap-fuentes';
import type {
  CrearFuenteCap,
  FuenteCap,
  RegistroFuente,
  ResultadoFuente,
} from '@pregon/contract/api/cap';
import type { DB } from '@pregon/db/schema';
import {
  busquedaGuardada,
  destinoLiteralRefusado,
  leerDestinosPermitidos,
  type ListaDestinos,
} from '@pregon/despacho';
import { HttpError, error, noEncontrado } from '@pregon/servidor/http/errores';
import { auditar } from '../repositories/auditoria.ts';
import * as repo from '../repositories/cap.ts';
import type { Actor, CtxEjercicios } from './ejercicios.ts';
import { leerXml } from './cap-xml.ts';
import { estadosDeInfo, recibirAlerta } from './cap.ts';
import { arrancarSondeo } from './sondeo.ts';
import { destinoRefusado } from './webhooks-salida.ts';

// Issue 47.4: CAP feeds. Every api process looks for due feeds (FUENTES_CAP_SONDEO_MS) and reads
// each one it claims (a lease in the row, so two processes on PostgreSQL never read the same feed
// at once): the feed (Atom or RSS, as leerXml reads CAP: no DOCTYPE, bounded), then each alert,
// embedded or linked, oldest first. An alert's identity (sender, identifier) is handled once per
// feed (fuentes_cap_registro). A new Alert, or an Update whose original this installation never
// received (a feed read in the middle of a storm), becomes a draft only when the feed's rule
// matches; an Update or Cancel of an alert already received follows it (references), as POST
// /cap/ would. Everything goes through POST /cap/'s rules (recibirAlerta): nothing starts.
// Targets on loopback or private addresses are refused, at subscription and at every
// connection, unless CAP_FUENTES_DESTINOS_PERMITIDOS lists them.

/** The feeds' settings. */
export interface ConfigFuentesCap {
  /** CAP_FUENTES_DESTINOS_PERMITIDOS: loopback and private targets allowed (default none). */
  destinos: ListaDestinos;
  /** CAP_FUENTES_SONDEO_MS: how often each api process looks for due feeds. */
  sondeoMs: number;
  /** How long one HTTP request may take. */
  tiempoEsperaMs: number;
}

/** The settings from an environment. */
export function configFuentesCapDeEntorno(env: NodeJS.ProcessEnv = process.env): ConfigFuentesCap {
  const n = Number(env.CAP_FUENTES_SONDEO_MS ?? 15_000);
  return {
    destinos: leerDestinosPermitidos(env.CAP_FUENTES_DESTINOS_PERMITIDOS ?? ''),
    sondeoMs: Number.isInteger(n) && n > 0 ? n : 15_000,
    tiempoEsperaMs: 10_000,
  };
}

/** Largest feed or alert document read (bytes). */
export const MAX_BYTES_FUENTE = 2 * 1024 * 1024;
/** Most linked alerts fetched in one read (the rest wait for the next). */
export const MAX_ENLACES_POR_CONSULTA = 50;
/** How long a claimed feed is held by one reader. */
const LEASE_MS = 5 * 60_000;

type K = Kysely<DB>;
type Fila = Awaited<ReturnType<typeof filasFuentes>>[number];

const filasFuentes = (k: K, id?: number) => {
  let q = k.selectFrom('fuentes_cap').selectAll();
  if (id !== undefined) q = q.where('id_fuente', '=', id);
  return q.orderBy('id_fuente').execute();
};

const lista = (t: string) =>
  t
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const severidad = (s: string | null) =>
  (SEVERIDADES_REGLA as readonly string[]).includes(s ?? '')
    ? (s as ReglaFuenteCap['severidad_minima'])
    : null;

async function presentar(k: K, filas: Fila[]): Promise<FuenteCap[]> {
  const ids = [...new Set(filas.flatMap((f) => lista(f.estados).map(Number)))];
  const nombres = ids.length ? await repo.estadosConCodigo(k, ids) : [];
  return filas.map((f) => ({
    id_fuente: Number(f.id_fuente),
    nombre: f.nombre,
    url: f.url,
    intervalo_min: Number(f.intervalo_min),
    activo: Number(f.activo),
    eventos: lista(f.eventos),
    severidad_minima: severidad(f.severidad_minima),
    estados: lista(f.estados).flatMap((id) => {
      const e = nombres.find((s) => Number(s.id_estado) === Number(id));
      return e ? [{ id_estado: Number(e.id_estado), estado: e.estado }] : [];
    }),
    id_equipo: f.id_equipo === null ? null : Number(f.id_equipo),
    creado: Number(f.creado),
    creado_por: f.creado_por,
    ultima_consulta: f.ultima_consulta === null ? null : Number(f.ultima_consulta),
    ultimo_error: f.ultimo_error,
    proxima_consulta: Number(f.proxima_consulta),
  }));
}

/** Every feed. */
export async function listarFuentes(k: K): Promise<FuenteCap[]> {
  return presentar(k, await filasFuentes(k));
}

/** Subscribes a feed (its address checked; its states and device must exist). Audited. It is
 * due at once. */
export async function crearFuente(
  k: K,
  cfg: ConfigFuentesCap,
  actor: Actor,
  datos: CrearFuenteCap,
): Promise<FuenteCap> {
  const refusado = await destinoRefusado(datos.url, cfg.destinos, 'destinoFuenteNoPermitido');
  if (refusado) throw new HttpError(400, refusado, 'url');
  if (datos.estados.length) {
    const hay = await repo.estadosConCodigo(k, datos.estados);
    const falta = datos.estados.find((id) => !hay.some((s) => Number(s.id_estado) === id));
    if (falta !== undefined) throw noEncontrado(`Estado ${falta}`);
  }
  if (datos.id_equipo !== null) {
    const e = await k
      .selectFrom('equipos')
      .select('id_equipo')
      .where('id_equipo', '=', datos.id_equipo)
      .executeTakeFirst();
    if (!e) throw noEncontrado(`Equipo ${datos.id_equipo}`);
  }
  const ahora = Date.now();
  const id = await k.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto('fuentes_cap')
      .values({
        nombre: datos.nombre,
        url: datos.url,
        intervalo_min: datos.intervalo_min,
        eventos: datos.eventos.join(','),
        severidad_minima: datos.severidad_minima,
        estados: datos.estados.join(','),
        id_equipo: datos.id_equipo,
        creado: ahora,
        creado_por: actor.usuario,
        proxima_consulta: ahora,
        lease_hasta: null,
        ultima_consulta: null,
        ultimo_error: null,
      })
      .returning('id_fuente')
      .executeTakeFirstOrThrow();
    const idFuente = Number(r.id_fuente);
    await auditar(trx, actor, 'crear', 'fuente_cap', idFuente, {
      url: datos.url,
      nombre: datos.nombre,
    });
    return idFuente;
  });
  return (await presentar(k, await filasFuentes(k, id)))[0]!;
}

/** Removes a feed and its log (the exercises it created stay). Audited. */
export async function eliminarFuente(k: K, actor: Actor, id: number): Promise<void> {
  await k.transaction().execute(async (trx) => {
    const r = await trx.deleteFrom('fuentes_cap').where('id_fuente', '=', id).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw noEncontrado(`Fuente CAP ${id}`);
    await auditar(trx, actor, 'eliminar', 'fuente_cap', id);
  });
}

/** A feed's log, the latest first. */
export async function registroFuente(k: K, id: number): Promise<RegistroFuente[]> {
  const f = await k
    .selectFrom('fuentes_cap')
    .select('id_fuente')
    .where('id_fuente', '=', id)
    .executeTakeFirst();
  if (!f) throw noEncontrado(`Fuente CAP ${id}`);
  const filas = await k
    .selectFrom('fuentes_cap_registro')
    .selectAll()
    .where('id_fuente', '=', id)
    .orderBy('id_registro', 'desc')
    .limit(200)
    .execute();
  return filas.map((r) => ({
    id_registro: Number(r.id_registro),
    remitente: r.remitente,
    identificador: r.identificador,
    enviado: r.enviado,
    tipo_mensaje: r.tipo_mensaje,
    evento: r.evento,
    resultado: r.resultado as ResultadoFuente,
    mensaje: r.mensaje,
    id_ejercicio: r.id_ejercicio === null ? null : Number(r.id_ejercicio),
    visto: Number(r.visto),
  }));
}

/** GETs a document within the deadline and MAX_BYTES_FUENTE, never following a redirect and
 * never opening a socket to a refused address. Its text (UTF-8, or Latin-1 when its XML
 * declaration says so). */
function descargar(url: string, cfg: ConfigFuentesCap): Promise<string> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const puerto = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    const refusado = destinoLiteralRefusado(u.hostname, puerto, cfg.destinos);
    if (refusado) return reject(new HttpError(400, refusado.message, 'url'));
    const req = (u.protocol === 'https:' ? https : http).get(
      u,
      {
        headers: {
          accept: 'application/atom+xml, application/rss+xml, application/cap+xml, */*',
          'user-agent': 'Pregon-CAP/1',
        },
        timeout: cfg.tiempoEsperaMs,
        lookup: busquedaGuardada(puerto, () => cfg.destinos),
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(msg('fuenteCapHttp', { estado: res.statusCode ?? 0 })));
        }
        const partes: Buffer[] = [];
        let largo = 0;
        res.on('data', (c: Buffer) => {
          largo += c.length;
          if (largo > MAX_BYTES_FUENTE) {
            req.destroy(new Error(msg('fuenteCapGrande', { url, max: MAX_BYTES_FUENTE })));
            return;
          }
          partes.push(c);
        });
        res.on('error', reject);
        res.on('end', () => {
          const bytes = Buffer.concat(partes);
          const cabeza = bytes.subarray(0, 200).toString('latin1');
          const latin = /<\?xml[^>]*encoding=["'](iso-8859-1|latin-?1|windows-1252)["']/i.test(
            cabeza,
          );
          resolve(new TextDecoder(latin ? 'windows-1252' : 'utf-8').decode(bytes));
        });
      },
    );
    req.on('timeout', () =>
      req.destroy(
        new Error(msg('fuenteCapSinRespuesta', { detalle: `${cfg.tiempoEsperaMs / 1000} s` })),
      ),
    );
    req.on('error', reject);
  });
}

/** What one read did. */
export interface ResultadoConsulta {
  nuevas: number;
  borradores: number;
}

/** One alert a read found, with where it came from. */
interface Hallada {
  alerta: AlertaCap;
  enlace: string | null;
}

/** The account a feed acts as (audited as 'fuente-cap:<nombre>'): an administrator's authority,
 * used only through CAP's rules, which create, edit or stop and never start. */
const cuentaFuente = (f: Fila) => ({
  id_usuario: 0,
  usuario: `fuente-cap:${f.nombre}`.slice(0, 100),
  role: [ROL_ADMINISTRADOR],
});

/** Reads a claimed feed once and acts on its new alerts. Throws when the feed itself cannot be
 * read (the caller records it); an alert's refusal is the log's, not an error. */
async function leerFuente(
  ctx: CtxEjercicios,
  cfg: ConfigFuentesCap,
  f: Fila,
): Promise<ResultadoConsulta & { avisos: string[] }> {
  const k = ctx.db.kysely;
  const idFuente = Number(f.id_fuente);
  const raiz = leerXml(await descargar(f.url, cfg));
  if (!esFuente(raiz)) throw new Error(msg('fuenteCapNoEsFuente', { raiz: raiz.nombre }));
  const vistas = await k
    .selectFrom('fuentes_cap_registro')
    .select(['remitente', 'identificador', 'enlace'])
    .where('id_fuente', '=', idFuente)
    .execute();
  const enlacesVistos = new Set(vistas.map((v) => v.enlace).filter(Boolean));
  const identidades = new Set(vistas.map((v) => `${v.remitente}\n${v.identificador}`));
  const halladas: Hallada[] = [];
  const ilegibles: string[] = [];
  const leer = (nodo: NodoXml, enlace: string | null) => {
    try {
      halladas.push({ alerta: leerAlertaCap(nodo), enlace });
    } catch (e) {
      ilegibles.push(`${enlace ?? 'entrada'}: ${(e as Error).message}`);
    }
  };
  let enlaces = 0;
  for (const entrada of entradasDeFuente(raiz, f.url)) {
    if ('alerta' in entrada) leer(entrada.alerta, null);
    else if (!enlacesVistos.has(entrada.enlace) && enlaces < MAX_ENLACES_POR_CONSULTA) {
      enlaces++;
      try {
        leer(leerXml(await descargar(entrada.enlace, cfg)), entrada.enlace);
      } catch (e) {
        ilegibles.push(`${entrada.enlace}: ${(e as Error).message}`);
      }
    }
  }
  halladas.sort((a, b) => a.alerta.sent - b.alerta.sent);
  const regla: ReglaFuenteCap = {
    eventos: lista(f.eventos),
    severidad_minima: severidad(f.severidad_minima),
    estados: [],
  };
  const idsEstados = lista(f.estados).map(Number);
  if (idsEstados.length)
    regla.estados = (await repo.estadosConCodigo(k, idsEstados)).map((s) => s.estado);
  const cuenta = cuentaFuente(f);
  let nuevas = 0;
  let borradores = 0;
  for (const { alerta: a, enlace } of halladas) {
    const identidad = `${a.sender}\n${a.identifier}`;
    if (identidades.has(identidad)) continue;
    identidades.add(identidad);
    nuevas++;
    const info = infoPreferida(a.infos);
    const anotar = (
      resultado: ResultadoFuente,
      mensaje: string,
      id_ejercicio: number | null = null,
    ) =>
      k
        .insertInto('fuentes_cap_registro')
        .values({
          id_fuente: idFuente,
          remitente: a.sender,
          identificador: a.identifier,
          enviado: a.sentTexto,
          tipo_mensaje: a.msgType,
          evento: info?.event.slice(0, 500) ?? null,
          enlace,
          resultado,
          mensaje: mensaje.slice(0, 1000),
          id_ejercicio,
          visto: Date.now(),
        })
        .onConflict((oc) => oc.columns(['id_fuente', 'remitente', 'identificador']).doNothing())
        .execute();
    const previa = await repo.alertaPorIdentidad(k, a.sender, a.identifier);
    if (previa) {
      await anotar(
        'ya_recibida',
        msg('capDuplicada', {
          identificador: a.identifier,
          remitente: a.sender,
          id_ejercicio: previa.id_ejercicio ?? '-',
        }),
        previa.id_ejercicio,
      );
      continue;
    }
    // An Update or Cancel of an alert received follows it; anything else is new and must match.
    const sigue = a.msgType !== 'Alert' && (await repo.ejercicioReferido(k, a.references)) !== null;
    if (!sigue && a.msgType !== 'Cancel') {
      const razon = noCoincide(regla, info, info ? await estadosDeInfo(ctx, info) : []);
      if (razon) {
        await anotar('no_coincide', razon);
        continue;
      }
    }
    try {
      const r = await recibirAlerta(ctx, cuenta, a, {
        huerfanaComoAlerta: true,
        idEquipo: f.id_equipo === null ? null : Number(f.id_equipo),
      });
      borradores += r.accion === 'detenido' ? 0 : 1;
      await anotar(
        r.accion,
        (r.huerfana ? msg('fuenteCapHuerfana') : '') + r.mensaje,
        r.id_ejercicio,
      );
    } catch (e) {
      if (!(e instanceof HttpError) && !(e instanceof ErrorCap)) throw e;
      await anotar('rechazada', e.message);
    }
  }
  const avisos = ilegibles.length
    ? [msg('fuenteCapIlegibles', { n: ilegibles.length, detalle: ilegibles[0]!.slice(0, 300) })]
    : [];
  return { nuevas, borradores, avisos };
}

/** Claims a feed (false when another reader holds it); `soloDebida` also asks that it be due. */
async function reclamar(k: K, id: number, soloDebida: boolean): Promise<boolean> {
  const ahora = Date.now();
  let q = k
    .updateTable('fuentes_cap')
    .set({ lease_hasta: ahora + LEASE_MS })
    .where('id_fuente', '=', id)
    .where((eb) => eb.or([eb('lease_hasta', 'is', null), eb('lease_hasta', '<', ahora)]));
  if (soloDebida) q = q.where('activo', '=', 1).where('proxima_consulta', '<=', ahora);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Reads a claimed feed and records how it went; the lease is released and the next read set. */
async function consultarReclamada(
  ctx: CtxEjercicios,
  cfg: ConfigFuentesCap,
  id: number,
): Promise<ResultadoConsulta> {
  const k = ctx.db.kysely;
  const [f] = await filasFuentes(k, id);
  if (!f) throw noEncontrado(`Fuente CAP ${id}`);
  let ultimoError: string | null = null;
  try {
    const leido = await leerFuente(ctx, cfg, f);
    ultimoError = leido.avisos[0] ?? null;
    return { nuevas: leido.nuevas, borradores: leido.borradores };
  } catch (e) {
    ultimoError = (e as Error).message || String(e);
    throw e;
  } finally {
    const ahora = Date.now();
    await k
      .updateTable('fuentes_cap')
      .set({
        lease_hasta: null,
        ultima_consulta: ahora,
        ultimo_error: ultimoError?.slice(0, 1000) ?? null,
        proxima_consulta: ahora + Number(f.intervalo_min) * 60_000,
      })
      .where('id_fuente', '=', id)
      .execute();
  }
}

/** POST /cap/fuentes/{id}/consultar/: reads a feed now. A feed that cannot be read answers 502
 * with the reason (also kept as its last error). */
export async function consultarAhora(
  ctx: CtxEjercicios,
  cfg: ConfigFuentesCap,
  id: number,
): Promise<ResultadoConsulta> {
  const k = ctx.db.kysely;
  // Claimed first; only a refused claim asks why (no such feed, or another reader holds it).
  if (!(await reclamar(k, id, false))) {
    if (!(await filasFuentes(k, id)).length) throw noEncontrado(`Fuente CAP ${id}`);
    throw error(409, 'fuenteCapOcupada', undefined, 'id');
  }
  try {
    return await consultarReclamada(ctx, cfg, id);
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw new HttpError(502, (e as Error).message, 'url');
  }
}

/** Reads every due feed this process can claim; returns how many it read. */
export async function consultarDebidas(
  ctx: CtxEjercicios,
  cfg: ConfigFuentesCap,
  bitacora: (m: string) => void = () => undefined,
): Promise<number> {
  const k = ctx.db.kysely;
  const debidas = await k
    .selectFrom('fuentes_cap')
    .select('id_fuente')
    .where('activo', '=', 1)
    .where('proxima_consulta', '<=', Date.now())
    .execute();
  let n = 0;
  for (const { id_fuente } of debidas) {
    const id = Number(id_fuente);
    if (!(await reclamar(k, id, true))) continue;
    n++;
    await consultarReclamada(ctx, cfg, id).catch((e: unknown) =>
      bitacora(`fuente CAP ${id}: ${(e as Error).message}`),
    );
  }
  return n;
}

/** Starts the feeds' reader of this api process. */
export function arrancarFuentesCap(
  ctx: CtxEjercicios,
  cfg: ConfigFuentesCap,
  bitacora: (m: string) => void = () => undefined,
): { detener(): Promise<void> } {
  return arrancarSondeo(
    () => consultarDebidas(ctx, cfg, bitacora),
    cfg.sondeoMs,
    bitacora,
    'fuentes CAP',
  );
}
