import type { Db } from '@pregon/db/database';
import { canalDeBaja } from '@pregon/contract/rules/bajas';
import { registrarAlta, registrarBaja, type CambioBaja } from './bajas.ts';
import { procesarPendientes, type CambioPorRespuesta, type OpcionesProceso } from './respuestas.ts';
import {
  encolarAcuse,
  encolarSuelto,
  guardarRespuesta,
  type Eventos,
  type RespuestaEntrante,
} from '@pregon/despacho';
import { msg } from '@pregon/contract/messages';
import type { Kysely } from 'kysely';
import type { DB } from '@pregon/db/schema';

// Issue 46.2: a reply is matched to its poll right after it is stored (respuestas.ts). The
// dispatcher's store keeps the reply first and asks its host to match it (despacho.ts); matching runs after, outside the storing transaction, so a
// failure to match never makes the gateway resend a reply already kept: the sweep below (every
// minute, with the long replies' parts) matches whatever is still unread and reports its error.

/** A 'BAJA'/'ALTA' reply as the opt-out list records it (a channel without a list: none). */
const cambio = (r: CambioPorRespuesta): CambioBaja | null =>
  canalDeBaja(r.canal)
    ? {
        telefono: r.telefono,
        canal: r.canal,
        origen: 'respuesta',
        idRespuesta: r.id_respuesta,
        texto: r.texto,
        // Stored with the reply: a phone in the directory then (null: looked up again).
        ...(r.id_telefono !== null ? { idTelefono: r.id_telefono } : {}),
      }
    : null;

/** Issue 46.4: a BAJA or ALTA that changed the list is confirmed to the phone, once per reply
 * (despacho/sueltos.ts sends it through the device the reply came in on). */
async function confirmar(
  k: Kysely<DB>,
  r: CambioPorRespuesta,
  res: { confirmar: boolean } | null,
  motivo: 'baja' | 'alta',
) {
  if (!res?.confirmar) return res;
  // Through the device the reply came in on (the matching read its row).
  await encolarSuelto(k, {
    id_equipo: r.id_equipo,
    canal: r.canal,
    telefono: r.telefono,
    texto: msg(motivo === 'baja' ? 'confirmacionBaja' : 'confirmacionAlta'),
    motivo,
    id_respuesta: r.id_respuesta,
    recibida: r.fecha_recibida,
  });
  return res;
}

/** How the dispatcher matches replies: the product's time zone comes from TZ, as the api's; a
 * 'BAJA' or 'ALTA' goes to the opt-out list (services/bajas.ts) and its confirmation, and an
 * option's acknowledgement, to the dispatcher's one-off queue, in the matching's transaction. */
const OPCIONES: OpcionesProceso = {
  bajas: {
    baja: async (k, r) => {
      const c = cambio(r);
      return confirmar(k, r, c ? await registrarBaja(k, c) : null, 'baja');
    },
    alta: async (k, r) => {
      const c = cambio(r);
      return confirmar(k, r, c ? await registrarAlta(k, c) : null, 'alta');
    },
  },
  acuse: encolarAcuse,
};

/** Issue 46.3: the event buses told when a matching pass of a database reads replies for an
 * exercise (each process's: the dispatcher's, which its PostgreSQL bridge carries to the api's
 * live dashboards over NOTIFY, and the api's own, for the replies its webhooks take). */
const avisados = new WeakMap<Db, Set<Eventos>>();

/** Makes every matching pass over `db` in this process emit 'ejercicio' on `eventos` for each
 * exercise whose replies it read (answers counted, cases opened), so the exercise's dashboard
 * and /index_dash's open cases move without a tick, after the drill ended too. Returns the
 * function that stops it. */
export function avisarLeidas(db: Db, eventos: Eventos): () => void {
  let s = avisados.get(db);
  if (!s) avisados.set(db, (s = new Set()));
  s.add(eventos);
  return () => void avisados.get(db)?.delete(eventos);
}

/** Issue 46.5: who is told when a matching pass of a database in this process wrote readings
 * (the dispatcher's one-off sender, which may now have an acknowledgement or a confirmation to
 * send: dispatcher/index.ts). */
const escritas = new WeakMap<Db, Set<() => void>>();

/** Calls `fn` after each matching batch over `db` in this process that wrote a reading. Returns
 * the function that stops it. */
export function avisarEscritas(db: Db, fn: () => void): () => void {
  let s = escritas.get(db);
  if (!s) escritas.set(db, (s = new Set()));
  s.add(fn);
  return () => void escritas.get(db)?.delete(fn);
}

/** How long the exercises a database's matching read are gathered before their events go out:
 * at 3,000 replies a second the passes end many times a second, and each 'ejercicio' event wakes
 * the dispatcher's loop (and, over NOTIFY, every api): a few a second are enough for the
 * dashboards' 2 s. */
export const AGRUPAR_LEIDAS_MS = 250;
const porAvisar = new WeakMap<Db, { ids: Set<number>; t: NodeJS.Timeout | undefined }>();

/** The matching's options for a database: OPCIONES, and what it read told to avisarLeidas's
 * buses, gathered for AGRUPAR_LEIDAS_MS. */
function opcionesPara(db: Db): OpcionesProceso {
  return {
    ...OPCIONES,
    alEscribir: () => {
      for (const fn of escritas.get(db) ?? []) fn();
    },
    alLeer: (ids) => {
      let p = porAvisar.get(db);
      if (!p) porAvisar.set(db, (p = { ids: new Set(), t: undefined }));
      const pend = p;
      for (const id of ids) pend.ids.add(id);
      pend.t ??= setTimeout(() => {
        pend.t = undefined;
        const lista = [...pend.ids];
        pend.ids.clear();
        for (const e of avisados.get(db) ?? []) for (const id of lista) e.emit('ejercicio', id);
      }, AGRUPAR_LEIDAS_MS);
    },
  };
}

/** The matching passes of a database in this process: those running, the one queued, and when
 * the last one started. */
type Turno = { activas: Set<Promise<number>>; proxima: Promise<number> | null; ultimo: number };
const turnos = new WeakMap<Db, Turno>();

/** Passes one process runs at once: while one writes its batch, the next takes the replies
 * stored meanwhile (PostgreSQL: FOR UPDATE SKIP LOCKED keeps their batches apart; SQLite runs
 * them one after the other). */
const PASADAS = 2;

/** Least time between the starts of two passes (ms). A pass costs about ten statements whatever
 * its size (take, poll sends, readings, earlier answers, cases, webhooks, BEGIN/COMMIT): at 1,700
 * replies a second, passes started back to back read about 110 replies each, and those statements
 * were a fifth of the intake's CPU (issue 46.5). Spaced, each reads a few hundred; a reply is read
 * at most this much later, far inside the dashboards' 2 s. A reply after a quiet spell is read at
 * once. */
export const INTERVALO_PASADAS_MS = 150;

/**
 * Matches every unread reply (procesarPendientes, in batches) in a pass that starts after this
 * call, so it reads every reply stored before it: a new one when fewer than PASADAS run and the
 * last started INTERVALO_PASADAS_MS ago, else the one queued to start when those allow (every
 * call meanwhile joins it). At 1,700 replies a second the intake's calls share a few passes of
 * many replies each, instead of one pass per reply racing the others for the same rows.
 */
export function leerPendientes(db: Db): Promise<number> {
  let t = turnos.get(db);
  if (!t) turnos.set(db, (t = { activas: new Set(), proxima: null, ultimo: 0 }));
  const turno = t;
  const correr = () => {
    turno.ultimo = Date.now();
    const p = procesarPendientes(db, opcionesPara(db));
    turno.activas.add(p);
    const fin = () => turno.activas.delete(p);
    p.then(fin, fin);
    return p;
  };
  if (turno.proxima) return turno.proxima;
  const resta = () => turno.ultimo + INTERVALO_PASADAS_MS - Date.now();
  if (turno.activas.size < PASADAS && resta() <= 0) return correr();
  const p = (async () => {
    if (turno.activas.size >= PASADAS)
      await Promise.race([...turno.activas]).catch(() => undefined);
    const r = resta();
    if (r > 0) await new Promise((listo) => setTimeout(listo, r));
    turno.proxima = null;
    return correr();
  })();
  turno.proxima = p;
  return p;
}

/** Waits for every matching pass running or queued, then runs one more: every reply stored
 * before the call is matched when it resolves (a pass that skipped a row another held has ended
 * too). For tests, and for whoever needs the matching of what it stored (the store's intake does
 * not wait). */
export async function leerTodo(db: Db): Promise<void> {
  const t = turnos.get(db);
  if (t) await Promise.allSettled([...t.activas, ...(t.proxima ? [t.proxima] : [])]);
  await leerPendientes(db);
}

/** Stores a reply (store-respuestas.ts guardarRespuesta) and, when it is new, waits for a
 * matching pass that reads it (leerPendientes); a matching failure is left to the sweep (the
 * reply is stored). */
export async function guardarYLeer(db: Db, r: RespuestaEntrante, ahora: number) {
  const res = await guardarRespuesta(db, r, ahora);
  if (res === 'nueva') await leerPendientes(db).catch(() => undefined);
  return res;
}
