import { PassThrough, type Readable } from 'node:stream';
import { textoModo } from '@pregon/contract/rules/modo';
import { fechaHoraTexto } from '@pregon/contract/rules/zona-horaria';
import { once } from 'node:events';
import type ExcelJS from 'exceljs';
import { curvaAlcance, duracionTexto, hitosAlcance } from '@pregon/contract/api/tableros';
import { tipoPorId } from '@pregon/contract/constants';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';
import { conteoSemaforo, ETIQUETA_RESULTADO, RESULTADOS } from '@pregon/contract/rules/alcance';
import * as repo from '../repositories/ejercicios.ts';
import * as repoQuiz from '../repositories/quiz.ts';
import * as repoReportes from '../repositories/reportes.ts';
import * as repoTableros from '../repositories/tableros.ts';
import { ejercicioOError } from './ejercicios.ts';
import { audiosReporte, desgloses, limiteLlamada, reporte3, resultadoFila } from './reportes.ts';
import { lotesDetalle } from './reportes-csv.ts';
import { segundosDe, type CtxTableros } from './tableros.ts';
import {
  figurasCadena,
  filasEslabones,
  idsCadena,
  lotesPersonas,
  preguntasEslabones,
} from './cadena.ts';
import { esCadena } from '@pregon/contract/rules/cadena';
import { textoSinFormula } from '@pregon/contract/rules/spreadsheet';
import { RESPALDO_POR_CANAL, canalDeRespaldo } from '@pregon/contract/rules/respaldo';
import {
  SIN_RESPUESTA,
  casosInforme,
  opcionesDe,
  respuestasDePersonas,
} from './respuestas-reporte.ts';

/** An SMS row's fields for resultadoFila (the fallback's outcome is its estatus alone). */
const SIN_LLAMADA = { alcance: null, duracion: null, respondidas: null } as const;

// GET /reportes/xlsx/{id}/: the after-action report, written with exceljs's streaming writer
// (each row is committed as it is added, sheets one after another) into the HTTP response, so a
// million recipients never sit in memory. The writer is paused whenever the response's buffer is
// full.

/** A text cell that no spreadsheet reads as a formula (ARCHITECTURE 8). */
const texto = (v: string | null | undefined) => textoSinFormula(v ?? '');

/** Local date and time text of an epoch ms in a zone ('YYYY-MM-DD HH:mm:ss'; the one clock). */
const fechaTexto = (ms: number | null, tz: string) => (ms === null ? '' : fechaHoraTexto(ms, tz));

type Hoja = ExcelJS.Worksheet;

/** Bytes a sheet may hold uncompressed before the writer waits for the compressor. */
const PENDIENTE_MAX = 4 << 20;

/**
 * Bytes of a sheet written but not yet compressed. exceljs's streaming writer pushes each sheet's
 * XML into the zip without back-pressure (its StreamBuf ignores write()'s answer), so a reader
 * faster than deflate piles the whole sheet up in memory; this reads its buffers and its
 * consumer's queues (internal fields: bench/informe-xlsx.ts shows the peak they keep down).
 */
function pendienteHoja(h: Hoja): number {
  type Cola = { _writableState?: { length: number }; _readableState?: { length: number } };
  const s = (h as unknown as { stream?: { buffers?: unknown[]; pipes?: Cola[] } }).stream;
  const enBuffers = (s?.buffers?.length ?? 0) * 65536;
  const enConsumidor = (s?.pipes ?? []).reduce(
    (a, p) => a + (p._writableState?.length ?? 0) + (p._readableState?.length ?? 0),
    0,
  );
  return enBuffers + enConsumidor;
}

function hoja(
  libro: ExcelJS.stream.xlsx.WorkbookWriter,
  nombre: ClaveMensaje,
  columnas: [string, number][],
): Hoja {
  // Printed (or converted to PDF) one page wide, in landscape.
  const h = libro.addWorksheet(msg(nombre).slice(0, 31), {
    pageSetup: { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
  });
  h.columns = columnas.map(([header, width], i) => ({ header, key: String(i), width }));
  return h;
}

/**
 * Prepares the after-action report of exercise `id`: checks it exists (a 404 is answered before
 * streaming) and returns the file name and the .xlsx stream.
 */
export async function informeXlsx(
  ctx: CtxTableros,
  id: number,
): Promise<{ archivo: string; flujo: Readable }> {
  const e = await ejercicioOError(ctx.db.kysely, ctx, id);
  const salida = new PassThrough({ highWaterMark: 1 << 20 });
  void escribir(ctx, e, salida).catch((err) => salida.destroy(err as Error));
  const base = [...e.titulo]
    .map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? '_' : c))
    .join('')
    .trim()
    .slice(0, 120);
  return { archivo: `${base || 'informe'} - informe.xlsx`, flujo: salida };
}

async function escribir(
  ctx: CtxTableros,
  e: Awaited<ReturnType<typeof ejercicioOError>>,
  salida: PassThrough,
) {
  const k = ctx.db.kysely;
  const id = e.id_ejercicio;
  const tz = ctx.config.tz;
  const [estatus, grupos, minutos, segundos, recibidas, auditoria, preguntas, audios] =
    await Promise.all([
      repo.conteoPorEstatus(k, id),
      desgloses(k, e),
      repoTableros.porMinutoAlcance(k, id),
      segundosDe(ctx, id),
      repoReportes.contarRecibidas(k, id),
      repoTableros.auditoriaEjercicio(k, id),
      repoQuiz.contarPreguntas(k, id),
      audiosReporte(k, e),
    ]);
  const s = conteoSemaforo(estatus);
  const curva = curvaAlcance(segundos);
  // Every recipient counts, cancelled ones too (issue 23.5).
  const hitos = hitosAlcance(curva, s.total);
  const inicio = e.iniciado;
  const desdeInicio = (t: number | null) =>
    t === null || inicio === null ? '' : duracionTexto(t - inicio);
  const primero = auditoria.find((a) => a.accion === 'iniciar');
  const ultimo = [...auditoria]
    .reverse()
    .find((a) => a.accion === 'detener' || a.accion === 'completar');
  const quien = (a: (typeof auditoria)[number] | undefined) =>
    a ? `${a.usuario ?? msg('sistema')} · ${fechaTexto(Number(a.fecha), tz)}` : '';
  const parada =
    e.detenido === 1 ? [...auditoria].reverse().find((a) => a.accion === 'detener') : undefined;
  const procesados = s.total - s.porEstatus.pendiente - s.porEstatus.en_curso - s.cancelado;
  const duracion = inicio === null ? 0 : (e.terminado ?? Date.now()) - inicio;
  const pct = (n: number) => (s.total === 0 ? 0 : Math.round((n * 1000) / s.total) / 10);

  // Loaded on the first download, not at the api's start (it is ~10 MB of the idle heap).
  const { default: Excel } = await import('exceljs');
  const libro = new Excel.stream.xlsx.WorkbookWriter({
    stream: salida,
    useStyles: false,
    useSharedStrings: false,
  });
  libro.creator = msg('nombreApp');
  libro.created = new Date();
  // Waits while the sheet's compressor or the response lag behind, so neither a fast reader nor
  // a slow client piles rows up in memory.
  const espacio = async (h: Hoja) => {
    while (pendienteHoja(h) > PENDIENTE_MAX) await new Promise((r) => setTimeout(r, 2));
    if (salida.writableNeedDrain) await once(salida, 'drain');
  };

  const r = hoja(libro, 'hojaResumen', [
    [msg('columnaConcepto'), 40],
    [msg('columnaValor'), 50],
  ]);
  const filasResumen: [string, string | number][] = [
    // Issue 47.2: a start without a second person's approval leads the report.
    ...(e.aprobacion === 'emergencia'
      ? ([
          [
            msg('aprobacionEstadoEmergencia'),
            texto(
              msg('aprobacionEmergenciaInformeValor', {
                usuario: e.aprobacion_resuelve ?? '',
                fecha: fechaTexto(
                  e.aprobacion_resuelta === null ? null : Number(e.aprobacion_resuelta),
                  tz,
                ),
                motivo: e.aprobacion_motivo ?? '',
              }),
            ),
          ],
        ] as [string, string][])
      : []),
    [msg('columnaEjercicio'), texto(e.titulo)],
    [msg('columnaTipo'), tipoPorId(e.id_tipo_ejercicio)?.etiqueta ?? e.etiqueta_tipo],
    // Issue 47.1: the mode in words (a real alert with its reason).
    [msg('campoModo'), texto(textoModo(e.modo, e.ignora_bajas_motivo))],
    [msg('columnaDispositivo'), texto(e.alias)],
    [msg('columnaFechaInicio'), `${e.fecha_ini} ${e.hora_ini}`],
    // What the drill played, fixed at its start: chosen name, full SHA-256, seconds (issue 23.1).
    ...audios.audios.map((a): [string, string] => [
      a.pregunta === null ? msg('etiquetaAudio') : msg('audioReportePregunta', { N: a.pregunta }),
      texto(
        msg('audioReporteValor', { nombre: a.nombre, sha256: a.sha256, duracion: a.duracion_s }),
      ),
    ]),
    ...(audios.audios_nota
      ? ([[msg('etiquetaAudio'), audios.audios_nota]] as [string, string][])
      : []),
    [msg('informeIniciado'), fechaTexto(inicio, tz)],
    [msg('informeTerminado'), fechaTexto(e.terminado, tz)],
    [msg('informeIniciadoPor'), texto(quien(primero))],
    [msg('informeTerminadoPor'), texto(quien(ultimo))],
    ...(parada
      ? ([
          [
            msg('detenido'),
            texto(
              msg('detenidoPor', {
                usuario: parada.usuario ?? msg('sistema'),
                hora: fechaTexto(Number(parada.fecha), tz).slice(11),
              }),
            ),
          ],
        ] as [string, string][])
      : []),
    [msg('tiempoTranscurrido'), duracionTexto(duracion)],
    [msg('informeDestinatarios'), s.total],
    [msg('procesados'), procesados],
    [msg('informeAlcanzados'), s.verde],
    [msg('informeNoAlcanzados'), s.total - s.verde],
    [msg('luzVerde'), s.verde],
    [`${msg('luzVerde')} %`, s.porcentajes.verde],
    [msg('luzAmarillo'), s.amarillo],
    [`${msg('luzAmarillo')} %`, s.porcentajes.amarillo],
    [msg('luzRojo'), s.rojo],
    [`${msg('luzRojo')} %`, s.porcentajes.rojo],
    [msg('estatusCancelado'), s.cancelado],
    [`${msg('estatusCancelado')} %`, s.porcentajes.cancelado],
    [
      msg('luzGeneral'),
      msg(s.luz === 'verde' ? 'luzVerde' : s.luz === 'rojo' ? 'luzRojo' : 'luzAmarillo'),
    ],
    [msg('informeRecibidas'), recibidas],
    [
      msg('informeTasaMedia'),
      duracion > 0 ? Math.round((procesados / (duracion / 1000)) * 10) / 10 : 0,
    ],
    [msg('tiempoAl', { pct: 50 }), desdeInicio(hitos.p50)],
    [msg('tiempoAl', { pct: 90 }), desdeInicio(hitos.p90)],
    [msg('tiempoAl', { pct: 100 }), desdeInicio(hitos.p100)],
  ];
  for (const f of filasResumen) r.addRow(f).commit();
  r.commit();

  const c = hoja(libro, 'hojaCurva', [
    [msg('columnaMinuto'), 18],
    [msg('procesados'), 14],
    [msg('alcanzados'), 14],
    [msg('columnaAcumulado', { columna: msg('procesados') }), 22],
    [msg('columnaAcumulado', { columna: msg('alcanzados') }), 22],
  ]);
  let accP = 0;
  let accA = 0;
  for (const m of minutos) {
    accP += Number(m.procesados);
    accA += Number(m.alcanzados ?? 0);
    c.addRow([m.minuto, Number(m.procesados), Number(m.alcanzados ?? 0), accP, accA]).commit();
  }
  c.commit();

  const grupo = (
    nombre: ClaveMensaje,
    primera: string,
    filas: {
      nombre: string;
      g: { total: number; verde: number; amarillo: number; rojo: number; cancelado: number };
    }[],
  ) => {
    const h = hoja(libro, nombre, [
      [primera, 30],
      [msg('informeDestinatarios'), 14],
      [msg('luzVerde'), 10],
      [msg('luzAmarillo'), 10],
      [msg('luzRojo'), 10],
      [msg('estatusCancelado'), 12],
    ]);
    for (const f of filas)
      h.addRow([
        texto(f.nombre),
        f.g.total,
        f.g.verde,
        f.g.amarillo,
        f.g.rojo,
        f.g.cancelado,
      ]).commit();
    h.commit();
  };
  grupo(
    'ordenEstado',
    msg('campoEstado'),
    grupos.porEstado.map((g) => ({ nombre: g.estado, g })),
  );
  grupo(
    'porCategoria',
    msg('campoCategoria'),
    grupos.porCategoria.map((g) => ({ nombre: g.categoria, g })),
  );

  const d = hoja(libro, 'resultados', [
    [msg('columnaEstatus'), 24],
    [msg('columnaCantidad'), 14],
    [msg('columnaPorcentaje'), 14],
  ]);
  for (const r of RESULTADOS)
    d.addRow([
      msg(ETIQUETA_RESULTADO[r]),
      s.porResultado[r] ?? 0,
      pct(s.porResultado[r] ?? 0),
    ]).commit();
  d.commit();

  // Issue 25.2: a drill with a fallback shows, for each person not reached, what its SMS or
  // WhatsApp did.
  const canalRespaldo = canalDeRespaldo(e.respaldo_tipo);
  const conRespaldo = canalRespaldo !== null;
  const n = hoja(libro, 'hojaNoAlcanzados', [
    [msg('columnaTelefono'), 16],
    [msg('columnaNombre'), 30],
    [msg('columnaEstatus'), 18],
    [msg('columnaMotivo'), 50],
    [msg('columnaIntentos'), 10],
    [msg('columnaFechaEnvio'), 16],
    [msg('columnaHoraEnvio'), 14],
    ...(conRespaldo
      ? ([
          [msg(RESPALDO_POR_CANAL[canalRespaldo].columna), 18],
          [msg(RESPALDO_POR_CANAL[canalRespaldo].columnaHora), 20],
        ] as [string, number][])
      : []),
  ]);
  const limite = limiteLlamada(e);
  for await (const lote of lotesDetalle(ctx, id)) {
    for (const f of lote) {
      // The contract's rule: a partly heard call, a partly answered quiz and a cancelled
      // recipient are not reached. A call that lasted the exercise's 'Tiempo' was cut by it
      // (issue 45.5).
      const r = resultadoFila(f, preguntas, limite);
      if (r.alcanzado) continue;
      n.addRow([
        texto(f.telefono),
        texto(f.nombre),
        r.texto,
        texto(f.motivo),
        Number(f.intentos),
        f.fecha_envio ?? '',
        f.hora_envio ?? '',
        ...(conRespaldo
          ? [
              f.respaldo_estatus
                ? resultadoFila({
                    ...SIN_LLAMADA,
                    estatus: f.respaldo_estatus,
                    alcance: f.respaldo_alcance,
                  }).texto
                : '',
              f.respaldo_fecha ? `${f.respaldo_fecha} ${f.respaldo_hora ?? ''}`.trim() : '',
            ]
          : []),
      ]).commit();
    }
    await espacio(n);
  }
  n.commit();

  if (tipoPorId(e.id_tipo_ejercicio)?.clave === 'cuestionario') {
    const q = hoja(libro, 'respuestasPorPregunta', [
      [msg('campoPregunta'), 10],
      [msg('columnaRespuesta'), 50],
      [msg('columnaDigito'), 8],
      [msg('columnaCantidad'), 12],
    ]);
    for (const f of await reporte3(ctx, id))
      q.addRow([f.orden, texto(f.reactivo), f.digito ?? '', f.total]).commit();
    q.commit();
  }
  await hojasEncuesta(ctx, libro, id, preguntas, espacio);
  await hojasCadena(ctx, libro, id, espacio);
  await libro.commit();
}

/**
 * Issue 46.3: a poll exercise's sheets. 'Respuestas': every recipient with their outcome ('Dado
 * de baja' for one held back by the opt-out list), current answer ('2 - Necesito ayuda'), its
 * time and raw text, and whether they answered more than once; 'Casos': each case of someone who
 * needed help (who, option, the text, opened, taken by and when, the note, closed by and when,
 * 'Atendido'). Every text a person sent goes through `texto` (no formula runs).
 */
async function hojasEncuesta(
  ctx: CtxTableros,
  libro: ExcelJS.stream.xlsx.WorkbookWriter,
  id: number,
  preguntas: number,
  espacio: (h: Hoja) => Promise<void>,
) {
  const k = ctx.db.kysely;
  const opciones = await opcionesDe(k, id);
  if (!opciones) return;
  const tz = ctx.config.tz;
  const h = hoja(libro, 'columnaRespuestas', [
    [msg('columnaTelefono'), 16],
    [msg('columnaNombre'), 30],
    [msg('columnaResultado'), 22],
    [msg('columnaRespuesta'), 30],
    [msg('columnaRespuestaHora'), 20],
    [msg('columnaRespuestaTexto'), 40],
    [msg('columnaRespondioVarias'), 14],
  ]);
  for await (const lote of lotesDetalle(ctx, id)) {
    const r = await respuestasDePersonas(
      k,
      id,
      lote.map((f) => Number(f.id_detalle)),
      opciones,
      tz,
    );
    for (const f of lote) {
      const a = r.get(Number(f.id_detalle)) ?? SIN_RESPUESTA;
      h.addRow([
        texto(f.telefono),
        texto(f.nombre),
        resultadoFila(f, preguntas).texto,
        texto(a.respuesta),
        a.respuesta_hora,
        texto(a.respuesta_texto),
        a.respondio_varias,
      ]).commit();
    }
    await espacio(h);
  }
  h.commit();

  const c = hoja(libro, 'hojaCasos', [
    [msg('columnaTelefono'), 16],
    [msg('columnaNombre'), 30],
    [msg('columnaOpcion'), 24],
    [msg('columnaRespuestaTexto'), 30],
    [msg('columnaCasoAbierto'), 20],
    [msg('columnaCasoTomadoPor'), 18],
    [msg('columnaCasoTomado'), 20],
    [msg('columnaCasoNota'), 40],
    [msg('columnaCasoCerradoPor'), 18],
    [msg('columnaCasoCerrado'), 20],
    [msg('columnaCasoEstado'), 18],
  ]);
  for (const f of await casosInforme(k, id, tz))
    c.addRow([
      texto(f.telefono),
      texto(f.nombre),
      texto(f.opcion),
      texto(f.texto),
      f.abierto,
      texto(f.tomado_por),
      f.tomado,
      texto(f.nota),
      texto(f.cerrado_por),
      f.cerrado,
      texto(f.estado),
    ]).commit();
  c.commit();
}

/**
 * Issue 25.3: for an exercise in a follow-up chain, the chain's sheets: its links (level,
 * exercise, type, device, the link it follows, start, stop, recipients, reached) with the chain's
 * totals below, every person with their best outcome over the chain (which link and channel, when;
 * rules/cadena.ts), and the chain's 'No alcanzados': those never reached by any attempt.
 */
async function hojasCadena(
  ctx: CtxTableros,
  libro: ExcelJS.stream.xlsx.WorkbookWriter,
  id: number,
  espacio: (h: Hoja) => Promise<void>,
) {
  const { ids, niveles } = await idsCadena(ctx, id);
  if (!esCadena(ids)) return;
  const tz = ctx.config.tz;
  const filas = await filasEslabones(ctx, ids);
  const { eslabones, personas, alcanzadas } = await figurasCadena(ctx, filas, niveles);
  const preguntas = await preguntasEslabones(ctx, eslabones);
  const titulo = new Map(eslabones.map((e) => [e.id_ejercicio, e.ejercicio]));
  // A person's channel is their attempt's link type: 'SMS de respaldo' for a drill's fallback.
  const canal = new Map(eslabones.map((e) => [e.id_ejercicio, e.tipo_ejercicio]));

  const l = hoja(libro, 'hojaCadenaEslabones', [
    [msg('cadenaEslabon'), 10],
    [msg('columnaEjercicio'), 36],
    [msg('columnaTipo'), 16],
    [msg('columnaDispositivo'), 20],
    [msg('cadenaOrigen'), 36],
    [msg('informeIniciado'), 20],
    [msg('informeTerminado'), 20],
    [msg('informeDestinatarios'), 14],
    [msg('alcanzados'), 14],
  ]);
  for (const e of eslabones)
    l.addRow([
      e.nivel,
      texto(e.ejercicio),
      e.tipo_ejercicio,
      texto(e.alias),
      // A fallback 'follows' its drill.
      (e.origen_id ?? e.respaldo_de) === null
        ? ''
        : texto(titulo.get((e.origen_id ?? e.respaldo_de)!)),
      fechaTexto(e.iniciado, tz),
      fechaTexto(e.terminado, tz),
      e.destinatarios,
      e.alcanzados,
    ]).commit();
  l.addRow([]).commit();
  l.addRow([msg('cadenaPersonas'), personas]).commit();
  l.addRow([msg('cadenaAlcanzadas'), alcanzadas]).commit();
  l.addRow([msg('cadenaNunca'), personas - alcanzadas]).commit();
  l.commit();

  for (const soloNo of [false, true]) {
    const h = hoja(libro, soloNo ? 'hojaCadenaNoAlcanzados' : 'hojaCadenaPersonas', [
      [msg('columnaTelefono'), 16],
      [msg('columnaNombre'), 30],
      [msg('columnaMejorResultado'), 24],
      ...(soloNo ? [] : ([[msg('columnaAlcanzado'), 12]] as [string, number][])),
      [msg('columnaEjercicio'), 36],
      [msg('columnaCanal'), 14],
      [msg('columnaFechaEnvio'), 16],
      [msg('columnaHoraEnvio'), 14],
      [msg('columnaIntentos'), 10],
    ]);
    for await (const lote of lotesPersonas(ctx, filas, soloNo)) {
      for (const p of lote) {
        const r = resultadoFila(p, preguntas.get(Number(p.id_ejercicio)) ?? 0);
        h.addRow([
          texto(p.telefono),
          texto(p.nombre),
          r.texto,
          ...(soloNo ? [] : [msg(r.alcanzado ? 'si' : 'no')]),
          texto(titulo.get(Number(p.id_ejercicio))),
          canal.get(Number(p.id_ejercicio)) ?? '',
          p.fecha_envio ?? '',
          p.hora_envio ?? '',
          Number(p.intentos_cadena),
        ]).commit();
      }
      await espacio(h);
    }
    h.commit();
  }
}
