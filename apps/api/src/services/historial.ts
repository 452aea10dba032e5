import { tipoPorId } from '@pregon/contract/constants';
import { MAX_RESPUESTAS_HISTORIAL, type HistorialRespuesta } from '@pregon/contract/api/telefonos';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';
import { resultadoDe, textoResultado } from '@pregon/contract/rules/alcance';
import { canalDeBaja, type CanalBaja, type OrigenBaja } from '@pregon/contract/rules/bajas';
import { etiquetaRespaldo } from '@pregon/contract/rules/cadena';
import type { OpcionEncuesta } from '@pregon/contract/rules/respuestas';
import type { Contexto } from '../contexto.ts';
import { noEncontrado } from '@pregon/servidor/http/errores';
import * as repo from '../repositories/historial.ts';
import { leerTelefono } from '../repositories/telefonos.ts';
import { limiteLlamada } from './reportes.ts';
import { clasificacionDeTexto } from './respuestas.ts';
import { desfaseZona, epochDe } from './tableros.ts';

const ETIQUETA_CANAL: Record<CanalBaja, ClaveMensaje> = {
  sms: 'canalBajaSms',
  whatsapp: 'canalBajaWhatsapp',
};
const ETIQUETA_ORIGEN: Record<OrigenBaja, ClaveMensaje> = {
  respuesta: 'origenBajaRespuesta',
  importacion: 'origenBajaImportacion',
  operador: 'origenBajaOperador',
};

/** A channel's label: its list's ('SMS' for SMPP and Android, 'WhatsApp'), else as stored. */
function etiquetaCanal(canal: string): string {
  const c = canalDeBaja(canal);
  return c ? msg(ETIQUETA_CANAL[c]) : canal;
}

/** The instant (epoch ms) of a wall time 'YYYY-MM-DD HH:MM:SS' in time zone `tz`. */
function instante(fecha: string, hora: string, tz: string): number {
  const pared = epochDe(fecha, hora, 0);
  return pared - desfaseZona(tz, pared);
}

/** A stored reply as the history shows it: its classification worded (the option's digit and
 * text, 'Respuesta no reconocida', 'Baja', 'Alta', or 'Sin clasificar' until it is read). */
function aRespuesta(
  f: Awaited<ReturnType<typeof repo.respuestasRecibidas>>[number],
): HistorialRespuesta {
  const c = clasificacionDeTexto(f.clasificacion);
  const base = {
    id_respuesta: Number(f.id_respuesta),
    fecha: Number(f.fecha_recibida),
    canal: f.canal,
    canal_etiqueta: etiquetaCanal(f.canal),
    texto: f.texto,
    id_ejercicio: f.id_ejercicio,
    ejercicio: f.titulo,
  };
  if (c === null)
    return { ...base, tipo: 'pendiente', digito: null, etiqueta: msg('respuestaSinClasificar') };
  if (c.tipo === 'opcion') {
    const opciones = f.opciones ? (JSON.parse(f.opciones) as OpcionEncuesta[]) : [];
    const texto = opciones.find((o) => o.digito === c.digito)?.texto ?? '';
    return {
      ...base,
      tipo: 'opcion',
      digito: c.digito ?? null,
      etiqueta: msg('clasificacionOpcion', { digito: c.digito ?? '', texto }),
    };
  }
  const clave: Record<'baja' | 'alta' | 'no_reconocida', ClaveMensaje> = {
    baja: 'clasificacionBaja',
    alta: 'columnaAlta',
    no_reconocida: 'respuestaNoReconocida',
  };
  return { ...base, tipo: c.tipo, digito: null, etiqueta: msg(clave[c.tipo]) };
}

/** The replies of one page of the history: received since the page's earliest send (all the
 * older ones on the last page) and before the previous page's earliest send, so that each reply
 * is on exactly one page and the web lays them beside the sends they came after. */
async function respuestasDePagina(
  k: Parameters<typeof repo.respuestasRecibidas>[0],
  id: number,
  page: number,
  size: number,
  total: number,
  tz: string,
) {
  const offset = (page - 1) * size;
  if (total > 0 && offset >= total) return [];
  const aInstante = (s: string | null) => {
    if (s === null) return null;
    const [fecha, hora] = s.split(' ');
    return instante(fecha!, hora ?? '00:00:00', tz);
  };
  const ultima = offset + size >= total;
  const desde = ultima
    ? null
    : (aInstante(await repo.primerEnvio(k, id, offset + size)) ?? Infinity);
  const hasta = page === 1 ? null : (aInstante(await repo.primerEnvio(k, id, offset)) ?? null);
  if (desde === Infinity) return [];
  const filas = await repo.respuestasRecibidas(k, id, desde, hasta, MAX_RESPUESTAS_HISTORIAL);
  return filas.map(aRespuesta);
}

/** GET /telefono/{id}/historial/: one page of what the phone received and answered, newest
 * exercise first (issue 25.4), with the outcome worded as the reports word it, the replies it
 * sent in the page's span of time and its opt-out state (issue 46); 404 for an unknown phone. */
export async function historial(
  ctx: Pick<Contexto, 'db' | 'config'>,
  id: number,
  page: number,
  size: number,
) {
  const k = ctx.db.kysely;
  const tel = await leerTelefono(k, id);
  if (!tel) throw noEncontrado(`Teléfono ${id}`);
  const [filas, total] = await Promise.all([
    repo.paginaHistorial(k, id, size, (page - 1) * size),
    repo.contarHistorial(k, id),
  ]);
  const [respuestas, recibidas, bajas] = await Promise.all([
    repo.respuestasDe(
      k,
      filas.map((f) => f.id_detalle),
    ),
    respuestasDePagina(k, id, page, size, total, ctx.config.tz),
    repo.bajasDe(k, tel.telefono),
  ]);
  const porDetalle = new Map<number, string[]>();
  for (const r of respuestas) {
    const lista = porDetalle.get(r.id_detalle) ?? [];
    lista.push(`${r.numero}: ${r.respuesta ?? r.digito}`);
    porDetalle.set(r.id_detalle, lista);
  }
  return {
    status: 200 as const,
    telefono: tel.telefono,
    nombre: tel.nombre,
    total,
    data: filas.map((f) => ({
      // A fallback (SMS or WhatsApp) is shown as its drill's, and says it was the fallback.
      id_ejercicio: f.respaldo_de ?? f.id_ejercicio,
      ejercicio: f.titulo,
      tipo_ejercicio:
        f.respaldo_de !== null
          ? etiquetaRespaldo(f.id_tipo_ejercicio)
          : (tipoPorId(f.id_tipo_ejercicio)?.etiqueta ?? String(f.id_tipo_ejercicio)),
      fecha_envio: f.fecha_envio,
      hora_envio: f.hora_envio,
      estatus: f.estatus,
      resultado: textoResultado(resultadoDe(f.estatus, f.alcance), {
        duracion: f.duracion,
        respondidas: f.respondidas,
        preguntas: Number(f.preguntas ?? 0),
        // A call that lasted its exercise's 'Tiempo' was cut by it (issue 45.5).
        limite: limiteLlamada(f),
      }),
      intentos: Number(f.intentos),
      respuestas: (porDetalle.get(f.id_detalle) ?? []).join(' · '),
      enviado_en:
        f.fecha_envio && f.hora_envio ? instante(f.fecha_envio, f.hora_envio, ctx.config.tz) : null,
    })),
    respuestas_recibidas: recibidas,
    bajas: bajas.map((b) => ({
      canal: b.canal as CanalBaja,
      canal_etiqueta: msg(ETIQUETA_CANAL[b.canal as CanalBaja]),
      fecha: Number(b.fecha),
      origen: msg(ETIQUETA_ORIGEN[b.origen as OrigenBaja]),
      texto: b.texto,
      usuario: b.usuario,
    })),
  };
}
