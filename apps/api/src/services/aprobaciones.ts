import type { z } from 'zod';
import type { Aprobacion, Pendiente, RechazarSchema } from '@pregon/contract/api/aprobaciones';
import { modoDe } from '@pregon/contract/rules/modo';
import { msg } from '@pregon/contract/messages';
import {
  esPropio,
  estadoAprobacion,
  motivoSinAprobacion,
  requiereAprobacion,
} from '@pregon/contract/rules/aprobacion';
import {
  transicion,
  estadoDe,
  type AccionCiclo,
  type CondicionesCiclo,
  type EstadoEjercicio,
  type PasoCiclo,
  type Quien,
} from '@pregon/contract/rules/ciclo-ejercicio';
import { fechaHoraEnZona } from '@pregon/contract/rules/programacion';
import {
  aprobacionExpiraMs,
  emergenciaPermitida,
  umbralAprobacion,
  zonaProducto,
} from '../config.ts';
import { ahora } from '@pregon/db/database';
import { error, HttpError } from '@pregon/servidor/http/errores';
import { auditar } from '../repositories/auditoria.ts';
import * as repo from '../repositories/ejercicios.ts';
import type { Consultor, EjercicioCompleto } from '../repositories/ejercicios.ts';
import {
  ejercicioOError,
  type Actor,
  type ActorConRoles,
  type CtxEjercicios,
} from './ejercicios.ts';
import { ROL_APROBADOR, tipoPorId } from '@pregon/contract/constants';

// Issue 47.2: two people for a real alert. The request's state lives on the exercise (migration
// 0063); the start path (services/ejercicios.ts validarInicio: the web, the SPEC's client and the
// scheduler alike) refuses an exercise that needs approval and lacks it. Every step is audited
// and told to the webhooks ('aprobacion.solicitada', 'aprobacion.aprobada', '...rechazada').

type Fila = Pick<
  EjercicioCompleto,
  | 'modo'
  | 'procedencia'
  | 'creado_por'
  | 'aprobacion_solicitante_id'
  | 'destinatarios'
  | 'aprobacion'
  | 'aprobacion_expira'
  | 'aprobacion_solicitante'
  | 'aprobacion_solicitada'
  | 'aprobacion_resuelve'
  | 'aprobacion_resuelta'
  | 'aprobacion_motivo'
>;

/** The columns that void an exercise's approval: an edit or new recipients (what the approver saw
 * is no longer what would go) ask for it again. */
export const SIN_APROBACION = {
  aprobacion: null,
  aprobacion_solicitante: null,
  aprobacion_solicitante_id: null,
  aprobacion_solicitada: null,
  aprobacion_expira: null,
  aprobacion_resuelve: null,
  aprobacion_resuelta: null,
  aprobacion_motivo: null,
} as const;

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** Where an exercise's approval stands now, as the answers give it. */
export function aprobacionDe(e: Fila, momento = ahora()): Aprobacion {
  return {
    estado: estadoAprobacion(e, momento),
    requiere: requiereAprobacion(e, umbralAprobacion()),
    solicitante: e.aprobacion_solicitante,
    solicitada: num(e.aprobacion_solicitada),
    expira: num(e.aprobacion_expira),
    resuelve: e.aprobacion_resuelve,
    resuelta: num(e.aprobacion_resuelta),
    motivo: e.aprobacion_motivo,
  };
}

/** The list row's approval fields. */
export function aprobacionFila(e: Fila) {
  const a = aprobacionDe(e);
  return { requiere_aprobacion: a.requiere, aprobacion: a.estado, aprobacion_detalle: a };
}

/** True when `quien` may approve or reject it: an approver, a person, neither creator nor asker. */
export function puedeAprobar(
  e: Pick<EjercicioCompleto, 'creado_por' | 'aprobacion_solicitante_id' | 'aprobacion_solicitante'>,
  quien: ActorConRoles,
): boolean {
  return quien.id_usuario > 0 && !!quien.role?.includes(ROL_APROBADOR) && !esPropio(e, quien);
}

/** The exercise's state in its lifecycle (rules/ciclo-ejercicio.ts): its flags and where its
 * approval stands at `momento`. */
export function estadoEjercicio(
  e: Fila &
    Pick<
      EjercicioCompleto,
      'completado' | 'en_proceso' | 'en_pausa' | 'detenido' | 'iniciado' | 'archivado'
    >,
  momento = ahora(),
): EstadoEjercicio {
  const a = aprobacionDe(e, momento);
  return estadoDe({
    ...e,
    requiere_aprobacion: a.requiere,
    aprobacion: a.estado,
    aprobacion_detalle: a,
  });
}

/** Who takes a transition: a person by the roles of their session; a caller without roles is
 * the product itself (the scheduler, a CAP feed). The routes checked the same levels already
 * (the contract's ciclo-ejercicio test holds them equal). */
export const quienDe = (actor: ActorConRoles | 'sistema'): Quien =>
  actor !== 'sistema' && actor.role?.length ? { roles: actor.role } : 'sistema';

/**
 * Takes a lifecycle transition (rules/ciclo-ejercicio.ts transicion): the new state and the
 * columns to write, or throws the api's refusal (its status and Spanish text).
 */
export function exigirTransicion(
  e: Parameters<typeof estadoEjercicio>[0],
  accion: AccionCiclo,
  actor: ActorConRoles | 'sistema',
  condiciones: CondicionesCiclo = {},
  momento = ahora(),
): PasoCiclo {
  const r = transicion(estadoEjercicio(e, momento), accion, quienDe(actor), condiciones);
  if (!r.ok) throw new HttpError(r.status, r.mensaje);
  return r;
}

/**
 * What a scheduled start's pre-flight says of an exercise whose first start still lacks its
 * approval: a real alert, that it needs it before its hour ('aprobacionAntesDeLaHora'); null when
 * it needs none, has it, or already started (the start's own refusal says the rest).
 */
export function avisoPrevioAprobacion(
  e: Fila & Pick<EjercicioCompleto, 'iniciado'>,
): string | null {
  if (e.iniciado !== null || e.modo !== 'real') return null;
  const a = aprobacionDe(e);
  return motivoSinAprobacion(a.estado, a.requiere) ? msg('aprobacionAntesDeLaHora') : null;
}

/** Marks an expired request as such (audited, once), in the caller's transaction. */
async function anotarExpiracion(k: Consultor, actor: Actor | null, e: EjercicioCompleto) {
  if (e.aprobacion !== 'pendiente') return;
  await repo.actualizarEjercicio(k, e.id_ejercicio, { aprobacion: 'expirada' });
  await auditar(k, actor, 'expirar_aprobacion', 'ejercicio', e.id_ejercicio, {
    solicitante: e.aprobacion_solicitante,
    expira: num(e.aprobacion_expira),
  });
}

/**
 * POST /ejercicio/{id}/aprobacion/: asks a second person to approve the exercise's start. 409 when
 * it needs none, has no recipients, is already pending or approved, or already started.
 */
export async function solicitarAprobacion(
  ctx: CtxEjercicios,
  actor: Actor,
  id: number,
): Promise<{ mensaje: string; aprobacion: Aprobacion }> {
  const r = await ctx.db.kysely.transaction().execute((trx) => solicitarEn(trx, ctx, actor, id));
  ctx.eventos.emit('ejercicio', id);
  return r;
}

/** solicitarAprobacion's work in the caller's transaction; the caller tells the listeners once
 * it commits. */
async function solicitarEn(
  trx: Consultor,
  ctx: CtxEjercicios,
  actor: Actor,
  id: number,
): Promise<{ mensaje: string; aprobacion: Aprobacion }> {
  const e = await ejercicioOError(trx, ctx, id, true);
  const momento = ahora();
  const estado = estadoAprobacion(e, momento);
  const paso = exigirTransicion(e, 'solicitar_aprobacion', actor, {}, momento);
  if (!Number(e.destinatarios) && !(await repo.hayDestinatarios(trx, id)))
    throw error(409, 'aprobacionSinDestinatarios');
  if (estado === 'expirada') await anotarExpiracion(trx, null, e);
  const expira = momento + aprobacionExpiraMs();
  const cambio = {
    aprobacion: paso.cambios.aprobacion!,
    aprobacion_solicitante: actor.usuario,
    aprobacion_solicitante_id: actor.id_usuario > 0 ? actor.id_usuario : null,
    aprobacion_solicitada: momento,
    aprobacion_expira: expira,
    aprobacion_resuelve: null,
    aprobacion_resuelta: null,
    aprobacion_motivo: null,
  };
  await repo.actualizarEjercicio(trx, id, cambio);
  await auditar(trx, actor, 'solicitar_aprobacion', 'ejercicio', id, {
    modo: e.modo,
    destinatarios: Number(e.destinatarios),
    expira: new Date(expira).toISOString(),
  });
  const hora = fechaHoraEnZona(expira, zonaProducto()).hora_ini.slice(0, 5);
  return {
    mensaje: msg('aprobacionSolicitada', { hora }),
    aprobacion: aprobacionDe({ ...e, ...cambio }, momento),
  };
}

/**
 * Asks for the approval of an exercise that needs one and has recipients (a CAP alert's, issue
 * 47.4: it never starts by itself, it lands in 'Pendiente de aprobación'), as `actor`, in the
 * caller's transaction `trx` (the caller tells the listeners once it commits); true when asked.
 */
export async function solicitarSiRequiere(
  trx: Consultor,
  ctx: CtxEjercicios,
  actor: Actor,
  id: number,
): Promise<boolean> {
  const e = await ejercicioOError(trx, ctx, id, true);
  if (!requiereAprobacion(e, umbralAprobacion())) return false;
  // An alert to states without phones creates an exercise with no recipients: nothing to
  // approve yet (aprobacionSinDestinatarios); it waits, not asked, for a person to add them.
  if (!Number(e.destinatarios) && !(await repo.hayDestinatarios(trx, id))) return false;
  await solicitarEn(trx, ctx, actor, id);
  return true;
}

/** Approves (motivo null) or rejects a pending request; never by its creator or requester. */
async function resolver(
  ctx: CtxEjercicios,
  actor: Actor,
  id: number,
  motivo: string | null,
): Promise<{ mensaje: string; aprobacion: Aprobacion }> {
  // An API key never approves (the route's role already refuses it; this holds for any caller).
  if (actor.id_usuario <= 0) throw error(403, 'aprobacionPropia');
  const r = await ctx.db.kysely.transaction().execute(async (trx) => {
    const e = await ejercicioOError(trx, ctx, id, true);
    const momento = ahora();
    const paso = transicion(
      estadoEjercicio(e, momento),
      motivo === null ? 'aprobar' : 'rechazar',
      quienDe(actor),
      { propio: esPropio(e, actor) },
    );
    // An expired request is written (and audited) as such before the refusal is said.
    if (!paso.ok && paso.clave === 'aprobacionExpirada') {
      await anotarExpiracion(trx, actor, e);
      return { expirada: true as const };
    }
    if (!paso.ok) throw new HttpError(paso.status, paso.mensaje);
    const cambio = {
      aprobacion: paso.cambios.aprobacion!,
      aprobacion_resuelve: actor.usuario,
      aprobacion_resuelta: momento,
      aprobacion_motivo: motivo,
    };
    await repo.actualizarEjercicio(trx, id, cambio);
    await auditar(trx, actor, motivo === null ? 'aprobar' : 'rechazar', 'ejercicio', id, {
      solicitante: e.aprobacion_solicitante,
      ...(motivo === null ? {} : { motivo }),
    });
    return {
      expirada: false as const,
      mensaje: msg(motivo === null ? 'aprobacionConcedida' : 'aprobacionDenegada'),
      aprobacion: aprobacionDe({ ...e, ...cambio }, momento),
    };
  });
  ctx.eventos.emit('ejercicio', id);
  // The expiry is written (and audited) before the refusal is said.
  if (r.expirada) throw error(409, 'aprobacionExpirada');
  return { mensaje: r.mensaje, aprobacion: r.aprobacion };
}

/** POST /ejercicio/{id}/aprobacion/aprobar/. */
export const aprobar = (ctx: CtxEjercicios, actor: Actor, id: number) =>
  resolver(ctx, actor, id, null);

/** POST /ejercicio/{id}/aprobacion/rechazar/ {motivo}. */
export const rechazar = (
  ctx: CtxEjercicios,
  actor: Actor,
  id: number,
  b: z.output<typeof RechazarSchema>,
) => resolver(ctx, actor, id, b.motivo);

/**
 * POST /ejercicio/{id}/aprobacion/emergencia/ {motivo}: one administrator (the route's role)
 * authorises the start without a second person, only when APROBACION_EMERGENCIA enables it.
 * Audited ('aprobar' with emergencia and the reason) and reported at the top of the report.
 */
export async function inicioEmergencia(
  ctx: CtxEjercicios,
  actor: Actor,
  id: number,
  motivo: string,
): Promise<{ mensaje: string; aprobacion: Aprobacion }> {
  if (!emergenciaPermitida()) throw error(403, 'aprobacionEmergenciaDesactivada');
  if (actor.id_usuario <= 0) throw error(403, 'aprobacionEmergenciaDesactivada');
  const r = await ctx.db.kysely.transaction().execute(async (trx) => {
    const e = await ejercicioOError(trx, ctx, id, true);
    const momento = ahora();
    const paso = exigirTransicion(e, 'emergencia', actor, {}, momento);
    const cambio = {
      aprobacion: paso.cambios.aprobacion!,
      aprobacion_resuelve: actor.usuario,
      aprobacion_resuelta: momento,
      aprobacion_motivo: motivo,
      aprobacion_expira: null,
    };
    await repo.actualizarEjercicio(trx, id, cambio);
    await auditar(trx, actor, 'aprobar', 'ejercicio', id, {
      emergencia: true,
      motivo,
      solicitante: e.aprobacion_solicitante,
    });
    return {
      mensaje: msg('aprobacionEmergenciaConcedida'),
      aprobacion: aprobacionDe({ ...e, ...cambio }, momento),
    };
  });
  ctx.eventos.emit('ejercicio', id);
  return r;
}

/** GET /ejercicio/{id}/aprobacion/. */
export async function leerAprobacion(ctx: CtxEjercicios, id: number): Promise<Aprobacion> {
  return aprobacionDe(await ejercicioOError(ctx.db.kysely, ctx, id));
}

/** GET /aprobaciones/pendientes/: the requests still waiting (not expired, never started), oldest
 * first, each saying whether `quien` may decide it (not their own). */
export async function listarPendientes(
  ctx: CtxEjercicios,
  quien: ActorConRoles,
): Promise<Pendiente[]> {
  const momento = ahora();
  const filas = await ctx.db.kysely
    .selectFrom('ejercicios as e')
    .innerJoin('tipos_ejercicio as t', 't.id_tipo_ejercicio', 'e.id_tipo_ejercicio')
    .select([
      'e.id_ejercicio',
      'e.titulo',
      'e.id_tipo_ejercicio',
      't.tipo_ejercicio as etiqueta_tipo',
      'e.modo',
      'e.destinatarios',
      'e.creado_por',
      'e.aprobacion',
      'e.aprobacion_solicitante',
      'e.aprobacion_solicitante_id',
      'e.aprobacion_solicitada',
      'e.aprobacion_expira',
    ])
    .where('e.aprobacion', '=', 'pendiente')
    .where('e.aprobacion_expira', '>', momento)
    .where('e.iniciado', 'is', null)
    .where('e.completado', '=', 0)
    .orderBy('e.aprobacion_solicitada')
    .orderBy('e.id_ejercicio')
    .execute();
  return filas.map((e) => ({
    id_ejercicio: e.id_ejercicio,
    ejercicio: e.titulo,
    tipo_ejercicio: tipoPorId(e.id_tipo_ejercicio)?.etiqueta ?? e.etiqueta_tipo,
    modo: modoDe(e.modo),
    destinatarios: Number(e.destinatarios),
    solicitante: e.aprobacion_solicitante,
    solicitada: num(e.aprobacion_solicitada),
    expira: num(e.aprobacion_expira),
    puede_aprobar: puedeAprobar(e, quien),
  }));
}
