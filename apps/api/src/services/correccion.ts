import type { Correccion } from '@pregon/contract/api/mensajes-preparados';
import { CrearEjercicioSchema } from '@pregon/contract/api/ejercicios';
import { escribirExtensionesLlamadas } from '@pregon/contract/api/pbx';
import {
  ETIQUETA_USO_PLANTILLA,
  TIPO_LLAMADA,
  TIPO_SMS,
  TIPO_WHATSAPP,
  type Canal,
} from '@pregon/contract/constants';
import { ARCHIVO_LLAMADAS } from '@pregon/contract/rules/dialplan';
import { msg } from '@pregon/contract/messages';
import { requiereAprobacion } from '@pregon/contract/rules/aprobacion';
import {
  CANALES_CORRECCION,
  canalCorreccion,
  equiposCorreccion,
  llenarPlantilla,
  marcadoresDe,
  versionTieneCanal,
  type CanalCorreccion,
} from '@pregon/contract/rules/plantillas-mensaje';
import { accionDePlantilla } from '@pregon/contract/rules/whatsapp';
import { fechaHoraEnZona } from '@pregon/contract/rules/programacion';
import { umbralAprobacion, zonaProducto } from '../config.ts';
import { ahora } from '@pregon/db/database';
import { error } from '@pregon/servidor/http/errores';
import { auditar } from '../repositories/auditoria.ts';
import * as repo from '../repositories/ejercicios.ts';
import type { Consultor } from '../repositories/ejercicios.ts';
import {
  crear,
  detener,
  ejercicioOError,
  eliminar,
  iniciar,
  type ActorConRoles,
  type ComprobacionInicio,
  type CtxEjercicios,
} from './ejercicios.ts';
import { leerParametros, versionUsable } from './plantillas-mensaje.ts';
import { escribirEnAgente } from './quiz.ts';
import { archivoLlamadas } from './telefonia.ts';

// Issue 47.2: 'Enviar corrección' and 'Cancelar alerta' in one step. The follow-up goes by the
// original's channel (SMS, WhatsApp or call, as the version holds content for it) through the
// device asked for or the original's (contract equiposCorreccion), to every recipient of the original, in its mode, a link of its follow-up chain
// (origen_id), whose text comes from an approved version of a correction or cancellation
// template: that approval, given beforehand, stands for the two-person approval of a real alert,
// so it starts at once. Everything is checked before anything changes; then the follow-up is
// created with its recipients in one transaction (a call's dialplan written to the agent, or the
// follow-up deleted again if the agent fails), the original stops if it is still sending, and the
// follow-up starts through the ordinary start path (its checks, the audit, the dispatcher's
// wake-up).

const etiquetaUso = (u: string) =>
  msg(ETIQUETA_USO_PLANTILLA[u as keyof typeof ETIQUETA_USO_PLANTILLA] ?? 'columnaAlertaCap');

/** The version the follow-up is sent from: approved, of a template of this use, with an SMS text,
 * a WhatsApp template or a call audio. */
async function versionDeCorreccion(k: Consultor, idVersion: number, uso: Correccion['uso']) {
  const v = await versionUsable(k, idVersion, true);
  if (v.uso !== uso)
    throw error(
      400,
      'correccionUsoDistinto',
      { uso: etiquetaUso(v.uso), esperado: etiquetaUso(uso) },
      'id_version_plantilla',
    );
  if (!CANALES_CORRECCION.some((c) => versionTieneCanal(v, c)))
    throw error(400, 'correccionSinTextoSms', undefined, 'id_version_plantilla');
  return v;
}

const NOMBRE_CANAL = {
  sms: 'canalBajaSms',
  whatsapp: 'canalBajaWhatsapp',
  llamada: 'correccionCanalLlamada',
} as const;
const CONTENIDO_CANAL = {
  sms: 'contenidoTextoSms',
  whatsapp: 'contenidoPlantillaWhatsapp',
  llamada: 'contenidoAudioLlamada',
} as const;
/** The exercise type and the start channel of each correction channel. */
const TIPO_CANAL = { sms: TIPO_SMS, whatsapp: TIPO_WHATSAPP, llamada: TIPO_LLAMADA } as const;
const INICIO_CANAL: Readonly<Record<CanalCorreccion, Canal>> = {
  sms: 'sms',
  whatsapp: 'whatsapp',
  llamada: 'calls',
};

/** Where and how the api writes a call's dialplan to the telephony agent (the route's). */
export interface AgenteLlamadas {
  base: string;
  token?: string;
  timeoutMs: number;
  idioma: string;
  firmar: (archivo: string, contenido: string) => Promise<string>;
}

/** Writes the calls' dialplan (every call exercise not yet completed, signed) to the agent, as the
 * create dialog does after creating a call: a correction by call can then start. */
async function escribirLlamadas(ctx: CtxEjercicios, agente: AgenteLlamadas): Promise<void> {
  const contenido = await archivoLlamadas(ctx, agente.idioma);
  const firma = await agente.firmar(ARCHIVO_LLAMADAS, contenido);
  await escribirEnAgente(agente, escribirExtensionesLlamadas.path, contenido, firma);
}

/** The device (contract equiposCorreccion, the dialog's own rule): the one asked for (active, SMS,
 * WhatsApp or calls, of a channel the version holds content for; a 400 naming equipo otherwise),
 * else the original's, else the first of its channel, else the first SMS device. */
async function equipoCorreccion(
  k: Consultor,
  pedido: number | undefined,
  v: { texto_sms: string; whatsapp_plantilla: string; audio: string },
  original: { id_equipo: number; protocolo: string },
) {
  const activos = (
    await k
      .selectFrom('equipos')
      .select(['id_equipo', 'protocolo', 'puertos', 'alias'])
      .where('activo', '=', 1)
      .orderBy('id_equipo')
      .execute()
  ).map((q) => ({
    id_equipo: Number(q.id_equipo),
    protocolo: q.protocolo,
    alias: q.alias,
    puertos: Math.max(1, Number(q.puertos) || 1),
  }));
  const { opciones, defecto } = equiposCorreccion(activos, v, original);
  if (pedido === undefined) {
    if (!defecto) throw error(400, 'correccionEquipoNoSms', undefined, 'equipo');
    return defecto;
  }
  const q = activos.find((x) => x.id_equipo === pedido);
  const canal = q ? canalCorreccion(q.protocolo) : null;
  if (!q || !canal) throw error(400, 'correccionEquipoNoSms', undefined, 'equipo');
  const elegido = opciones.find((x) => x.id_equipo === pedido);
  if (!elegido)
    throw error(
      400,
      'correccionSinContenidoCanal',
      {
        equipo: q.alias,
        canal: msg(NOMBRE_CANAL[canal]),
        contenido: msg(CONTENIDO_CANAL[canal]),
      },
      'equipo',
    );
  return elegido;
}

/** What the follow-up sends by its channel: the SMS text, the WhatsApp template with its
 * parameters (the placeholders filled; a 400 naming valores when one is left), or the call's
 * audio on the agent. */
function accionCorreccion(
  canal: CanalCorreccion,
  v: {
    texto_sms: string;
    whatsapp_plantilla: string;
    whatsapp_idioma: string;
    whatsapp_parametros: string;
    audio: string;
  },
  valores: Correccion['valores'],
): string {
  if (canal === 'llamada') return v.audio.trim();
  const textos =
    canal === 'sms'
      ? [llenarPlantilla(v.texto_sms, valores)]
      : leerParametros(v.whatsapp_parametros).map((p) => llenarPlantilla(p, valores));
  const pendientes = [...new Set(textos.flatMap((t) => marcadoresDe(t)))];
  if (pendientes.length)
    throw error(
      400,
      'correccionMarcadoresPendientes',
      { marcadores: pendientes.map((m) => `{${m}}`).join(', ') },
      'valores',
    );
  return canal === 'sms'
    ? textos[0]!
    : accionDePlantilla({
        plantilla: v.whatsapp_plantilla,
        idioma: v.whatsapp_idioma,
        parametros: textos,
      });
}

/**
 * POST /ejercicio/{id}/correccion/: checks, creates the follow-up with every recipient of the
 * original (approved by the template's approval when its mode needs one; a call's dialplan written
 * to the agent), stops the original if it is still sending, and starts the follow-up. Returns the
 * new exercise, its recipients and how many of the original's were cancelled.
 */
export async function enviarCorreccion(
  ctx: CtxEjercicios,
  actor: ActorConRoles,
  id: number,
  b: Correccion,
  comprobacion: ComprobacionInicio,
  agente: AgenteLlamadas,
): Promise<{ id_ejercicio: number; destinatarios: number; detenidos: number; titulo: string }> {
  const k = ctx.db.kysely;
  const origen = await ejercicioOError(k, ctx, id);
  if (origen.iniciado === null)
    throw error(409, 'correccionSinIniciar', { ejercicio: origen.titulo });
  const v = await versionDeCorreccion(k, b.id_version_plantilla, b.uso);
  const equipo = await equipoCorreccion(k, b.equipo, v, {
    id_equipo: Number(origen.id_equipo),
    protocolo: origen.protocolo,
  });
  const accion = accionCorreccion(equipo.canal, v, b.valores);
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
    tipo_ejercicio: TIPO_CANAL[equipo.canal],
    // A call keeps the original call's length (none: the default call time).
    ...(equipo.canal === 'llamada' && origen.id_tipo_ejercicio === TIPO_LLAMADA && origen.tiempo
      ? { tiempo: Number(origen.tiempo) }
      : {}),
    fecha_ini,
    hora_ini,
    equipo: equipo.id_equipo,
    numero_puertos: equipo.puertos,
    puerto_ini: 1,
    puerto_fin: equipo.puertos,
    accion,
    estado: Number(origen.id_estado),
    estados: origen.estados ?? '',
    varios_paises: '1',
    categorias: origen.categorias,
    modo: origen.modo,
    motivo_alerta: origen.modo === 'real' ? (origen.ignora_bajas_motivo ?? titulo) : '',
    id_version_plantilla: b.id_version_plantilla,
  });
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
  // A call needs its context in the agent's dialplan before it starts (written by the api here,
  // as the dialog writes it after creating one). Should the agent not answer or refuse, the
  // follow-up is deleted again (audited) before the original is touched: the 502 names the agent.
  if (equipo.canal === 'llamada') {
    try {
      await escribirLlamadas(ctx, agente);
    } catch (e) {
      await eliminar(ctx, actor, nuevo);
      throw e;
    }
  }
  const detenidos = origen.completado ? 0 : await detener(ctx, actor, id);
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
      canal: equipo.canal,
      id_equipo: equipo.id_equipo,
      destinatarios,
      detenidos,
    },
  );
  await iniciar(ctx, actor, INICIO_CANAL[equipo.canal], { id_ejercicio: nuevo }, comprobacion);
  return { id_ejercicio: nuevo, destinatarios, detenidos, titulo };
}
