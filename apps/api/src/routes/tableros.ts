import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  reporteXlsx,
  tableroEjercicio,
  tableroGeneral,
  ticketVivo,
  vivoEjercicio,
  vivoGeneral,
  type TableroEjercicio,
  type TableroGeneral,
} from '@pregon/contract/api/tableros';
import { tableroCadena } from '@pregon/contract/api/cadena';
import { ROLES_OPERACION } from '@pregon/contract/constants';
import { accionesFila } from '@pregon/contract/rules/row-actions';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import { error, sesionExpirada } from '@pregon/servidor/http/errores';
import { ejercicioOError } from '../services/ejercicios.ts';
import { contentDisposition } from '../services/reportes-csv.ts';
import * as servicio from '../services/tableros.ts';
import { informeXlsx } from '../services/informe-xlsx.ts';
import { cadenaDe } from '../services/cadena.ts';
import { CentroVivo, TEMA_GENERAL, temaEjercicio, type Fuente } from '../vivo/centro.ts';
import { claveFlujo, firmarTicket, verificarTicket } from '../vivo/ticket.ts';
import { VigiaSesiones } from '../vivo/vigia.ts';

const soloLecturaDe = (roles: readonly string[]) =>
  !roles.some((r) => (ROLES_OPERACION as readonly string[]).includes(r));

/** Keep-alive comment period of an open stream (ms): proxies drop silent connections. */
const LATIDO_FLUJO_MS = 15_000;

/**
 * Writes a Server-Sent Events response: `event: tablero` per dashboard, a comment every 15 s,
 * closed at the session's end, when `vigilar`'s watch finds the session ended, or when the server
 * closes. A slow client gets only the newest dashboard once its socket drains (nothing piles up
 * in memory).
 */
function abrirFlujo(
  req: FastifyRequest,
  reply: FastifyReply,
  abiertos: Set<() => void>,
  finSesion: number,
  vigilar: (cerrar: () => void) => () => void,
  suscribir: (enviar: (datos: string) => void) => () => void,
  liberar: () => void,
) {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write('retry: 2000\n\n');
  let pendiente: string | undefined;
  const enviar = (datos: string) => {
    if (res.writableNeedDrain) pendiente = datos;
    else res.write(`event: tablero\ndata: ${datos}\n\n`);
  };
  res.on('drain', () => {
    if (pendiente === undefined) return;
    const d = pendiente;
    pendiente = undefined;
    enviar(d);
  });
  const cancelar = suscribir(enviar);
  const latido = setInterval(() => res.write(': latido\n\n'), LATIDO_FLUJO_MS);
  const cerrar = () => res.end();
  const fin = setTimeout(cerrar, Math.min(2 ** 31 - 1, Math.max(0, finSesion * 1000 - Date.now())));
  abiertos.add(cerrar);
  const dejarDeVigilar = vigilar(cerrar);
  let cerrado = false;
  const alCerrar = () => {
    if (cerrado) return;
    cerrado = true;
    liberar();
    dejarDeVigilar();
    cancelar();
    clearInterval(latido);
    clearTimeout(fin);
    abiertos.delete(cerrar);
  };
  req.raw.on('close', alCerrar);
  // A client gone while the ticket was checked: its 'close' came before anyone listened.
  if (req.raw.socket?.destroyed) alCerrar();
}

/** Live dashboards: the two dashboards, their streams with tickets, and the after-action .xlsx. */
export async function rutasTableros(app: FastifyInstance, ctx: Contexto) {
  const centro = new CentroVivo(ctx.eventos, (err) => app.log.error({ err }, 'tablero en vivo'));
  const abiertos = new Set<() => void>();
  const vigia = new VigiaSesiones(
    (sids) => ctx.sesiones.vigentes(sids),
    soloLecturaDe,
    (err) => app.log.warn({ err }, 'revisión de sesiones de los flujos en vivo'),
  );
  app.addHook('preClose', async () => {
    vigia.detener();
    for (const cerrar of [...abiertos]) cerrar();
    centro.cerrar();
  });

  const fuenteEjercicio = (id: number): Fuente<TableroEjercicio> => ({
    calcular: () => servicio.tableroEjercicio(ctx, id, false),
    presentar: (t, soloLectura) =>
      soloLectura
        ? {
            ...t,
            ejercicio: {
              ...t.ejercicio,
              acciones: accionesFila(
                { ...t.ejercicio, id_tipo_ejercicio: t.ejercicio.id_tipo_ejercicio },
                { soloLectura },
              ),
            },
          }
        : t,
    // A poll's answers after the drill (issue 46.2) come with events (the matching emits one per
    // exercise it read replies for: services/leer-respuestas.ts avisarLeidas), not a tick that
    // would count every answer each second for the 72 h of its window (issue 46.5).
    enMarcha: (t) =>
      t.ejercicio.en_proceso === '1' &&
      t.ejercicio.en_pausa === '0' &&
      t.ejercicio.completado === '0',
  });
  const fuenteGeneral: Fuente<TableroGeneral> = {
    calcular: () => servicio.tableroGeneral(ctx),
    presentar: (t) => t,
    enMarcha: (t) => t.activos.some((a) => !a.en_pausa),
  };

  ruta(app, ctx, ticketVivo, async ({ body, sesion }) => {
    if (body.flujo === 'ejercicio') await ejercicioOError(ctx.db.kysely, ctx, body.id_ejercicio);
    return { status: 200 as const, ...(await firmarTicket(ctx.claves.privada, sesion, body)) };
  });

  // Streams open per session on this process (issue 49.4: one ticket opened 3,000): at most
  // VIVO_FLUJOS_POR_SESION, a slot taken before the ticket is spent and given back at the close.
  const porSesion = new Map<string, number>();
  const reservar = (sid: string) => {
    const n = porSesion.get(sid) ?? 0;
    if (n >= ctx.config.vivoFlujosPorSesion)
      throw error(429, 'demasiadosFlujosVivo', { max: ctx.config.vivoFlujosPorSesion });
    porSesion.set(sid, n + 1);
    let libre = false;
    return () => {
      if (libre) return;
      libre = true;
      const m = (porSesion.get(sid) ?? 1) - 1;
      if (m > 0) porSesion.set(sid, m);
      else porSesion.delete(sid);
    };
  };
  // Used tickets are kept until 5 min after they expire (room for the clocks of other api hosts);
  // those are purged once a minute at most.
  let purgado = 0;

  /** The session a stream's ticket was issued for, if it still stands (401 otherwise): its end,
   * the read-only variant its account's current roles call for, how to watch it (`porRol`: the
   * stream's content depends on that variant, so a change of it closes the stream too) and the
   * stream slot it holds (429 past the session's cap). The ticket is spent here: a second use,
   * on this process or another, is refused (401). */
  const sesionDelTicket = async (ticket: string, flujo: string, porRol: boolean) => {
    const t = await verificarTicket(ctx.claves.publica, ticket, flujo);
    const roles = t && (await ctx.sesiones.vigentes([t.sid])).get(t.sid);
    if (!t || !roles) throw sesionExpirada();
    const liberar = reservar(t.sid);
    try {
      if (Date.now() - purgado > 60_000) {
        purgado = Date.now();
        await servicio.purgarTickets(ctx, purgado - 300_000);
      }
      if (!(await servicio.usarTicket(ctx, t.jti, t.exp * 1000)))
        throw error(401, 'ticketVivoUsado', undefined, 'ticket');
    } catch (err) {
      liberar();
      throw err;
    }
    const soloLectura = soloLecturaDe(roles);
    return {
      ses: t.ses,
      soloLectura,
      liberar,
      vigilar: (cerrar: () => void) =>
        vigia.vigilar(t.sid, porRol ? soloLectura : undefined, cerrar),
    };
  };

  ruta(app, ctx, vivoEjercicio, async ({ params, query, req, reply }) => {
    const t = await sesionDelTicket(
      query.ticket,
      claveFlujo({ flujo: 'ejercicio', id_ejercicio: params.id }),
      true,
    );
    await ejercicioOError(ctx.db.kysely, ctx, params.id).catch(
      (err: unknown) => (t.liberar(), Promise.reject(err)),
    );
    abrirFlujo(
      req,
      reply,
      abiertos,
      t.ses,
      t.vigilar,
      (enviar) =>
        centro.suscribir(temaEjercicio(params.id), fuenteEjercicio(params.id), {
          soloLectura: t.soloLectura,
          enviar,
        }),
      t.liberar,
    );
    return reply;
  });

  ruta(app, ctx, vivoGeneral, async ({ query, req, reply }) => {
    const t = await sesionDelTicket(query.ticket, TEMA_GENERAL, false);
    abrirFlujo(
      req,
      reply,
      abiertos,
      t.ses,
      t.vigilar,
      (enviar) => centro.suscribir(TEMA_GENERAL, fuenteGeneral, { soloLectura: true, enviar }),
      t.liberar,
    );
    return reply;
  });

  ruta(app, ctx, tableroEjercicio, async ({ params, sesion }) =>
    servicio.tableroEjercicio(ctx, params.id, soloLecturaDe(sesion.role)),
  );

  ruta(app, ctx, tableroGeneral, async () => servicio.tableroGeneral(ctx));

  // Issue 25.3: the follow-up chain the exercise belongs to (null when it is alone).
  ruta(app, ctx, tableroCadena, async ({ params }) => ({
    status: 200 as const,
    cadena: await cadenaDe(ctx, params.id),
  }));

  ruta(app, ctx, reporteXlsx, async ({ params, reply }) => {
    const { archivo, flujo } = await informeXlsx(ctx, params.id);
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', contentDisposition(archivo))
      .send(flujo);
  });
}
