import fs from 'node:fs';
import os from 'node:os';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';
import { canonizarTelefono, PAIS_DEFECTO } from '@pregon/contract/rules/phone';
import {
  avisoBajasInicio,
  canalDeBaja,
  CANALES_BAJA,
  type CanalBaja,
  type OrigenBaja,
} from '@pregon/contract/rules/bajas';
import {
  CanalBajaSchema,
  MAX_MB_IMPORTACION_BAJAS,
  type IgnoraBajasBodySchema,
  type ListarBajasQuerySchema,
} from '@pregon/contract/api/bajas';
import type { Sesion } from '@pregon/servidor/auth/tokens';
import type { Contexto } from '../contexto.ts';
import { error } from '@pregon/servidor/http/errores';
import { auditar } from '../repositories/auditoria.ts';
import * as repo from '../repositories/bajas.ts';
import * as ejercicios from '../repositories/ejercicios.ts';
import type { Consultor } from '../repositories/ejercicios.ts';
import { primerasCeldasEnHilo } from './importacion-hilo.ts';
import { recibirArchivo } from './importacion.ts';
import { BOM, LOTE_CSV, lineaCsv } from './reportes-csv.ts';
import { accionDelModo, ejercicioOError, type Actor, type CtxEjercicios } from './ejercicios.ts';

// Opt-out lists (issue 46.4): a phone's BAJA or ALTA reply, an operator's, an imported list; each
// change audited with the message that caused it. A drill's start holds back the phones on its
// channel's list (retenerAlIniciar), unless an administrator marked it a real alert.

/** What registrarBaja and registrarAlta are told: the number (the directory's form or as
 * written), the list (a list or a channel/protocol name: 'smpp' and 'android' are 'sms'), how it
 * came, and the reply that caused it. */
export interface CambioBaja {
  telefono: string;
  canal: CanalBaja | string;
  origen: OrigenBaja;
  idRespuesta?: number | null;
  texto?: string | null;
  /** The phone's directory id when the caller already knows it (a reply stored with it); absent,
   * it is looked up. */
  idTelefono?: number;
  /** The operator who acted; absent for a phone's own reply (the audit's actor is the system). */
  actor?: Actor | null;
}

/** What a change did: whether the list changed, and whether the phone must be sent its
 * confirmation (only for its own reply, only the first time: a repeated BAJA changes nothing). */
export interface ResultadoBaja {
  cambio: boolean;
  confirmar: boolean;
  telefono: string;
  canal: CanalBaja;
  id_baja?: number;
}

/** The list a change names, or a 400 naming canal (calls have none). */
function canalOError(canal: string): CanalBaja {
  const c = canalDeBaja(canal);
  if (!c) throw error(400, 'canalBajaInvalido', { canales: CANALES_BAJA.join(', ') }, 'canal');
  return c;
}

/** The stored form of a number, or a 400 naming telefono. A reply's sender that is not a number
 * the directory could hold (a short code, a sender the gateway wrote its own way) is kept as the
 * gateway gave it: a reply's matching must never fail on it. */
function numeroOError(texto: string, origen: OrigenBaja): string {
  const r = canonizarTelefono(texto, PAIS_DEFECTO);
  if (!r.ok && origen === 'respuesta' && texto.trim()) return texto.trim();
  if (!r.ok)
    throw error(400, 'campoInvalido', { campo: 'telefono', detalle: r.motivo }, 'telefono');
  return r.telefono;
}

const detalleAuditoria = (c: CambioBaja, canal: CanalBaja, telefono: string) => ({
  telefono,
  canal,
  origen: c.origen,
  ...(c.idRespuesta != null ? { id_respuesta: c.idRespuesta } : {}),
  ...(c.texto != null ? { mensaje: c.texto } : {}),
});

/** A phone asks (or an operator or an import says) it receives no more drills of a channel:
 * added once to that list (a repeat changes nothing and is not audited again), audited with the
 * message that caused it; its rows still waiting in running or paused drills of the channel are
 * held back at once ('Dado de baja'). Called by the reply matching when a reply reads 'baja'. */
export async function registrarBaja(k: Consultor, c: CambioBaja): Promise<ResultadoBaja> {
  const canal = canalOError(c.canal);
  const telefono = numeroOError(c.telefono, c.origen);
  const id_telefono = c.idTelefono ?? (await repo.idTelefono(k, telefono)) ?? null;
  const id_baja = await repo.insertarBaja(k, {
    canal,
    telefono,
    id_telefono,
    origen: c.origen,
    id_respuesta: c.idRespuesta ?? null,
    texto: c.texto ?? null,
    id_usuario: c.actor && c.actor.id_usuario > 0 ? c.actor.id_usuario : null,
    usuario: c.actor?.usuario ?? null,
    fecha: Date.now(),
  });
  if (id_baja === undefined) return { cambio: false, confirmar: false, telefono, canal };
  const retenidos =
    id_telefono === null
      ? 0
      : await repo.retenerEnCurso(k, id_telefono, canal, msg('motivoDadoDeBaja'), Date.now());
  await auditar(k, c.actor ?? null, 'crear', 'baja', id_baja, {
    ...detalleAuditoria(c, canal, telefono),
    ...(retenidos ? { retenidos } : {}),
  });
  return { cambio: true, confirmar: c.origen === 'respuesta', telefono, canal, id_baja };
}

/** A phone asks (ALTA) or an operator says it receives drills of a channel again: taken off
 * that list (nothing when it was not on it), audited with the message that caused it. */
export async function registrarAlta(k: Consultor, c: CambioBaja): Promise<ResultadoBaja> {
  const canal = canalOError(c.canal);
  const telefono = numeroOError(c.telefono, c.origen);
  const previa = await repo.borrarBaja(k, canal, telefono);
  if (!previa) return { cambio: false, confirmar: false, telefono, canal };
  await auditar(k, c.actor ?? null, 'eliminar', 'baja', previa.id_baja, {
    ...detalleAuditoria(c, canal, telefono),
    baja: { origen: previa.origen, fecha: Number(previa.fecha), mensaje: previa.texto },
  });
  return { cambio: true, confirmar: c.origen === 'respuesta', telefono, canal };
}

/** The row as the contract lists it. */
const fila = (b: Awaited<ReturnType<typeof repo.listarBajas>>['filas'][number]) => ({
  id_baja: Number(b.id_baja),
  canal: b.canal as CanalBaja,
  telefono: b.telefono,
  id_telefono: b.id_telefono,
  origen: b.origen as OrigenBaja,
  id_respuesta: b.id_respuesta === null ? null : Number(b.id_respuesta),
  texto: b.texto,
  usuario: b.usuario,
  fecha: Number(b.fecha),
  confirmada_en: b.confirmada_en === null ? null : Number(b.confirmada_en),
});

/** GET /telefonos/bajas/: one page of the lists, newest first. */
export async function listar(ctx: Contexto, q: z.output<typeof ListarBajasQuerySchema>) {
  const { filas, total } = await repo.listarBajas(
    ctx.db.kysely,
    { canal: q.canal, q: q.q },
    q.size,
    (q.page - 1) * q.size,
  );
  return { status: 200 as const, data: filas.map(fila), total };
}

const ETIQUETA_CANAL: Record<CanalBaja, ClaveMensaje> = {
  sms: 'canalBajaSms',
  whatsapp: 'canalBajaWhatsapp',
};
const ETIQUETA_ORIGEN: Record<OrigenBaja, ClaveMensaje> = {
  respuesta: 'origenBajaRespuesta',
  importacion: 'origenBajaImportacion',
  operador: 'origenBajaOperador',
};

/** GET /telefonos/bajas/csv/: the list(s) as CSV text, streamed in batches (BOM first). */
export async function* csvBajas(ctx: Contexto, canal?: CanalBaja): AsyncGenerator<string> {
  yield (
    BOM +
    lineaCsv([
      msg('columnaTelefono'),
      msg('columnaCanal'),
      msg('columnaFecha'),
      msg('columnaOrigen'),
      msg('columnaMensajeBaja'),
    ])
  );
  for await (const lote of repo.lotesBajas(ctx.db.kysely, canal, LOTE_CSV)) {
    let texto = '';
    for (const b of lote) {
      texto += lineaCsv([
        b.telefono,
        msg(ETIQUETA_CANAL[b.canal as CanalBaja]),
        new Date(Number(b.fecha)).toISOString(),
        msg(ETIQUETA_ORIGEN[b.origen as OrigenBaja]),
        b.texto,
      ]);
    }
    yield texto;
  }
}

/** POST /telefonos/bajas/ (an operator): the phone on the list, once. */
export async function crear(ctx: Contexto, sesion: Sesion, telefono: string, canal: CanalBaja) {
  const r = await ctx.db.kysely
    .transaction()
    .execute((trx) => registrarBaja(trx, { telefono, canal, origen: 'operador', actor: sesion }));
  const etiqueta = msg(ETIQUETA_CANAL[canal]);
  return {
    status: 200 as const,
    nueva: r.cambio,
    telefono: r.telefono,
    mensaje: msg(r.cambio ? 'bajaRegistrada' : 'bajaYaRegistrada', {
      telefono: r.telefono,
      canal: etiqueta,
    }),
  };
}

/** DELETE /telefonos/bajas/{canal}/{telefono}/ (an operator): off the list, or a 404. */
export async function eliminar(ctx: Contexto, sesion: Sesion, canal: CanalBaja, telefono: string) {
  const r = await ctx.db.kysely
    .transaction()
    .execute((trx) => registrarAlta(trx, { telefono, canal, origen: 'operador', actor: sesion }));
  const etiqueta = msg(ETIQUETA_CANAL[canal]);
  if (!r.cambio)
    throw error(404, 'bajaNoEncontrada', { telefono: r.telefono, canal: etiqueta }, 'telefono');
  return {
    status: 200 as const,
    mensaje: msg('altaRegistrada', { telefono: r.telefono, canal: etiqueta }),
  };
}

/** Row errors an import of a list answers with (all are counted in the audit). */
const MAX_ERRORES_BAJAS = 100;

/**
 * POST /telefonos/bajas/importar/ (multipart: `file` .csv/.txt/.xlsx, `canal`): every number in
 * the first column of the file (a first row that is not a number is a header) goes on the list,
 * in one transaction, read by the phone import's own readers. Audited once, with the counts.
 */
export async function importar(ctx: Contexto, sesion: Sesion, req: FastifyRequest) {
  const archivo = await recibirArchivo(req, os.tmpdir(), MAX_MB_IMPORTACION_BAJAS);
  try {
    const canal = CanalBajaSchema.safeParse(archivo.campos.canal ?? 'sms');
    if (!canal.success)
      throw error(400, 'canalBajaInvalido', { canales: CANALES_BAJA.join(', ') }, 'canal');
    return await guardarLista(ctx, sesion, archivo.ruta, archivo.tipo, canal.data, archivo.nombre);
  } finally {
    await fs.promises.rm(archivo.ruta, { force: true });
  }
}

/** Reads the saved file and writes its numbers on the list (see importar). */
async function guardarLista(
  ctx: Contexto,
  sesion: Sesion,
  ruta: string,
  tipo: 'csv' | 'xlsx',
  canal: CanalBaja,
  archivo: string,
) {
  const errores: { fila: number; motivo: string }[] = [];
  let nuevas = 0;
  let yaEstaban = 0;
  let conError = 0;
  let retenidos = 0;
  const motivo = msg('motivoDadoDeBaja');
  await ctx.db.kysely.transaction().execute(async (trx) => {
    for await (const grupo of primerasCeldasEnHilo({ ruta, tipo })) {
      for (const f of grupo) {
        const celda = (f.celdas[0] ?? '').trim();
        if (f.error || celda === '') {
          if (f.error) conError++;
          if (f.error && errores.length < MAX_ERRORES_BAJAS)
            errores.push({ fila: f.fila, motivo: f.error });
          continue;
        }
        const r = canonizarTelefono(celda, PAIS_DEFECTO);
        if (!r.ok) {
          // A first row that is not a number is the header.
          if (f.fila === 1) continue;
          conError++;
          if (errores.length < MAX_ERRORES_BAJAS) errores.push({ fila: f.fila, motivo: r.motivo });
          continue;
        }
        const id_telefono = (await repo.idTelefono(trx, r.telefono)) ?? null;
        const id_baja = await repo.insertarBaja(trx, {
          canal,
          telefono: r.telefono,
          id_telefono,
          origen: 'importacion',
          id_respuesta: null,
          texto: null,
          id_usuario: sesion.id_usuario > 0 ? sesion.id_usuario : null,
          usuario: sesion.usuario,
          fecha: Date.now(),
        });
        if (id_baja === undefined) {
          yaEstaban++;
          continue;
        }
        nuevas++;
        if (id_telefono !== null)
          retenidos += await repo.retenerEnCurso(trx, id_telefono, canal, motivo, Date.now());
      }
    }
    if (nuevas + yaEstaban === 0) throw error(400, 'bajasImportarSinNumeros', undefined, 'file');
    await auditar(trx, sesion, 'importar', 'baja', null, {
      canal,
      archivo,
      nuevas,
      ya_estaban: yaEstaban,
      errores: conError,
      ...(retenidos ? { retenidos } : {}),
    });
  });
  return {
    status: 200 as const,
    nuevas,
    ya_estaban: yaEstaban,
    errores,
    mensaje: msg('bajasImportadas', {
      N: nuevas,
      canal: msg(ETIQUETA_CANAL[canal]),
      ya: yaEstaban,
      errores: conError,
    }),
  };
}

/** The list an exercise's device sends through (null for calls). */
const canalDeEjercicio = (e: { protocolo: string }) => canalDeBaja(e.protocolo);

/** GET /ejercicio/bajas/{id}/: the start confirmation's count of opted-out waiting recipients
 * and its line ('N teléfonos dados de baja no recibirán este simulacro'). */
export async function resumenInicio(ctx: CtxEjercicios, id: number) {
  const e = await ejercicioOError(ctx.db.kysely, ctx, id);
  const canal = canalDeEjercicio(e);
  const n = canal ? await repo.contarRetenidos(ctx.db.kysely, id, canal) : 0;
  const ignora = e.ignora_bajas === 1;
  return {
    status: 200 as const,
    id_ejercicio: id,
    canal,
    dados_de_baja: n,
    se_omiten: !ignora && n > 0,
    mensaje: ignora
      ? msg('bajasIgnoradasInicio', { motivo: e.ignora_bajas_motivo ?? '' })
      : avisoBajasInicio(n),
    ignora_bajas: ignora,
    ignora_bajas_motivo: e.ignora_bajas_motivo,
  };
}

/** PUT /ejercicio/ignora-bajas/ (administrators): marks an exercise that has not started a real
 * alert (sent to opted-out phones too) with its reason, or takes the mark off; audited. */
export async function marcarIgnoraBajas(
  ctx: CtxEjercicios,
  actor: Actor,
  b: z.output<typeof IgnoraBajasBodySchema>,
): Promise<string> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const e = await ejercicioOError(trx, ctx, b.id_ejercicio, true);
    if (e.iniciado !== null || e.en_proceso || e.completado)
      throw error(409, 'ignoraBajasIniciado', undefined, 'ignora_bajas');
    // Issue 47.1: the mark is the mode 'Alerta real' (a real alert's text loses the drill marker;
    // a drill's gets it back).
    const modo = b.ignora_bajas ? 'real' : 'simulacro';
    await ejercicios.actualizarEjercicio(trx, e.id_ejercicio, {
      modo,
      accion: accionDelModo(modo, e.id_tipo_ejercicio, e.accion),
      ignora_bajas: b.ignora_bajas ? 1 : 0,
      ignora_bajas_motivo: b.ignora_bajas ? b.motivo! : null,
      ignora_bajas_usuario: b.ignora_bajas ? actor.usuario : null,
      ignora_bajas_fecha: b.ignora_bajas ? Date.now() : null,
    });
    await auditar(trx, actor, 'modificar', 'ejercicio', e.id_ejercicio, {
      ignora_bajas: b.ignora_bajas,
      ...(b.ignora_bajas ? { motivo: b.motivo } : { motivo_anterior: e.ignora_bajas_motivo }),
    });
  });
  ctx.eventos.emit('ejercicio', b.id_ejercicio);
  return msg(b.ignora_bajas ? 'ignoraBajasActivado' : 'ignoraBajasDesactivado');
}
