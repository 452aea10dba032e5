import {
  AUDITORIA_TABLERO,
  curvaAlcance,
  FALLOS_TABLERO,
  hitosAlcance,
  tasaReciente,
  tiempoRestante,
  VENTANA_TASA_MS,
  type SaludEquipo,
  type TableroEjercicio,
  type TableroGeneral,
} from '@pregon/contract/api/tableros';
import { desfaseZona, hoyEn, nombreZona } from '@pregon/contract/rules/zona-horaria';
import { sql } from 'kysely';
import type { FilaReporte3 } from '@pregon/contract/api/reportes';
import { TIPO_WHATSAPP, tipoPorId } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { conteoSemaforo, LUZ_RESULTADO, resultadoDe } from '@pregon/contract/rules/alcance';
import { canalDeRespaldo, type CanalRespaldo } from '@pregon/contract/rules/respaldo';
import {
  esperaVentana,
  textoEsperaVentana,
  zonasEnEspera,
  ventanaDe,
  zonaDeEstado,
} from '@pregon/contract/rules/ventanas';
import type { Contexto } from '../contexto.ts';
import { instantanea } from '@pregon/db/instantanea';
import * as repo from '../repositories/ejercicios.ts';
import * as repoQuiz from '../repositories/quiz.ts';
import * as repoReportes from '../repositories/reportes.ts';
import * as repoTableros from '../repositories/tableros.ts';
import * as repoTickets from '../repositories/tickets-vivo.ts';
import { ejercicioOError, filaLista, idsCategorias } from './ejercicios.ts';
import { agruparDesgloses, filasReporte3, limiteLlamada, resultadoFila } from './reportes.ts';
import { casosPendientes, resumenTablero } from './respuestas.ts';

/** What the dashboards need of the context. */
export type CtxTableros = Pick<Contexto, 'db' | 'eventos' | 'config'>;

/** Spends a live stream's ticket: true the first time on any api process, false when it was used
 * before (issue 49.4). */
export const usarTicket = (ctx: Pick<Contexto, 'db'>, jti: string, expira: number) =>
  repoTickets.usarTicket(ctx.db.kysely, jti, expira);
/** Forgets the spent tickets that expired before `antes` (epoch ms). */
export const purgarTickets = (ctx: Pick<Contexto, 'db'>, antes: number) =>
  repoTickets.purgarTickets(ctx.db.kysely, antes);

const HORA_MS = 3_600_000;

/** Offset (ms) of a time zone's wall clock from UTC (the contract's one clock). */
export { desfaseZona, hoyEn };

/** Epoch ms of a wall-clock fecha (YYYY-MM-DD) and hora (HH:mm[:ss]) given the zone's offset. */
export function epochDe(fecha: string, hora: string, desfase: number): number {
  const [a, m, d] = fecha.split('-').map(Number);
  const [h, mi, s] = hora.split(':').map(Number);
  return Date.UTC(a!, m! - 1, d!, h!, mi!, s ?? 0) - desfase;
}

/** Per-second processed/reached rows as epoch-ms points. */
function puntosPorSegundo(
  ctx: CtxTableros,
  filas: readonly {
    fecha_envio: string;
    hora_envio: string;
    procesados: number;
    alcanzados: number;
  }[],
) {
  const desfase = desfaseZona(ctx.config.tz, Date.now());
  return filas.map((f) => ({
    t: epochDe(f.fecha_envio, f.hora_envio, desfase),
    procesados: Number(f.procesados),
    alcanzados: Number(f.alcanzados ?? 0),
  }));
}

/** Per-second processed/reached counts of an exercise, as epoch-ms points. */
export async function segundosDe(ctx: CtxTableros, id: number) {
  return puntosPorSegundo(ctx, await repoTableros.porSegundo(ctx.db.kysely, id));
}

/** GET /tablero/ejercicio/{id}/: the whole exercise dashboard. Every figure that moves while the
 * drill runs (semáforo, breakdowns, curve, failures, answers) is read from one snapshot of the
 * database (db/instantanea.ts), and the semáforo is the sum of the 'Por estado' rows, so no two
 * panels of one update disagree (issue 23.6). */
export async function tableroEjercicio(
  ctx: CtxTableros,
  id: number,
  soloLectura: boolean,
): Promise<TableroEjercicio> {
  const k = ctx.db.kysely;
  const e = await ejercicioOError(k, ctx, id);
  const activo = e.en_proceso === 1 && e.en_pausa === 0 && e.completado === 0;
  const esCuestionario = tipoPorId(e.id_tipo_ejercicio)?.clave === 'cuestionario';
  const categorias = idsCategorias(e.categorias);
  const c = esCuestionario ? await repoQuiz.cuestionarioDeEjercicio(k, id) : undefined;
  const [preguntas, respuestas, parada] = await Promise.all([
    c ? repoQuiz.preguntasDe(k, c.id_cuestionario) : [],
    c ? repoQuiz.respuestasDe(k, c.id_cuestionario) : [],
    e.detenido === 1 ? repoTableros.detencion(k, id) : undefined,
  ]);
  const [porEstado, porCategoria, porSegundo, fallos, recibidas, digitos, completos] =
    await instantanea(ctx.db, [
      repoReportes.consultaPorEstado(k, id).compile(),
      categorias.length
        ? repoReportes.consultaPorCategoria(k, id, categorias).compile()
        : sql<never>`select 1 where 1 = 0`.compile(k),
      repoTableros.consultaPorSegundo(id).compile(k),
      repoTableros.consultaUltimosFallos(k, id, FALLOS_TABLERO).compile(),
      repoReportes.consultaRecibidas(k, id).compile(),
      repoQuiz.consultaDigitos(k, id).compile(),
      repoTableros.consultaRespondieronTodo(id, Math.max(1, preguntas.length)).compile(k),
    ] as const);
  const semaforo = conteoSemaforo(porEstado);
  const grupos = agruparDesgloses(porEstado, porCategoria);
  const segundos = puntosPorSegundo(ctx, porSegundo);
  const curva = curvaAlcance(segundos);
  const ahora = Date.now();
  const tasa = activo ? tasaReciente(segundos, ahora) : 0;
  const pendientes = semaforo.porEstatus.pendiente + semaforo.porEstatus.en_curso;
  const espera = esperaVentanaDe(ctx, e, porEstado, ahora);
  const encuesta = await resumenTablero(ctx, e, ahora);
  return {
    status: 200,
    generado: ahora,
    encuesta,
    ejercicio: filaLista(
      e,
      soloLectura,
      ventanaDe(e) ? { esperan: espera.esperan, abre: espera.abre, ultima: espera.ultima } : null,
    ),
    semaforo,
    recibidas: Number(recibidas[0]?.n ?? 0),
    ...grupos,
    curva,
    // Every recipient counts, cancelled ones too: a stopped drill never reaches 100 %.
    hitos: hitosAlcance(curva, semaforo.total),
    tasa,
    restanteMs: activo
      ? tiempoRestante(pendientes, tasa, { esperan: espera.esperan, ultima: espera.ultima, ahora })
      : null,
    esperaVentana: {
      esperan: espera.esperan,
      abre: espera.abre,
      texto: espera.texto,
      // The recipients' zones, named where the window is (issue 48.5); absent while none waits.
      ...(espera.zonas.length ? { zonas: espera.zonas.map((z) => nombreZona(z, ahora)) } : {}),
    },
    fallos: fallos.map((f) => {
      const r = resultadoDe(f.estatus, f.alcance);
      return {
        telefono: f.telefono,
        nombre: f.nombre ?? '',
        estatus: f.estatus,
        resultado: resultadoFila(f, preguntas.length, limiteLlamada(e)).texto,
        luz: LUZ_RESULTADO[r] ?? 'rojo',
        motivo: f.motivo ?? '',
        fecha_envio: f.fecha_envio ?? '',
        hora_envio: f.hora_envio ?? '',
      };
    }),
    cuestionario: esCuestionario
      ? cuestionarioDe(filasReporte3(preguntas, respuestas, digitos), Number(completos[0]?.n ?? 0))
      : null,
    detencion: parada
      ? { usuario: parada.usuario || msg('sistema'), fecha: Number(parada.fecha) }
      : null,
    // Issue 25.1: delivered counts every 'entregado' row, read or not; read is outcome 'leido'.
    mensajes:
      e.id_tipo_ejercicio === TIPO_WHATSAPP
        ? { entregados: semaforo.porEstatus.entregado, leidos: semaforo.porResultado.leido ?? 0 }
        : null,
    respaldo: await respaldoTablero(ctx, id, canalDeRespaldo(e.respaldo_tipo)),
  };
}

/** Issue 25.2: the fallback of a drill as the dashboard counts it ('Respaldo por SMS: 120
 * enviados, 98 entregados', or 'por WhatsApp' with ', 40 leídos'): sent = left for the gateway
 * (their attempt counted), whatever came after; delivered includes the read; null without a
 * fallback. */
async function respaldoTablero(ctx: CtxTableros, id: number, canal: CanalRespaldo | null) {
  if (canal === null) return null;
  const filas = await repoTableros.conteoRespaldo(ctx.db.kysely, id);
  const de = (...estatus: string[]) =>
    filas.filter((f) => estatus.includes(f.estatus)).reduce((a, f) => a + Number(f.total), 0);
  return {
    canal,
    enviados: filas
      .filter((f) => f.estatus !== 'pendiente' && f.estatus !== 'en_curso')
      .reduce((a, f) => a + Number(f.salieron), 0),
    entregados: de('entregado'),
    leidos: filas.reduce((a, f) => a + Number(f.leidos), 0),
    fallidos: de('fallido', 'invalido'),
    pendientes: de('pendiente', 'en_curso'),
  };
}

/** Pending recipients outside the exercise's calling window now, from the 'Por estado' rows and
 * each state's zone (the catalogue's override, else the contract's table, else the product's). */
function esperaVentanaDe(
  ctx: CtxTableros,
  e: { ventana_inicio: string | null; ventana_fin: string | null; completado: number },
  porEstado: readonly {
    estado: string | null;
    zona_horaria: string | null;
    estatus: string;
    total: number;
  }[],
  ahora: number,
) {
  const ventana = e.completado === 1 ? null : ventanaDe(e);
  const pendientes = porEstado
    .filter((f) => f.estatus === 'pendiente')
    .map((f) => ({
      zona: zonaDeEstado({ estado: f.estado ?? '', zona_horaria: f.zona_horaria }, ctx.config.tz),
      pendientes: Number(f.total),
    }));
  const espera = esperaVentana(ventana, ahora, pendientes);
  return {
    ...espera,
    texto: textoEsperaVentana(espera, ahora),
    zonas: zonasEnEspera(ventana, ahora, pendientes),
  };
}

/** The quiz part of the dashboard: reporte3 grouped per question, and who answered everything. */
function cuestionarioDe(filas: readonly FilaReporte3[], completos: number) {
  const preguntas: NonNullable<TableroEjercicio['cuestionario']>['preguntas'] = [];
  for (const f of filas) {
    if (f.tipo === 'pregunta')
      preguntas.push({ numero: f.orden, reactivo: f.reactivo, total: f.total, respuestas: [] });
    else
      preguntas[preguntas.length - 1]?.respuestas.push({
        digito: f.digito ?? 0,
        respuesta: f.reactivo,
        total: f.total,
      });
  }
  return { preguntas, completos };
}

/** The later of a device's recorded last contact and its last accepted send (epoch ms). */
const ultimoContacto = (a: number | null, b: number | null | undefined) => {
  const xs = [a, b].filter((x): x is number => x !== null && x !== undefined).map(Number);
  return xs.length ? Math.max(...xs) : null;
};

/** GET /tablero/general/: running exercises, today's totals, device health and audit events. */
export async function tableroGeneral(ctx: CtxTableros): Promise<TableroGeneral> {
  const k = ctx.db.kysely;
  const ahora = Date.now();
  const inicioDia = ahora - 24 * HORA_MS;
  const [activos, delDia, deLaHora, equipos, pausas, auditoria, casos] = await Promise.all([
    repoTableros.ejerciciosActivos(k),
    repoTableros.ejerciciosConActividad(k, inicioDia),
    repoTableros.ejerciciosConActividad(k, ahora - HORA_MS),
    repoTableros.equiposSalud(k),
    repoTableros.pausasAutomaticas(k),
    repoTableros.auditoriaReciente(k, AUDITORIA_TABLERO),
    casosPendientes(k),
  ]);
  const [hoy, actividad, conteos] = await Promise.all([
    repoTableros.totalesDelDia(k, delDia, hoyEn(ctx.config.tz, ahora)),
    repoTableros.actividadEquipos(k, deLaHora, ahora - HORA_MS),
    Promise.all(
      activos.map(async (a) => {
        const desde = Math.max(ahora - VENTANA_TASA_MS, a.iniciado ?? ahora);
        const [estatus, recientes] = await Promise.all([
          repo.conteoPorEstatus(k, a.id_ejercicio),
          repoTableros.procesadosDesde(k, a.id_ejercicio, desde),
        ]);
        const segundos = Math.max(1, (ahora - desde) / 1000);
        return { s: conteoSemaforo(estatus), tasa: Math.round((recientes / segundos) * 10) / 10 };
      }),
    ),
  ]);
  const totales = new Map(actividad.totales.map((t) => [t.id_equipo, t]));
  const ultimos = new Map(actividad.ultimos.map((u) => [u.id_equipo, u]));
  const pausaDe = new Map(pausas.map((p) => [p.id_equipo, p.motivo_pausa]));
  // A running exercise waiting for its gateway ('En espera: sin conexión…') marks the device.
  const esperaDe = new Map(
    activos.filter((a) => a.en_pausa !== 1 && a.en_espera).map((a) => [a.id_equipo, a.en_espera]),
  );
  return {
    status: 200,
    generado: ahora,
    activos: activos.map((a, i) => {
      const { s, tasa } = conteos[i]!;
      return {
        id_ejercicio: a.id_ejercicio,
        ejercicio: a.titulo,
        tipo_ejercicio: tipoPorId(a.id_tipo_ejercicio)?.etiqueta ?? '',
        alias: a.alias,
        en_pausa: a.en_pausa === 1,
        motivo_pausa: a.motivo_pausa,
        en_espera: a.en_pausa === 1 ? null : a.en_espera,
        total: s.total,
        hechos: s.total - s.porEstatus.pendiente - s.porEstatus.en_curso,
        alcanzados: s.verde,
        tasa: a.en_pausa === 1 ? 0 : tasa,
      };
    }),
    hoy: hoy.map((h) => ({
      tipo_ejercicio: tipoPorId(h.id_tipo_ejercicio)?.etiqueta ?? '',
      estatus: h.estatus,
      total: Number(h.total),
    })),
    equipos: equipos.map((q): SaludEquipo => {
      const t = totales.get(q.id_equipo);
      const u = ultimos.get(q.id_equipo);
      const ultimoFallo =
        u && (u.estatus === 'fallido' || (u.estatus === 'pendiente' && u.motivo !== null));
      const pausa = esperaDe.get(q.id_equipo) ?? pausaDe.get(q.id_equipo) ?? null;
      return {
        id_equipo: q.id_equipo,
        alias: q.alias,
        protocolo: q.protocolo,
        activo: q.activo === 1,
        // The last accepted send counts as contact too (the gateway answered).
        ultimo_contacto: ultimoContacto(q.ultimo_contacto, t?.ultimo_envio),
        envios: Number(t?.envios ?? 0),
        errores: Number(t?.errores ?? 0),
        falla: Boolean(ultimoFallo) || pausa !== null,
        ultimo_error: (ultimoFallo ? u.motivo : null) ?? pausa,
      };
    }),
    auditoria: auditoria.map((a) => ({
      fecha: Number(a.fecha),
      usuario: a.usuario ?? '',
      accion: a.accion,
      entidad: a.entidad,
      id_entidad: a.id_entidad ?? '',
      titulo: a.titulo ?? '',
    })),
    casos_abiertos: casos,
  };
}
