import { sql, type Kysely } from 'kysely';
import { TIPO_SMS, type ComoRespuesta } from '@pregon/contract/constants';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';
import { conteoSemaforo } from '@pregon/contract/rules/alcance';
import { sinMarca } from '@pregon/contract/rules/modo';
import {
  abreCaso,
  clasificarRespuesta,
  encuestaAbierta,
  instruccionEncuesta,
  respuestaVigente,
  textoEncuesta,
  type ClasificacionRespuesta,
  type OpcionEncuesta,
} from '@pregon/contract/rules/respuestas';
import type { Encuesta } from '@pregon/contract/api/encuestas';
import type {
  CasoFila,
  Clasificacion,
  EncuestaLeida,
  ResumenEncuestaTablero,
  RespuestaFila,
} from '@pregon/contract/api/respuestas';
import type { Sesion } from '@pregon/servidor/auth/tokens';
import { marcaSimulacro, ventanaEncuestaMs, zonaProducto } from '../config.ts';
import type { Contexto } from '../contexto.ts';
import type { Db } from '@pregon/db/database';
import type { DB } from '@pregon/db/schema';
import { error, noEncontrado } from '@pregon/servidor/http/errores';
import { auditar } from '../repositories/auditoria.ts';
import * as repo from '../repositories/ejercicios.ts';
import * as repoRespuestas from '../repositories/respuestas.ts';
import { conteoVigentes } from '../repositories/respuestas-vigentes.ts';
import { encolarAcuse, type AcusePorRespuesta } from '@pregon/despacho';
import { desfaseZona, epochDe } from './tableros.ts';

// Polls, replies matched to them, and the cases of those who need help (issue 46.2 and 46.3).
// A reply is stored by the intake (despacho/store-respuestas.ts) with no classification; then
// `procesarRespuesta` matches it, once: to the one open poll for its number on its device, to an
// option (or 'baja'/'alta', or 'no_reconocida'), and opens a case when the person's current answer
// becomes one requiring attention. The same SQL on both engines.

type K = Kysely<DB>;

// ---------------------------------------------------------------- classification as stored

/** A classification as the column stores it: 'opcion:{digito}:{como}', 'baja', 'alta' or
 * 'no_reconocida' (fits respuestas_recibidas.clasificacion's 40 characters). */
export function clasificacionATexto(
  c: ClasificacionRespuesta | { tipo: 'opcion'; digito: number; como: ComoRespuesta },
): string {
  return c.tipo === 'opcion' ? `opcion:${c.digito}:${c.como}` : c.tipo;
}

/** The column's text as a classification (null: not read yet). */
export function clasificacionDeTexto(s: string | null): Clasificacion {
  if (s === null) return null;
  if (s.startsWith('opcion:')) {
    const [, d, como] = s.split(':');
    return { tipo: 'opcion', digito: Number(d), como: como as ComoRespuesta };
  }
  return { tipo: s as 'baja' | 'alta' | 'no_reconocida' };
}

/** The stored classification of an option (for respuestaVigente), or the others as they are. */
function fechada(f: { fecha_recibida: number | string; clasificacion: string | null }) {
  const c = clasificacionDeTexto(f.clasificacion);
  return {
    recibida: Number(f.fecha_recibida),
    clasificacion:
      c?.tipo === 'opcion'
        ? { tipo: 'opcion' as const, digito: c.digito!, como: c.como! }
        : { tipo: 'no_reconocida' as const },
  };
}

// ---------------------------------------------------------------- the poll of an exercise

/** The text an exercise sends: with a poll that appends its options (SMS), the question plus the
 * instruction (an instruction already at its end is not appended twice); else as written. */
export function accionConEncuesta(
  tipo: number,
  accion: string,
  encuesta: Encuesta | undefined,
): { accion: string; pregunta: string } {
  if (!encuesta) return { accion, pregunta: accion };
  const instruccion = instruccionEncuesta(encuesta.opciones);
  const pregunta = accion.endsWith(instruccion)
    ? accion.slice(0, -instruccion.length).trimEnd()
    : accion;
  if (tipo !== TIPO_SMS || !encuesta.anexar_opciones) return { accion: pregunta, pregunta };
  return { accion: textoEncuesta(pregunta, encuesta.opciones, true).texto, pregunta };
}

/** Writes (or removes, when the body has none) an exercise's poll inside its create/edit
 * transaction; returns what the audit row records of it. */
export async function guardarEncuesta(
  k: K,
  id: number,
  b: { tipo_ejercicio: number; accion: string; encuesta?: Encuesta | undefined },
): Promise<{ encuesta?: unknown }> {
  await k.deleteFrom('encuestas_ejercicio').where('id_ejercicio', '=', id).execute();
  if (!b.encuesta) return {};
  // The question as asked, without the drill marker a client that sends back the text it read
  // carries (issue 47.1): the same question whether the marker came from the api or the client.
  const pregunta = sinMarca(
    accionConEncuesta(b.tipo_ejercicio, b.accion, b.encuesta).pregunta,
    marcaSimulacro(),
  );
  await k
    .insertInto('encuestas_ejercicio')
    .values({
      id_ejercicio: id,
      opciones: JSON.stringify(b.encuesta.opciones),
      anexar_opciones: b.encuesta.anexar_opciones ? 1 : 0,
      pregunta,
      creado: Date.now(),
    })
    .execute();
  return { encuesta: b.encuesta };
}

/** The polls of these exercises (all when absent), by exercise. */
export async function encuestasDe(
  k: K,
  ids?: readonly number[],
): Promise<Map<number, EncuestaLeida>> {
  if (ids && ids.length === 0) return new Map();
  let q = k.selectFrom('encuestas_ejercicio').selectAll();
  if (ids) q = q.where('id_ejercicio', 'in', ids);
  const filas = await q.execute();
  return new Map(
    filas.map((f) => [
      f.id_ejercicio,
      {
        pregunta: f.pregunta,
        opciones: JSON.parse(f.opciones) as OpcionEncuesta[],
        anexar_opciones: f.anexar_opciones === 1,
      },
    ]),
  );
}

// ---------------------------------------------------------------- matching a reply

/** The reply that opts a phone out or back in, as the opt-out list is told it. */
export interface CambioPorRespuesta {
  telefono: string;
  canal: string;
  id_respuesta: number;
  texto: string;
  /** The reply's own row, already read by the matching (so the hooks need not read it again):
   * the device it came in on, when, and the phone's directory id found when it was stored. */
  id_equipo: number;
  fecha_recibida: number;
  id_telefono: number | null;
}

/** What opting out or back in does to a phone (services/bajas.ts registrarBaja/registrarAlta,
 * issue 46.4, wired by the intake in services/leer-respuestas.ts); absent, a 'baja' or 'alta'
 * is only classified. */
export interface Bajas {
  baja(k: K, r: CambioPorRespuesta): Promise<unknown>;
  alta(k: K, r: CambioPorRespuesta): Promise<unknown>;
}

/** How replies are matched: the product's time zone (the dispatcher writes fecha_envio and
 * hora_envio in it; default TZ), the poll's window (default ENCUESTA_VENTANA_HORAS), and the
 * opt-out list. */
export interface OpcionesProceso {
  tz?: string;
  ventanaMs?: number;
  bajas?: Bajas;
  /** Queues the option's automatic acknowledgement (despacho/sueltos.ts), in the matching's
   * transaction; absent, an answer is only counted. */
  acuse?: (k: K, a: AcusePorRespuesta) => Promise<unknown>;
  /** Told, after each batch commits, the exercises whose replies it read (answers counted, cases
   * opened): services/leer-respuestas.ts turns it into 'ejercicio' events, which move the live
   * dashboards (the exercise's counts and queue, /index_dash's open cases) without a tick. */
  alLeer?: (ids_ejercicio: number[]) => void;
  /** Told after each batch that wrote at least one reading commits (its hooks may have queued
   * an acknowledgement or a BAJA/ALTA confirmation): the dispatcher wakes its one-off sender then,
   * not at each stored reply, before anything could have been queued. */
  alEscribir?: () => void;
}

/** What matching a reply did. */
export interface ResultadoProceso {
  clasificacion: ClasificacionRespuesta;
  id_ejercicio: number | null;
  id_detalle: number | null;
  id_caso: number | null;
}

/** The person's current answer in `filas` (replies read as an option, oldest first): its digit
 * and when it came, or null. */
function vigenteDe(filas: readonly { fecha_recibida: number; clasificacion: string }[]) {
  const v = respuestaVigente(filas.map(fechada));
  return v && v.clasificacion.tipo === 'opcion'
    ? { digito: v.clasificacion.digito, recibida: v.recibida }
    : null;
}

/** Whether a new answer `digito` received at `recibida` becomes the current one and opens a case
 * (one at a time: the operator's manual classification). */
async function casoPorRespuesta(
  k: K,
  opciones: readonly OpcionEncuesta[],
  r: { id_ejercicio: number; id_detalle: number; id_respuesta: number; recibida: number },
  digito: number,
  quien: { id_usuario: number; usuario: string } | null,
): Promise<number | null> {
  const otras = await repoRespuestas.respuestasOpcion(k, [r.id_ejercicio], [r.id_detalle]);
  const previa = vigenteDe(otras.filter((f) => f.id_respuesta !== r.id_respuesta));
  if (previa && previa.recibida > r.recibida) return null; // a later answer is the current one
  if (!abreCaso(previa?.digito ?? null, digito, opciones)) return null;
  const { id_ejercicio, id_detalle, id_respuesta } = r;
  const abiertos = await repoRespuestas.abrirCasos(
    k,
    [{ id_ejercicio, id_detalle, id_respuesta, digito }],
    quien,
  );
  return abiertos.get(id_respuesta) ?? null;
}

/** The product zone's offsets by wall-clock minute (a zone's offset changes on a minute's edge),
 * so a send's instant costs no formatToParts: desfaseZona (rules/zona-horaria.ts) keeps its
 * formatter but remembers only each zone's last second, and a batch's sends span many minutes
 * (the matching's heaviest step in a profile); a few thousand minutes kept at most. */
const desfases = new Map<string, number>();
function desfaseDeMinuto(tz: string, fecha: string, hora: string, pared: number): number {
  const clave = `${tz} ${fecha} ${hora.slice(0, 5)}`;
  let d = desfases.get(clave);
  if (d === undefined) {
    if (desfases.size >= 5_000) desfases.clear();
    desfases.set(clave, (d = desfaseZona(tz, pared - (pared % 60_000))));
  }
  return d;
}

/** The poll sends of a batch by sender: 'i{id_telefono}' and 't{telefono}'. */
function enviosPorRemitente(envios: readonly repoRespuestas.EnvioEncuestaFila[]) {
  const m = new Map<string, repoRespuestas.EnvioEncuestaFila[]>();
  const poner = (clave: string, f: repoRespuestas.EnvioEncuestaFila) => {
    const l = m.get(clave);
    if (!l) m.set(clave, [f]);
    else if (!l.includes(f)) l.push(f);
  };
  for (const f of [...envios].sort((a, b) => a.id_detalle - b.id_detalle)) {
    if (f.id_telefono !== null) poner(`i${f.id_telefono}`, f);
    poner(`t${f.telefono}`, f);
  }
  return m;
}

/** The open poll a reply answers (encuestaAbierta over the sends of its device to its directory
 * id, or to its number when the directory does not hold it, of exercises not ended before the
 * window), or null. */
function abiertaPara(
  r: repoRespuestas.SinLeer,
  porRemitente: Map<string, repoRespuestas.EnvioEncuestaFila[]>,
  ventanaMs: number,
  enviada: (f: repoRespuestas.EnvioEncuestaFila) => number,
): repoRespuestas.EnvioEncuestaFila | null {
  if (r.id_telefono === null && !r.telefono) return null;
  const clave = r.id_telefono !== null ? `i${r.id_telefono}` : `t${r.telefono}`;
  const desde = r.fecha_recibida - ventanaMs;
  const envios = (porRemitente.get(clave) ?? [])
    .filter((f) => f.id_equipo === r.id_equipo && (f.terminado === null || f.terminado >= desde))
    .map((f) => ({ id: f, enviada: enviada(f) }));
  return encuestaAbierta(envios, r.fecha_recibida, ventanaMs)?.id ?? null;
}

/** Readings already made, by poll (its options' stored JSON) and text: a drill's replies repeat
 * ('1', '2', 'si', 'Estoy bien'), and the rule (clasificarRespuesta, a pure function) was 11 % of
 * the intake's CPU at 100,000 recipients. Bounded: a poll's map is emptied past MEMORIA_TEXTOS. */
const memoriaLecturas = new Map<string, Map<string, ClasificacionRespuesta>>();
const MEMORIA_TEXTOS = 20_000;
const MEMORIA_ENCUESTAS = 200;

function clasificarConMemoria(
  texto: string,
  claveOpciones: string,
  opciones: readonly OpcionEncuesta[],
): ClasificacionRespuesta {
  let porTexto = memoriaLecturas.get(claveOpciones);
  if (!porTexto) {
    if (memoriaLecturas.size >= MEMORIA_ENCUESTAS) memoriaLecturas.clear();
    memoriaLecturas.set(claveOpciones, (porTexto = new Map()));
  }
  let c = porTexto.get(texto);
  if (!c) {
    if (porTexto.size >= MEMORIA_TEXTOS) porTexto.clear();
    c = clasificarRespuesta(texto, opciones);
    porTexto.set(texto, c);
  }
  return c;
}

/**
 * Matches a batch of unread replies taken in this transaction (repositories/respuestas.ts
 * tomarSinLeer), as one by one in id order would: the poll sends of all their senders read in one
 * query, each classified in memory (clasificarRespuesta), the classifications written in one
 * statement (only those still unread), each 'BAJA'/'ALTA' and each option's acknowledgement passed
 * to OpcionesProceso's hooks per reply, and the cases of those whose current answer becomes one
 * requiring attention opened in one statement. Returns what was done per reply written.
 */
async function leerLote(
  k: K,
  rs: readonly repoRespuestas.SinLeer[],
  o: OpcionesProceso,
): Promise<Map<number, ResultadoProceso>> {
  const tz = o.tz ?? zonaProducto();
  const ventanaMs = o.ventanaMs ?? ventanaEncuestaMs();
  const unicos = <T>(xs: T[]) => [...new Set(xs)];
  const envios = await repoRespuestas.enviosEncuesta(k, {
    equipos: unicos(rs.map((r) => r.id_equipo)),
    idsTelefono: unicos(rs.flatMap((r) => (r.id_telefono !== null ? [r.id_telefono] : []))),
    telefonos: unicos(
      rs.flatMap((r) => (r.id_telefono === null && r.telefono ? [r.telefono] : [])),
    ),
    desde: Math.min(...rs.map((r) => r.fecha_recibida)) - ventanaMs,
  });
  const porRemitente = enviosPorRemitente(envios);
  const enviada = (f: repoRespuestas.EnvioEncuestaFila) => {
    const pared = epochDe(f.fecha_envio, f.hora_envio, 0);
    return pared - desfaseDeMinuto(tz, f.fecha_envio, f.hora_envio, pared);
  };
  const opcionesDe = new Map<string, OpcionEncuesta[]>();
  const leidas = rs.map((r) => {
    const abierta = abiertaPara(r, porRemitente, ventanaMs, enviada);
    let opciones: OpcionEncuesta[] = [];
    if (abierta) {
      opciones =
        opcionesDe.get(abierta.opciones) ?? (JSON.parse(abierta.opciones) as OpcionEncuesta[]);
      opcionesDe.set(abierta.opciones, opciones);
    }
    const clasificacion = clasificarConMemoria(r.texto, abierta?.opciones ?? '', opciones);
    return { r, abierta, opciones, clasificacion };
  });
  const hechas = await repoRespuestas.escribirLecturas(
    k,
    leidas.map(({ r, abierta, clasificacion }) => ({
      id_respuesta: r.id_respuesta,
      clasificacion: clasificacionATexto(clasificacion),
      id_ejercicio: abierta?.id_ejercicio ?? null,
      id_detalle: abierta?.id_detalle ?? null,
    })),
  );
  const escritas = leidas.filter((l) => hechas.has(l.r.id_respuesta));
  // An opt-out or opt-in applies with or without a poll; a sender that is not a phone number
  // (alphanumeric) has no list entry.
  for (const { r, clasificacion } of escritas) {
    if (!r.telefono || (clasificacion.tipo !== 'baja' && clasificacion.tipo !== 'alta')) continue;
    const { telefono, canal, id_respuesta, texto, id_equipo, fecha_recibida, id_telefono } = r;
    const cambio = { telefono, canal, id_respuesta, texto, id_equipo, fecha_recibida, id_telefono };
    await (clasificacion.tipo === 'baja' ? o.bajas?.baja(k, cambio) : o.bajas?.alta(k, cambio));
  }
  // Cases: only an answer requiring attention may open one; the person's earlier answers are
  // those read before (in the database) and those before it in this batch, as one by one.
  const atencion = escritas.filter(
    (l) =>
      l.abierta &&
      l.clasificacion.tipo === 'opcion' &&
      abreCaso(null, l.clasificacion.digito, l.opciones),
  );
  const casos: repoRespuestas.CasoNuevo[] = [];
  if (atencion.length) {
    const lote = new Set(escritas.map((l) => l.r.id_respuesta));
    const previas = await repoRespuestas.respuestasOpcion(
      k,
      unicos(atencion.map((l) => l.abierta!.id_ejercicio)),
      unicos(atencion.map((l) => l.abierta!.id_detalle)),
    );
    const dePersona = new Map<string, repoRespuestas.RespuestaOpcion[]>();
    for (const f of previas) {
      const c = `${f.id_ejercicio}:${f.id_detalle}`;
      dePersona.set(c, [...(dePersona.get(c) ?? []), f]);
    }
    for (const { r, abierta, opciones, clasificacion } of atencion) {
      const { id_ejercicio, id_detalle } = abierta!;
      const digito = (clasificacion as { digito: number }).digito;
      // The answer current just before this one: those received before it (in the database,
      // or earlier in this batch). Not what is current now: another pass may have committed the
      // person's later answer first, and this one asked for help when it came all the same.
      const antes = (dePersona.get(`${id_ejercicio}:${id_detalle}`) ?? []).filter(
        (f) =>
          f.id_respuesta !== r.id_respuesta &&
          (!lote.has(f.id_respuesta) || f.id_respuesta < r.id_respuesta) &&
          (f.fecha_recibida < r.fecha_recibida ||
            (f.fecha_recibida === r.fecha_recibida && f.id_respuesta < r.id_respuesta)),
      );
      const previa = vigenteDe(antes);
      if (!abreCaso(previa?.digito ?? null, digito, opciones)) continue;
      casos.push({ id_ejercicio, id_detalle, id_respuesta: r.id_respuesta, digito });
    }
  }
  const abiertos = await repoRespuestas.abrirCasos(k, casos);
  const resultados = new Map<number, ResultadoProceso>();
  for (const { r, abierta, opciones, clasificacion } of escritas) {
    if (abierta && clasificacion.tipo === 'opcion') {
      // The option's acknowledgement, queued in this transaction (OpcionesProceso.acuse).
      const { id_respuesta, id_equipo, canal, telefono } = r;
      const opcion = opciones.find((x) => x.digito === clasificacion.digito);
      const [id_ejercicio, id_detalle] = [abierta.id_ejercicio, abierta.id_detalle];
      const recibida = r.fecha_recibida;
      const a = { id_respuesta, id_equipo, canal, telefono, id_ejercicio, id_detalle, recibida };
      await o.acuse?.(k, { ...a, opcion });
    }
    resultados.set(r.id_respuesta, {
      clasificacion,
      id_ejercicio: abierta?.id_ejercicio ?? null,
      id_detalle: abierta?.id_detalle ?? null,
      id_caso: abiertos.get(r.id_respuesta) ?? null,
    });
  }
  return resultados;
}

/**
 * Matches a stored reply, once (a reply already read is left as it is: calling it twice changes
 * nothing, and two dispatchers reading one reply at once write it once): to the open poll for its
 * number on its device (encuestaAbierta: the latest sent within the window), to an option, an
 * opt-out or opt-in (applied even with no poll) or 'no_reconocida'; opens a case when the person's
 * current answer becomes one requiring attention (abreCaso). Null when there was nothing to do.
 */
export async function procesarRespuesta(
  db: Db,
  id_respuesta: number,
  o: OpcionesProceso = {},
): Promise<ResultadoProceso | null> {
  return db.kysely.transaction().execute(async (trx) => {
    const rs = await repoRespuestas.tomarSinLeer(trx, db.engine, { ids: [id_respuesta], lote: 1 });
    if (!rs.length) return null;
    return (await leerLote(trx, rs, o)).get(id_respuesta) ?? null;
  });
}

/** Tells OpcionesProceso.alLeer the exercises these results read replies for, if any. */
function avisarLeidas(o: OpcionesProceso, hechas: Iterable<ResultadoProceso>): void {
  if (!o.alLeer) return;
  const ids = new Set<number>();
  for (const h of hechas) if (h.id_ejercicio !== null) ids.add(h.id_ejercicio);
  if (ids.size) o.alLeer([...ids]);
}

/** Matches every stored reply not read yet, oldest first, `lote` at a time, each batch in one
 * transaction (leerLote; on PostgreSQL another dispatcher's batch skips the replies this one
 * holds). The intake calls it after storing replies, and its periodic sweep retries any whose
 * matching failed. A batch that fails is retried one reply at a time, so a reply that fails does
 * not hold back the others; the first failure is thrown after all were tried (the caller logs
 * it). Returns how many were matched. */
export async function procesarPendientes(
  db: Db,
  o: OpcionesProceso = {},
  lote = 500,
): Promise<number> {
  let n = 0;
  let desde = 0;
  let fallo: unknown;
  let fallidas = 0;
  for (;;) {
    let tomadas: number[];
    try {
      const r = await db.kysely.transaction().execute(async (trx) => {
        const rs = await repoRespuestas.tomarSinLeer(trx, db.engine, { desde, lote });
        const hechas: Map<number, ResultadoProceso> = rs.length
          ? await leerLote(trx, rs, o)
          : new Map();
        return { ids: rs.map((x) => x.id_respuesta), n: hechas.size, hechas };
      });
      tomadas = r.ids;
      n += r.n;
      avisarLeidas(o, r.hechas.values());
      if (r.n) o.alEscribir?.();
    } catch {
      tomadas = await repoRespuestas.idsSinLeer(db.kysely, desde, lote);
      for (const id of tomadas) {
        try {
          const hecha = await procesarRespuesta(db, id, o);
          if (hecha) n++;
          if (hecha) avisarLeidas(o, [hecha]);
          if (hecha) o.alEscribir?.();
        } catch (err) {
          fallidas++;
          fallo ??= err;
        }
      }
    }
    if (tomadas.length) desde = tomadas.at(-1)!;
    if (tomadas.length < lote) break;
  }
  if (fallidas)
    throw new Error(`${fallidas} respuestas sin clasificar; la primera: ${String(fallo)}`, {
      cause: fallo,
    });
  return n;
}

// ---------------------------------------------------------------- reading answers

/** What the answer services need of the context. */
export type CtxRespuestas = Pick<Contexto, 'db' | 'eventos'>;

/** Who acts, for the audit log and the case's operator. */
export type Actor = Pick<Sesion, 'id_usuario' | 'usuario'>;

/** Replies selected with the recipient's name, as list rows. */
function filasRespuesta(k: K) {
  return k
    .selectFrom('respuestas_recibidas as r')
    .leftJoin('ejercicio_detalle as d', 'd.id_detalle', 'r.id_detalle')
    .leftJoin('telefonos as t', 't.id_telefono', 'r.id_telefono')
    .select([
      'r.id_respuesta',
      'r.id_ejercicio',
      'r.id_detalle',
      'r.telefono',
      'r.remitente',
      'r.canal',
      'r.id_equipo',
      'r.texto',
      'r.fecha_recibida',
      'r.clasificacion',
      (eb) => eb.fn.coalesce('d.nombre', 't.nombre').as('nombre'),
    ]);
}

/** A selected reply as the wire's row. */
function aFila(f: Awaited<ReturnType<ReturnType<typeof filasRespuesta>['execute']>>[number]) {
  return {
    id_respuesta: Number(f.id_respuesta),
    id_ejercicio: f.id_ejercicio,
    id_detalle: f.id_detalle === null ? null : Number(f.id_detalle),
    telefono: f.telefono,
    remitente: f.remitente,
    nombre: f.nombre ?? null,
    canal: f.canal,
    id_equipo: f.id_equipo,
    texto: f.texto,
    fecha_recibida: Number(f.fecha_recibida),
    clasificacion: clasificacionDeTexto(f.clasificacion),
  } satisfies RespuestaFila;
}

/** Most unrecognised replies GET /ejercicio/{id}/respuestas/ lists (newest first); their count
 * (`total_no_reconocidas`, and the dashboard's) is never capped. */
const MAX_NO_RECONOCIDAS = 500;

/** The counts of an exercise's poll: each option's people whose current answer it is (with their
 * share of the reached), the reached who have not answered, every unrecognised reply (counted in
 * SQL) and the cases not yet attended. `opciones` is the poll as already read (encuestasDe), so
 * GET /ejercicio/{id}/respuestas/ and the dashboard's live tick read it once. */
async function conteosEncuesta(k: K, id: number, opciones: readonly OpcionEncuesta[]) {
  const [estatus, totales, noReconocidas, casos] = await Promise.all([
    repo.conteoPorEstatus(k, id),
    conteoVigentes(k, id),
    k
      .selectFrom('respuestas_recibidas')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id_ejercicio', '=', id)
      .where('clasificacion', '=', 'no_reconocida')
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('casos')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id_ejercicio', '=', id)
      .where('estado', '<>', 'atendido')
      .executeTakeFirstOrThrow(),
  ]);
  const alcanzados = conteoSemaforo(estatus).verde;
  const respondieron = [...totales.values()].reduce((a, b) => a + b, 0);
  const pct = (n: number) => (alcanzados > 0 ? Math.round((n / alcanzados) * 1000) / 10 : 0);
  return {
    alcanzados,
    respondieron,
    sin_respuesta: Math.max(0, alcanzados - respondieron),
    opciones: opciones.map((o) => ({
      digito: o.digito,
      texto: o.texto,
      atencion: o.atencion,
      total: totales.get(o.digito) ?? 0,
      porcentaje: pct(totales.get(o.digito) ?? 0),
    })),
    no_reconocidas: Number(noReconocidas.n),
    casos_abiertos: Number(casos.n),
  };
}

/** GET /ejercicio/{id}/respuestas/: counts per option of the people whose current answer it is,
 * with their share of the reached, the reached who have not answered, and unrecognised replies
 * (the latest MAX_NO_RECONOCIDAS listed, all of them counted). */
export async function respuestasDe(ctx: CtxRespuestas, id: number) {
  const k = ctx.db.kysely;
  const ej = await k
    .selectFrom('ejercicios')
    .select('id_ejercicio')
    .where('id_ejercicio', '=', id)
    .executeTakeFirst();
  if (!ej) throw noEncontrado(`Ejercicio ${id}`);
  const encuesta = (await encuestasDe(k, [id])).get(id);
  const [conteos, noReconocidas] = await Promise.all([
    conteosEncuesta(k, id, encuesta?.opciones ?? []),
    filasRespuesta(k)
      .where('r.id_ejercicio', '=', id)
      .where('r.clasificacion', '=', 'no_reconocida')
      .orderBy('r.fecha_recibida', 'desc')
      .orderBy('r.id_respuesta', 'desc')
      .limit(MAX_NO_RECONOCIDAS)
      .execute(),
  ]);
  return {
    status: 200 as const,
    ...conteos,
    no_reconocidas: noReconocidas.map(aFila),
    total_no_reconocidas: conteos.no_reconocidas,
  };
}

/** GET /respuestas/bandeja/: replies that belong to no poll, newest first; with
 * `noReconocidas` also the replies of a poll read as 'Respuesta no reconocida' (the replies
 * screen), with the count of each kind, the polls of the page's rows (so an operator can pick
 * an option) and their devices' aliases. */
export async function bandeja(
  ctx: CtxRespuestas,
  limit: number,
  offset: number,
  noReconocidas = false,
) {
  const k = ctx.db.kysely;
  const deBandeja = <Q extends ReturnType<typeof filasRespuesta>>(q: Q) =>
    noReconocidas
      ? q.where((eb) =>
          eb.or([
            eb.and([eb('r.id_ejercicio', 'is', null), eb('r.clasificacion', 'is not', null)]),
            eb('r.clasificacion', '=', 'no_reconocida'),
          ]),
        )
      : q.where('r.id_ejercicio', 'is', null).where('r.clasificacion', 'is not', null);
  const [filas, total] = await Promise.all([
    deBandeja(filasRespuesta(k))
      .orderBy('r.fecha_recibida', 'desc')
      .orderBy('r.id_respuesta', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    k
      .selectFrom('respuestas_recibidas')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id_ejercicio', 'is', null)
      .where('clasificacion', 'is not', null)
      .executeTakeFirstOrThrow(),
  ]);
  const data = filas.map(aFila);
  if (!noReconocidas) return { status: 200 as const, total: Number(total.n), data };
  const conEncuesta = await k
    .selectFrom('respuestas_recibidas')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id_ejercicio', 'is not', null)
    .where('clasificacion', '=', 'no_reconocida')
    .executeTakeFirstOrThrow();
  const ids = [...new Set(data.map((f) => f.id_ejercicio).filter((x): x is number => x !== null))];
  const idsEquipo = [...new Set(data.map((f) => f.id_equipo))];
  const [polls, titulos, equipos] = await Promise.all([
    encuestasDe(k, ids),
    ids.length
      ? k
          .selectFrom('ejercicios')
          .select(['id_ejercicio', 'titulo'])
          .where('id_ejercicio', 'in', ids)
          .execute()
      : [],
    idsEquipo.length
      ? k
          .selectFrom('equipos')
          .select(['id_equipo', 'alias'])
          .where('id_equipo', 'in', idsEquipo)
          .execute()
      : [],
  ]);
  return {
    status: 200 as const,
    total: Number(total.n) + Number(conEncuesta.n),
    data,
    sin_encuesta: Number(total.n),
    no_reconocidas: Number(conEncuesta.n),
    encuestas: titulos.map((t) => ({
      id_ejercicio: t.id_ejercicio,
      ejercicio: t.titulo,
      opciones: (polls.get(t.id_ejercicio)?.opciones ?? []).map((o) => ({
        digito: o.digito,
        texto: o.texto,
      })),
    })),
    equipos: equipos.map((e) => ({ id_equipo: e.id_equipo, alias: e.alias })),
  };
}

// ---------------------------------------------------------------- cases

const ESTADOS_CASO = ['abierto', 'atendiendo', 'atendido'] as const;

/** Cases with the person's name, phone, state, option and reply. */
function selectCasos(k: K) {
  return k
    .selectFrom('casos as c')
    .innerJoin('ejercicio_detalle as d', 'd.id_detalle', 'c.id_detalle')
    .leftJoin('estados as s', 's.id_estado', 'd.id_estado')
    .leftJoin('respuestas_recibidas as r', 'r.id_respuesta', 'c.id_respuesta')
    .leftJoin('encuestas_ejercicio as p', 'p.id_ejercicio', 'c.id_ejercicio')
    .select([
      'c.id_caso',
      'c.id_ejercicio',
      'c.id_detalle',
      'c.id_respuesta',
      'c.digito',
      'c.estado as estado_caso',
      'c.tomado_usuario',
      'c.cerrado_usuario',
      'c.nota',
      'c.abierto',
      'c.tomado',
      'c.cerrado',
      'd.nombre',
      'd.telefono',
      'd.id_telefono',
      's.estado',
      'r.texto',
      'r.fecha_recibida',
      'p.opciones',
    ]);
}

type FilaCasoBd = Awaited<ReturnType<ReturnType<typeof selectCasos>['execute']>>[number];

/** Cases as the wire's rows, with each person's categories. */
async function aCasos(k: K, filas: readonly FilaCasoBd[]): Promise<CasoFila[]> {
  const ids = [...new Set(filas.map((f) => f.id_telefono).filter((x): x is number => x !== null))];
  const cats = ids.length
    ? await k
        .selectFrom('telefono_categoria as tc')
        .innerJoin('categorias as g', 'g.id_categoria', 'tc.id_categoria')
        .select(['tc.id_telefono', 'g.categoria'])
        .where('tc.id_telefono', 'in', ids)
        .orderBy('g.categoria')
        .execute()
    : [];
  const catsDe = new Map<number, string[]>();
  for (const c of cats)
    catsDe.set(c.id_telefono, [...(catsDe.get(c.id_telefono) ?? []), c.categoria]);
  return filas.map((f) => {
    const estado = (ESTADOS_CASO as readonly string[]).includes(f.estado_caso)
      ? (f.estado_caso as CasoFila['estado_caso'])
      : 'abierto';
    const opciones = f.opciones ? (JSON.parse(f.opciones) as OpcionEncuesta[]) : [];
    return {
      id_caso: Number(f.id_caso),
      id_ejercicio: f.id_ejercicio,
      id_detalle: Number(f.id_detalle),
      id_respuesta: f.id_respuesta === null ? null : Number(f.id_respuesta),
      nombre: f.nombre,
      telefono: f.telefono,
      estado: f.estado,
      categorias: (f.id_telefono !== null ? (catsDe.get(f.id_telefono) ?? []) : []).join(', '),
      digito: f.digito,
      opcion: opciones.find((o) => o.digito === f.digito)?.texto ?? String(f.digito),
      texto: f.texto,
      fecha: f.fecha_recibida === null ? null : Number(f.fecha_recibida),
      estado_caso: estado,
      etiqueta: etiquetaCaso(estado, f.tomado_usuario),
      tomado_usuario: f.tomado_usuario,
      nota: f.nota,
      abierto: Number(f.abierto),
      tomado: f.tomado === null ? null : Number(f.tomado),
      cerrado: f.cerrado === null ? null : Number(f.cerrado),
    };
  });
}

/** A case's label: 'Abierto', 'Atendiendo: {usuario}' or 'Atendido'. */
export function etiquetaCaso(estado: string, usuario: string | null): string {
  if (estado === 'atendiendo') return msg('casoAtendiendo', { usuario: usuario ?? '' });
  return msg(estado === 'atendido' ? 'casoAtendido' : 'casoAbierto');
}

/** GET /ejercicio/{id}/casos/: the triage queue, pending first, newest first. */
export async function casosDe(ctx: CtxRespuestas, id: number): Promise<CasoFila[]> {
  const k = ctx.db.kysely;
  const filas = await selectCasos(k)
    .where('c.id_ejercicio', '=', id)
    .orderBy(sql`case when c.estado = 'atendido' then 1 else 0 end`)
    .orderBy('c.abierto', 'desc')
    .orderBy('c.id_caso', 'desc')
    .execute();
  return aCasos(k, filas);
}

/** One case as the wire's row, or 404. */
async function caso(k: K, id: number): Promise<CasoFila> {
  const f = await selectCasos(k).where('c.id_caso', '=', id).executeTakeFirst();
  if (!f) throw noEncontrado(`Caso ${id}`);
  return (await aCasos(k, [f]))[0]!;
}

/** The 409 for a case someone else attends or that is closed. */
function ocupado(c: CasoFila) {
  return c.estado_caso === 'atendido'
    ? error(409, 'casoYaAtendido', { usuario: c.tomado_usuario ?? '' })
    : error(409, 'casoAtendiendo', { usuario: c.tomado_usuario ?? '' });
}

/** POST /casos/{id}/tomar/: takes an open case in one UPDATE … WHERE estado = 'abierto', so of
 * two operators at once one takes it and the other gets 409 'Atendiendo: {usuario}'. Taking
 * again a case one attends is a no-op. Audited. */
export async function tomar(ctx: CtxRespuestas, actor: Actor, id: number) {
  const k = ctx.db.kysely;
  const c = await k.transaction().execute(async (trx) => {
    const hecho = await trx
      .updateTable('casos')
      .set({
        estado: 'atendiendo',
        tomado_por: actor.id_usuario,
        tomado_usuario: actor.usuario,
        tomado: Date.now(),
      })
      .where('id_caso', '=', id)
      .where('estado', '=', 'abierto')
      .executeTakeFirst();
    const c = await caso(trx, id);
    if (!Number(hecho.numUpdatedRows)) {
      if (c.estado_caso === 'atendiendo' && c.tomado_usuario === actor.usuario) return c;
      throw ocupado(c);
    }
    await auditar(trx, actor, 'modificar', 'caso', id, { accion: 'tomar' });
    return c;
  });
  ctx.eventos.emit('ejercicio', c.id_ejercicio);
  return c;
}

/** POST /casos/{id}/nota/: writes the note of a case the caller attends (409 otherwise). Audited;
 * the exercise's live dashboard shows it. */
export async function anotar(ctx: CtxRespuestas, actor: Actor, id: number, nota: string) {
  const c = await ctx.db.kysely.transaction().execute(async (trx) => {
    const hecho = await trx
      .updateTable('casos')
      .set({ nota })
      .where('id_caso', '=', id)
      .where('estado', '=', 'atendiendo')
      .where('tomado_por', '=', actor.id_usuario)
      .executeTakeFirst();
    const c = await caso(trx, id);
    if (!Number(hecho.numUpdatedRows)) {
      if (c.estado_caso === 'abierto') throw error(409, 'casoTomeloPrimero');
      throw ocupado(c);
    }
    await auditar(trx, actor, 'modificar', 'caso', id, { accion: 'nota', nota });
    return c;
  });
  ctx.eventos.emit('ejercicio', c.id_ejercicio);
  return c;
}

/** POST /casos/{id}/cerrar/: 'Atendido', for a case still open or one the caller attends (409
 * when another operator attends it or it is closed); an optional last note. Audited. */
export async function cerrar(ctx: CtxRespuestas, actor: Actor, id: number, nota?: string) {
  const c = await ctx.db.kysely.transaction().execute(async (trx) => {
    const ahora = Date.now();
    const hecho = await trx
      .updateTable('casos')
      .set((eb) => ({
        estado: 'atendido',
        cerrado: ahora,
        cerrado_por: actor.id_usuario,
        cerrado_usuario: actor.usuario,
        tomado_por: eb.fn.coalesce('tomado_por', eb.val(actor.id_usuario)),
        tomado_usuario: eb.fn.coalesce('tomado_usuario', eb.val(actor.usuario)),
        tomado: eb.fn.coalesce('tomado', eb.val(ahora)),
        ...(nota !== undefined ? { nota } : {}),
      }))
      .where('id_caso', '=', id)
      .where((eb) =>
        eb.or([
          eb('estado', '=', 'abierto'),
          eb.and([eb('estado', '=', 'atendiendo'), eb('tomado_por', '=', actor.id_usuario)]),
        ]),
      )
      .executeTakeFirst();
    const c = await caso(trx, id);
    if (!Number(hecho.numUpdatedRows)) throw ocupado(c);
    await auditar(trx, actor, 'modificar', 'caso', id, {
      accion: 'cerrar',
      ...(nota !== undefined ? { nota } : {}),
    });
    return c;
  });
  ctx.eventos.emit('ejercicio', c.id_ejercicio);
  return c;
}

/** Labels of a classification for messages ('Respuesta no reconocida', 'Opción de la encuesta'). */
const ETIQUETA: Record<string, ClaveMensaje> = {
  opcion: 'respuestaTipoOpcion',
  baja: 'respuestaTipoBaja',
  alta: 'respuestaTipoAlta',
  no_reconocida: 'respuestaNoReconocida',
};

/**
 * POST /respuestas/{id}/clasificar/: an operator reads an unrecognised reply of a poll as one of
 * its options ('manual'); it then counts like any answer, and opens a case when it becomes the
 * person's current answer and requires attention. 409 for a reply of no poll or already read as
 * something else; 400 naming digito for a digit the poll does not offer. Audited.
 */
export async function clasificarManual(
  ctx: CtxRespuestas,
  actor: Actor,
  id: number,
  digito: number,
): Promise<{ respuesta: RespuestaFila; caso_abierto: boolean }> {
  const k = ctx.db.kysely;
  const r = await k.transaction().execute(async (trx) => {
    const r = await trx
      .selectFrom('respuestas_recibidas')
      .selectAll()
      .where('id_respuesta', '=', id)
      .executeTakeFirst();
    if (!r) throw noEncontrado(`Respuesta ${id}`);
    if (r.id_ejercicio === null || r.id_detalle === null) throw error(409, 'respuestaSinEncuesta');
    const tipo = clasificacionDeTexto(r.clasificacion)?.tipo ?? 'no_reconocida';
    if (r.clasificacion !== 'no_reconocida')
      throw error(409, 'respuestaYaClasificada', { clasificacion: msg(ETIQUETA[tipo]!) });
    const opciones = (await encuestasDe(trx, [r.id_ejercicio])).get(r.id_ejercicio)?.opciones ?? [];
    if (!opciones.some((o) => o.digito === digito))
      throw error(
        400,
        'respuestaDigitoInexistente',
        { digitos: opciones.map((o) => o.digito).join(', ') },
        'digito',
      );
    const hecho = await trx
      .updateTable('respuestas_recibidas')
      .set({ clasificacion: clasificacionATexto({ tipo: 'opcion', digito, como: 'manual' }) })
      .where('id_respuesta', '=', id)
      .where('clasificacion', '=', 'no_reconocida')
      .executeTakeFirst();
    if (!Number(hecho.numUpdatedRows))
      throw error(409, 'respuestaYaClasificada', { clasificacion: msg('respuestaTipoOpcion') });
    const id_caso = await casoPorRespuesta(
      trx,
      opciones,
      {
        id_ejercicio: r.id_ejercicio,
        id_detalle: Number(r.id_detalle),
        id_respuesta: id,
        recibida: Number(r.fecha_recibida),
      },
      digito,
      actor,
    );
    // The option's acknowledgement, exactly as the automatic matching queues it (once per person
    // and exercise; the dispatcher's sender sends it and counts its parts).
    const acuse = await encolarAcuse(trx, {
      id_respuesta: id,
      id_equipo: r.id_equipo,
      canal: r.canal,
      telefono: r.telefono,
      id_ejercicio: r.id_ejercicio,
      id_detalle: Number(r.id_detalle),
      opcion: opciones.find((o) => o.digito === digito),
      recibida: Number(r.fecha_recibida),
    });
    await auditar(trx, actor, 'modificar', 'respuesta', id, {
      accion: 'clasificar',
      digito,
      ...(id_caso !== null ? { id_caso } : {}),
      ...(acuse ? { acuse: true } : {}),
    });
    const fila = await filasRespuesta(trx)
      .where('r.id_respuesta', '=', id)
      .executeTakeFirstOrThrow();
    return { respuesta: aFila(fila), caso_abierto: id_caso !== null };
  });
  ctx.eventos.emit('ejercicio', r.respuesta.id_ejercicio!);
  return r;
}

/** Cases not yet attended, across exercises (the general dashboard). */
export async function casosPendientes(k: K) {
  const filas = await k
    .selectFrom('casos as c')
    .innerJoin('ejercicios as e', 'e.id_ejercicio', 'c.id_ejercicio')
    .select(['c.id_ejercicio', 'e.titulo', (eb) => eb.fn.countAll<number>().as('n')])
    .where('c.estado', '<>', 'atendido')
    .groupBy(['c.id_ejercicio', 'e.titulo'])
    .orderBy('c.id_ejercicio')
    .execute();
  return filas.map((f) => ({
    id_ejercicio: f.id_ejercicio,
    ejercicio: f.titulo,
    abiertos: Number(f.n),
  }));
}

/** Most pending cases the exercise dashboard carries (the whole queue: GET /ejercicio/{id}/casos/). */
export const CASOS_TABLERO = 50;

/** The poll's part of the exercise dashboard (issue 46.3): counts per option, unanswered,
 * unrecognised, the pending cases newest first, and until when the poll takes answers (its end
 * plus the window: the live stream keeps recomputing until then). Null without a poll. */
export async function resumenTablero(
  ctx: CtxRespuestas,
  e: { id_ejercicio: number; terminado: number | null },
  ahora = Date.now(),
): Promise<ResumenEncuestaTablero | null> {
  const k = ctx.db.kysely;
  const id = e.id_ejercicio;
  const encuesta = (await encuestasDe(k, [id])).get(id);
  if (!encuesta) return null;
  const [r, pendientes] = await Promise.all([
    conteosEncuesta(k, id, encuesta.opciones),
    selectCasos(k)
      .where('c.id_ejercicio', '=', id)
      .where('c.estado', '<>', 'atendido')
      .orderBy('c.abierto', 'desc')
      .orderBy('c.id_caso', 'desc')
      .limit(CASOS_TABLERO)
      .execute(),
  ]);
  return {
    alcanzados: r.alcanzados,
    respondieron: r.respondieron,
    sin_respuesta: r.sin_respuesta,
    opciones: r.opciones,
    no_reconocidas: r.no_reconocidas,
    casos_abiertos: r.casos_abiertos,
    casos: await aCasos(k, pendientes),
    abierta_hasta: (e.terminado ?? ahora) + ventanaEncuestaMs(),
  };
}
