import type { Correccion } from '@pregon/contract/api/mensajes-preparados';
import { CrearEjercicioSchema } from '@pregon/contract/api/ejercicios';
import {
  CANAL_DE_PROTOCOLO,
  ETIQUETA_USO_PLANTILLA,
  TIPO_SMS,
  type Protocolo,
} from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { requiereAprobacion } from '@pregon/contract/rules/aprobacion';
import {
  faltanMarcadores,
  llenarPlantilla,
  marcadoresDe,
} from '@pregon/contract/rules/plantillas-mensaje';
import { fechaHoraEnZona } from '@pregon/contract/rules/programacion';
import { umbralAprobacion, zonaProducto } from '../config.ts';
import { ahora } from '../db/database.ts';
import { error } from '../http/errores.ts';
import { auditar } from '../repositories/auditoria.ts';
import * as repo from '../repositories/ejercicios.ts';
import type { Consultor } from '../repositories/ejercicios.ts';
import {
  crear,
  detener,
  ejercicioOError,
  iniciar,
  type ActorConRoles,
  type ComprobacionInicio,
  type CtxEjercicios,
} from './ejercicios.ts';
import { versionUsable } from './plantillas-mensaje.ts';

// Issue 47.2: 'Enviar corrección' and 'Cancelar alerta' in one step. The follow-up is an SMS
// exercise to every recipient of the original, in its mode, a link of its follow-up chain
// (origen_id), whose text comes from an approved version of a correction or cancellation
// template: that approval, given beforehand, stands for the two-person approval of a real alert,
// so it starts at once. Everything is checked before anything changes; then the original stops
// if it is still sending, the follow-up is created with its recipients in one transaction and
// started through the ordinary start path (its checks, the audit, the dispatcher's wake-up).

const etiquetaUso = (u: string) =>
  msg(ETIQUETA_USO_PLANTILLA[u as keyof typeof ETIQUETA_USO_PLANTILLA] ?? 'columnaAlertaCap');

/** The version the follow-up is sent from: approved, of a template of this use, with an SMS text. */
async function versionDeCorreccion(k: Consultor, idVersion: number, uso: Correccion['uso']) {
  const v = await versionUsable(k, idVersion, true);
  if (v.uso !== uso)
    throw error(
      400,
      'correccionUsoDistinto',
      { uso: etiquetaUso(v.uso), esperado: etiquetaUso(uso) },
      'id_version_plantilla',
    );
  if (!v.texto_sms.trim())
    throw error(400, 'correccionSinTextoSms', undefined, 'id_version_plantilla');
  return v;
}

/** The SMS device: the one asked for (active, SMS, or a 400 naming equipo); else the original's
 * when it sent SMS and is active; else the first active SMS device (a call or WhatsApp alert's
 * correction, or an original whose device is down, still goes out). */
async function equipoSms(k: Consultor, pedido: number | undefined, original: number | undefined) {
  const activos = (
    await k
      .selectFrom('equipos')
      .select(['id_equipo', 'protocolo', 'puertos'])
      .where('activo', '=', 1)
      .orderBy('id_equipo')
      .execute()
  ).filter((q) => CANAL_DE_PROTOCOLO[q.protocolo as Protocolo] === 'sms');
  const q =
    pedido !== undefined
      ? activos.find((x) => Number(x.id_equipo) === pedido)
      : (activos.find((x) => Number(x.id_equipo) === original) ?? activos[0]);
  if (!q) throw error(400, 'correccionEquipoNoSms', undefined, 'equipo');
  return { id_equipo: Number(q.id_equipo), puertos: Math.max(1, Number(q.puertos) || 1) };
}

/**
 * POST /ejercicio/{id}/correccion/: checks, stops the original if it is still sending, creates the
 * follow-up with every recipient of the original (approved by the template's approval when its
 * mode needs one) and starts it. Returns the new exercise, its recipients and how many of the
 * original's were cancelled.
 */
export async function enviarCorreccion(
  ctx: CtxEjercicios,
  actor: ActorConRoles,
  id: number,
  b: Correccion,
  comprobacion: ComprobacionInicio,
): Promise<{ id_ejercicio: number; destinatarios: number; detenidos: number; titulo: string }> {
  const k = ctx.db.kysely;
  const origen = await ejercicioOError(k, ctx, id);
  if (origen.iniciado === null)
    throw error(409, 'correccionSinIniciar', { ejercicio: origen.titulo });
  const v = await versionDeCorreccion(k, b.id_version_plantilla, b.uso);
  const texto = llenarPlantilla(v.texto_sms, b.valores);
  if (faltanMarcadores(texto))
    throw error(
      400,
      'correccionMarcadoresPendientes',
      {
        marcadores: marcadoresDe(texto)
          .map((m) => `{${m}}`)
          .join(', '),
      },
      'valores',
    );
  const equipo = await equipoSms(
    k,
    b.equipo,
    origen.id_tipo_ejercicio === TIPO_SMS ? Number(origen.id_equipo) : undefined,
  );
  if (!(await repo.hayDestinatarios(k, id)))
    throw error(409, 'correccionSinDestinatarios', { ejercicio: origen.titulo });

  const titulo = msg('correccionTituloEjercicio', {
    uso: etiquetaUso(b.uso),
    ejercicio: origen.titulo,
  }).slice(0, 200);
  const { fecha_ini, hora_ini } = fechaHoraEnZona(ahora(), zonaProducto());
  // The same body the create dialog sends, validated by the same schema.
  const cuerpo = CrearEjercicioSchema.parse({
    titulo,
    tipo_ejercicio: TIPO_SMS,
    fecha_ini,
    hora_ini,
    equipo: equipo.id_equipo,
    numero_puertos: equipo.puertos,
    puerto_ini: 1,
    puerto_fin: equipo.puertos,
    accion: texto,
    estado: Number(origen.id_estado),
    estados: origen.estados ?? '',
    varios_paises: '1',
    categorias: origen.categorias,
    modo: origen.modo,
    motivo_alerta: origen.modo === 'real' ? (origen.ignora_bajas_motivo ?? titulo) : '',
    id_version_plantilla: b.id_version_plantilla,
  });
  const detenidos = origen.completado ? 0 : await detener(ctx, actor, id);
  let destinatarios = 0;
  const nuevo = await crear(ctx, actor, cuerpo, async (trx, nid) => {
    destinatarios = await repo.copiarTodosLosDestinatarios(trx, nid, id, ctx.db.engine);
    const aprobacion = requiereAprobacion({ modo: origen.modo, destinatarios }, umbralAprobacion());
    await repo.actualizarEjercicio(trx, nid, {
      destinatarios,
      origen_id: id,
      // The template version's approval, given beforehand, is this exercise's.
      ...(aprobacion
        ? {
            aprobacion: 'aprobada',
            aprobacion_resuelve: v.aprobada_por,
            aprobacion_resuelta: Number(v.aprobada),
          }
        : {}),
    });
    return {
      [b.uso === 'correccion' ? 'correccion_de' : 'cancelacion_de']: id,
      destinatarios,
      ...(aprobacion ? { aprobada_por_plantilla: v.aprobada_por } : {}),
    };
  });
  await repo.analizarDestinatarios(k, ctx.db.engine);
  await auditar(
    k,
    actor,
    b.uso === 'correccion' ? 'enviar_correccion' : 'cancelar_alerta',
    'ejercicio',
    id,
    {
      id_ejercicio: nuevo,
      id_version_plantilla: b.id_version_plantilla,
      plantilla: v.nombre,
      version: Number(v.version),
      destinatarios,
      detenidos,
    },
  );
  await iniciar(ctx, actor, 'sms', { id_ejercicio: nuevo }, comprobacion);
  return { id_ejercicio: nuevo, destinatarios, detenidos, titulo };
}
