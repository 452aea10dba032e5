import {
  ERRORES_RECIENTES,
  type CrearEquipoBody,
  type EquipoVista,
  type ModificarEquipoBody,
} from '@pregon/contract/api/equipos';
import { usaMarcado } from '@pregon/contract/protocolos';
import { MARCADO_DEFECTO } from '@pregon/contract/constants';
import { ProtocoloSchema } from '@pregon/contract/esquemas';
import { problemasEquipo } from '@pregon/contract/rules/equipment';
import { mismaDireccionEquipo } from '@pregon/contract/rules/direccion-equipo';
import { msg } from '@pregon/contract/messages';
import type { Updateable } from 'kysely';
import type { Contexto } from '../contexto.ts';
import type { Sesion } from '@pregon/servidor/auth/tokens';
import type { EquiposTable } from '@pregon/db/schema';
import { error, HttpError, noEncontrado } from '@pregon/servidor/http/errores';
import { auditar } from '../repositories/auditoria.ts';
import * as repo from '../repositories/equipos.ts';
import { fechaHoraDe } from '@pregon/contract/rules/zona-horaria';
import { cifrarCredenciales, descifrarCredenciales } from '@pregon/db/credenciales';
import { problemaDestinoEquipo } from '@pregon/despacho';
import {
  mismoGateway,
  quitarWebhookAndroid,
  registrarWebhookAndroid,
  webhookAndroidPendiente,
  webhookRegistrado,
} from './webhook-android.ts';
import { conConflictos } from './paises.ts';
import { tomarVersion } from '../repositories/versiones.ts';

// Devices: credentials are write-only (stored encrypted, db/credenciales.ts; answered as
// `tiene_credenciales`) and belong to one gateway: a change of protocol or of the url's scheme,
// host or port clears them unless the same change writes them again (issue 49.2). 'asterisk'
// devices always carry a dial template; a device in use is never deleted.

type Fila = Awaited<ReturnType<typeof repo.listarEquipos>>[number];

/** Presents a device row on the wire, without its credentials. */
export function vista(f: Fila): EquipoVista {
  return {
    id_equipo: f.id_equipo,
    alias: f.alias,
    serial: f.serial,
    url: f.url,
    protocolo: ProtocoloSchema.parse(f.protocolo),
    puertos: Number(f.puertos),
    tasa: Number(f.tasa),
    tiene_credenciales: Number(f.tiene) === 1,
    descripcion: f.descripcion,
    activo: Number(f.activo) === 1,
    ultimo_contacto: f.ultimo_contacto == null ? null : Number(f.ultimo_contacto),
    marcado: f.marcado,
    version: Number(f.version),
  };
}

/** What is audited of a device change: everything but the credentials' content. */
function auditable(b: CrearEquipoBody | ModificarEquipoBody) {
  const { credenciales, ...resto } = b;
  return {
    ...resto,
    ...(credenciales !== undefined
      ? { credenciales: credenciales ? 'cambiadas' : 'eliminadas' }
      : {}),
  };
}

/** Devices matching the filters. */
export async function listar(
  ctx: Contexto,
  f: { q?: string; protocolo?: string; activo?: '0' | '1' },
) {
  const filas = await repo.listarEquipos(ctx.db.kysely, {
    q: f.q,
    protocolo: f.protocolo,
    activo: f.activo === undefined ? undefined : Number(f.activo),
  });
  return filas.map(vista);
}

/** One device, or 404. */
export async function leer(ctx: Contexto, id: number): Promise<EquipoVista> {
  const [f] = await repo.listarEquipos(ctx.db.kysely, { id });
  if (!f) throw noEncontrado('Equipo');
  return vista(f);
}

/** Creates a device; 'asterisk' gets MARCADO_DEFECTO when no template is given. */
export async function crear(ctx: Contexto, sesion: Sesion, b: CrearEquipoBody): Promise<number> {
  await exigirDestino(ctx, b.protocolo, b.url);
  const fila = {
    alias: b.alias,
    serial: b.serial,
    url: b.url,
    protocolo: b.protocolo,
    puertos: b.puertos,
    tasa: b.tasa,
    credenciales: cifrarCredenciales(b.credenciales),
    descripcion: b.descripcion || null,
    activo: b.activo ? 1 : 0,
    marcado: usaMarcado(b.protocolo) ? b.marcado || MARCADO_DEFECTO : (b.marcado ?? null),
  };
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const id = await repo.insertarEquipo(trx, fila);
    await auditar(trx, sesion, 'crear', 'equipo', id, auditable(b));
    return id;
  });
}

/** Changes a device; without `credenciales` the stored ones stay while the device keeps its
 * gateway. A change of protocol or of the url's scheme, host or port without `credenciales`
 * clears them (they were given for the old gateway, and a test or send would hand them to the
 * new one): the audit entry names both addresses, and the answer's `mensaje` says so. */
export async function modificar(
  ctx: Contexto,
  sesion: Sesion,
  id: number,
  b: ModificarEquipoBody,
): Promise<{ credenciales_borradas: boolean; mensaje?: string }> {
  const c: Updateable<EquiposTable> = {};
  if (b.alias !== undefined) c.alias = b.alias;
  if (b.serial !== undefined) c.serial = b.serial;
  if (b.url !== undefined) c.url = b.url;
  if (b.protocolo !== undefined) c.protocolo = b.protocolo;
  if (b.puertos !== undefined) c.puertos = b.puertos;
  if (b.tasa !== undefined) c.tasa = b.tasa;
  if (b.credenciales !== undefined) c.credenciales = cifrarCredenciales(b.credenciales);
  if (b.descripcion !== undefined) c.descripcion = b.descripcion || null;
  if (b.activo !== undefined) c.activo = b.activo ? 1 : 0;
  if (b.marcado !== undefined) c.marcado = b.marcado;
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const actual = await repo.leerBasico(trx, id);
    if (!actual) throw noEncontrado('Equipo');
    // Issue 48.3: a form loaded before someone else's save gets 409, nothing written.
    await tomarVersion(trx, 'equipos', id, b.version, sesion);
    const protocoloAntes = ProtocoloSchema.parse(actual.protocolo);
    const protocolo = b.protocolo ?? protocoloAntes;
    const url = b.url ?? actual.url;
    const borradas =
      b.credenciales === undefined &&
      actual.credenciales !== null &&
      !mismaDireccionEquipo({ protocolo: protocoloAntes, url: actual.url }, { protocolo, url });
    if (borradas) c.credenciales = null;
    if (usaMarcado(protocolo) && !(c.marcado ?? actual.marcado)) c.marcado = MARCADO_DEFECTO;
    // A change of what reaches the gateway must leave a device that works (the rule POST applies);
    // other changes (alias, rate, active…) never lock out a device saved before the rule. The
    // credentials just cleared are the exception: the answer asks for them again.
    if (['url', 'protocolo', 'credenciales', 'marcado'].some((k) => k in b)) {
      const [p] = problemasEquipo({
        protocolo,
        url,
        credenciales:
          b.credenciales !== undefined
            ? b.credenciales
            : descifrarCredenciales(actual.credenciales),
        marcado: c.marcado ?? actual.marcado,
      }).filter((x) => !(borradas && x.campo.startsWith('credenciales.')));
      if (p) throw new HttpError(400, p.mensaje, p.campo);
    }
    if ('url' in b || 'protocolo' in b) await exigirDestino(ctx, protocolo, url);
    if (Object.keys(c).length > 0) await repo.actualizarEquipo(trx, id, c);
    const direcciones = borradas
      ? {
          url_anterior: actual.url,
          protocolo_anterior: protocoloAntes,
          url,
          protocolo,
          credenciales: 'eliminadas: cambió la dirección',
        }
      : {};
    await auditar(trx, sesion, 'modificar', 'equipo', id, { ...auditable(b), ...direcciones });
    if (!borradas) return { credenciales_borradas: false };
    return {
      credenciales_borradas: true,
      mensaje: msg('credencialesBorradasDireccion', {
        alias: b.alias ?? actual.alias,
        antes: actual.url,
        despues: url,
      }),
    };
  });
}

/** Issue 46.1, after a device is saved (created, or changed by `cambio`): an Android device's
 * 'sms:received' webhook is registered on its phone (webhook-android.ts), when it was
 * created, its url, protocol or credentials changed, or its registration is still pending. A
 * webhook registered before on another gateway, or with other credentials, or on a device no
 * longer Android, is first removed from that gateway (DELETE /webhooks/{id}, the id it gave). The
 * device stays saved whatever the phones answer: a failure comes back as `aviso_respuestas`
 * (Spanish, naming the cause); a registration is retried when the dispatcher starts and when the
 * device is tested. A device without credentials is not contacted; one no longer Android loses
 * its row. */
export async function registrarEntrada(
  ctx: Contexto,
  id: number,
  cambio?: ModificarEquipoBody,
): Promise<{ aviso_respuestas?: string }> {
  const e = await repo.leerBasico(ctx.db.kysely, id);
  if (!e) return {};
  const avisos: string[] = [];
  const previo = await webhookRegistrado(ctx.db, id);
  let noQuitado: string | null = null;
  if (previo && !mismoGateway(previo, e)) {
    const motivo = await quitarWebhookAndroid(previo);
    // Forgotten either way: the operator is told, and a later save does not try the old gateway.
    await ctx.db.kysely
      .updateTable('webhooks_android')
      .set({ id_webhook: null, gateway: null, acceso: null, registrado: null })
      .where('id_equipo', '=', id)
      .execute();
    if (motivo)
      noQuitado = msg('webhookAndroidAnteriorNoQuitado', {
        gateway: previo.gateway,
        motivo,
        id: previo.id_webhook,
      });
  }
  const resultado = () => (avisos.length ? { aviso_respuestas: avisos.join(' ') } : {});
  if (e.protocolo !== 'android') {
    await ctx.db.kysely.deleteFrom('webhooks_android').where('id_equipo', '=', id).execute();
    if (noQuitado) avisos.push(noQuitado);
    return resultado();
  }
  const cambiaGateway = !cambio || ['url', 'protocolo', 'credenciales'].some((k) => k in cambio);
  let motivo: string | null = null;
  if (e.credenciales !== null && (cambiaGateway || (await webhookAndroidPendiente(ctx.db, id))))
    motivo = await registrarWebhookAndroid(ctx.db, id, ctx.config.urlWebhooks);
  // Registered again on the same gateway, the webhook of the same id was replaced.
  const reemplazado = e.credenciales !== null && !motivo && previo?.gateway === e.url;
  if (noQuitado && !reemplazado) avisos.push(noQuitado);
  if (motivo) avisos.push(msg('webhookAndroidNoRegistrado', { alias: e.alias, motivo }));
  return resultado();
}

/** 400 on the url when it points at a local or private address EQUIPOS_DESTINOS_PERMITIDOS does
 * not list (issue 49.3). */
async function exigirDestino(ctx: Contexto, protocolo: string, url: string): Promise<void> {
  const m = await problemaDestinoEquipo(protocolo, url, ctx.config.destinosPermitidos);
  if (m) throw new HttpError(400, m, 'url');
}

/** Deletes a device no exercise uses; 409 naming it otherwise (never a 500). An Android device's
 * webhook is then removed from its phone (`aviso_respuestas` when the phone did not answer). */
export async function eliminar(
  ctx: Contexto,
  sesion: Sesion,
  id: number,
): Promise<{ aviso_respuestas?: string }> {
  const webhook = await webhookRegistrado(ctx.db, id);
  const alias = await ctx.db.kysely.transaction().execute(async (trx) => {
    const actual = await repo.leerBasico(trx, id);
    if (!actual) throw noEncontrado('Equipo');
    const n = await repo.ejerciciosDeEquipo(trx, id);
    const enUso = () => error(409, 'equipoEnUso', { alias: actual.alias, n });
    if (n > 0) throw enUso();
    await conConflictos(() => repo.borrarEquipo(trx, id), enUso, enUso);
    await auditar(trx, sesion, 'eliminar', 'equipo', id, { alias: actual.alias });
    return actual.alias;
  });
  // Issue 46.1: its Android phone stops posting replies to a device that is gone; a gateway that
  // does not answer leaves the device deleted and the operator told how to remove it by hand.
  if (!webhook) return {};
  const motivo = await quitarWebhookAndroid(webhook);
  return motivo
    ? {
        aviso_respuestas: msg('webhookAndroidNoQuitado', { alias, motivo, id: webhook.id_webhook }),
      }
    : {};
}

/** GET /equipos/{id}/actividad/: today's sends by outcome and the latest failures (404 when the
 * device does not exist). Only exercises started and not ended before yesterday are read. */
export async function actividad(ctx: Contexto, id: number) {
  const k = ctx.db.kysely;
  if (!(await repo.leerBasico(k, id))) throw noEncontrado('Equipo');
  const ahora = Date.now();
  const { fecha } = fechaHoraDe(ahora, ctx.config.tz);
  const [dia, errores] = await Promise.all([
    repo.enviosDelDia(k, id, fecha, ahora - 36 * 3_600_000),
    repo.erroresRecientes(k, id, ahora - 7 * 86_400_000, ERRORES_RECIENTES),
  ]);
  const por_estatus = Object.fromEntries(dia.map((f) => [f.estatus, Number(f.n)]));
  return {
    hoy: { fecha, total: dia.reduce((s, f) => s + Number(f.n), 0), por_estatus },
    errores: errores.map((e) => ({
      ...e,
      motivo: e.motivo ?? '',
      fecha_envio: e.fecha_envio ?? '',
      hora_envio: e.hora_envio ?? '',
    })),
  };
}
