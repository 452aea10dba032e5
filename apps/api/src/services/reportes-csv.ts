import { Readable } from 'node:stream';
import { lotesLectorSqlite } from '../db/lectura.ts';
import { COLUMNAS_EXPORTACION } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import type { TIPOS_CSV } from '@pregon/contract/api/reportes';
import { CAMPOS_RESPALDO_REPORTE } from '@pregon/contract/api/ejercicios';
import * as repo from '../repositories/ejercicios.ts';
import type { FilaDetalle } from '../repositories/ejercicios.ts';
import * as repoQuiz from '../repositories/quiz.ts';
import { ejercicioOError, filaLista, type CtxEjercicios } from './ejercicios.ts';
import {
  canalRespaldo,
  conRespaldo,
  conRespaldo4,
  filaReporte,
  filaReporte4,
  limiteLlamada,
  type FilaDe,
  filaReporte2,
  filasReporte4,
  reporte3,
  resumen,
  textosCuestionario,
} from './reportes.ts';
import { textoSinFormula } from '@pregon/contract/rules/spreadsheet';
import { CAMPOS_RESPUESTA_REPORTE } from '@pregon/contract/api/columnas-respuesta';
import { zonaProducto } from '../config.ts';
import { conRespuestas, opcionesDe } from './respuestas-reporte.ts';

// POST /csv/: streamed CSV exports. Rows are read in batches (SQLite: a read-only connection
// iterating one statement; PostgreSQL: one COPY TO read as it arrives), turned into text and
// pushed with back-pressure, so a million recipients never sit in memory.

/** Rows read per batch. */
export const LOTE_CSV = 1000;

/** Byte-order mark that makes spreadsheet programs read the file as UTF-8. */
export const BOM = '\uFEFF';

/**
 * One CSV cell: strings that begin with = + - @ (or tab / CR) are prefixed with ' so no
 * spreadsheet runs them as formulas (ARCHITECTURE 8); cells with a comma, quote or line break
 * are quoted with inner quotes doubled (RFC 4180). Numbers are written as they are.
 */
export function celdaCsv(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  const s = textoSinFormula(String(v));
  return CITAR.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

// A module constant: a regular expression literal inside a function is a new object on every call
// (two per cell were ~0.9 KB of garbage per exported line, ~0.9 GB per million recipients).
const CITAR = /[",\r\n]/;

/** One CSV line (CRLF-terminated) from cell values. */
export const lineaCsv = (valores: readonly unknown[]): string =>
  `${valores.map(celdaCsv).join(',')}\r\n`;

/** The line of a row as an object, its cells in the order of `columnas`. */
const lineaDe = (f: object, columnas: readonly string[]) =>
  lineaCsv(columnas.map((c) => (f as Record<string, unknown>)[c]));

/** Lines of rows as objects, in the order of `columnas`. */
const lineas = (filas: readonly Record<string, unknown>[], columnas: readonly string[]) =>
  filas.map((f) => lineaDe(f, columnas)).join('');

/** The recipients of an exercise in id_detalle order, in batches of LOTE_CSV. */
export async function* lotesDetalle(ctx: CtxEjercicios, id: number): AsyncGenerator<FilaDetalle[]> {
  const archivo = ctx.db.sqlite?.name;
  if (ctx.db.engine === 'sqlite' && archivo && archivo !== ':memory:') {
    yield* lotesLectorSqlite<FilaDetalle>(archivo, repo.SQL_DETALLE_SQLITE, [id], LOTE_CSV);
    return;
  }
  yield* repo.detallePorCopia(ctx.db.pool!, id, LOTE_CSV);
}

const COLUMNAS_REPORTE = [
  'n',
  'telefono',
  'nombre',
  'realizado',
  'fecha_envio',
  'hora_envio',
  'recibida',
  'estatus',
  'resultado',
];
const COLUMNAS_REPORTE2 = [
  'n',
  'telefono',
  'nombre',
  'estatus',
  'resultado',
  'realizado',
  'intentos',
  'duracion',
  'timbrado',
  'causa',
  'fecha_envio',
  'hora_envio',
  'recibida',
  'motivo',
];
const COLUMNAS_REPORTE3 = ['orden', 'tipo', 'reactivo', 'digito', 'total'];

async function* csvDetalle(
  ctx: CtxEjercicios,
  id: number,
  columnas: readonly string[],
  fila: FilaDe<object>,
) {
  // A drill's fallback (issue 25.2): its columns last, only when it has one; a poll's answers
  // (issue 46.3) after them, only for a poll.
  const { fila: conSuRespaldo, respaldo } = await conRespaldo(ctx.db.kysely, id, fila);
  const opciones = await opcionesDe(ctx.db.kysely, id);
  const todas = [
    ...columnas,
    ...(respaldo ? CAMPOS_RESPALDO_REPORTE : []),
    ...(opciones ? CAMPOS_RESPUESTA_REPORTE : []),
  ];
  const tz = zonaProducto();
  yield BOM + lineaCsv(todas);
  const preguntas = await repoQuiz.contarPreguntas(ctx.db.kysely, id);
  const limite = limiteLlamada(await ejercicioOError(ctx.db.kysely, ctx, id));
  let n = 0;
  for await (const lote of lotesDetalle(ctx, id)) {
    // A chunk leaves as bytes: one small object whose bytes lie outside the heap and count towards
    // V8's next collection. As a string concatenated line by line it was ~2,000 heap objects that
    // could outlive two young-generation collections while waiting for the socket, and in some runs
    // ~100 MB of them piled up in the old heap (peak RSS 290–304 MB for a million recipients
    // against ~200 MB).
    let filas: object[] = lote.map((d) => conSuRespaldo(d, ++n, preguntas, limite));
    if (opciones)
      filas = await conRespuestas(
        ctx.db.kysely,
        id,
        opciones,
        tz,
        filas,
        lote.map((d) => Number(d.id_detalle)),
      );
    const texto = filas.map((f) => lineaDe(f, todas));
    yield Buffer.from(texto.join(''));
  }
}

async function* csvReporte4(ctx: CtxEjercicios, id: number) {
  const k = ctx.db.kysely;
  const textos = await textosCuestionario(k, id);
  // A drill's fallback (issue 25.2): its columns after the answers, only when it has one.
  const canal = await canalRespaldo(k, id);
  const columnas = [
    'nombre',
    'recibida',
    'telefono',
    'fecha_envio',
    'hora_envio',
    'resultado',
    ...textos.numeros.map((n) => `reactivo_texto_${n}`),
    ...(canal === null ? [] : CAMPOS_RESPALDO_REPORTE),
  ];
  yield BOM + lineaCsv(columnas);
  if (ctx.db.engine === 'postgres') {
    // One COPY instead of two queries a page; each chunk leaves as bytes (see csvDetalle).
    for await (const lote of repoQuiz.respondientesPorCopia(ctx.db.pool!, id, LOTE_CSV)) {
      let filas = lote.map((r) => filaReporte4(textos, r.persona, r.digitos));
      if (canal !== null)
        filas = await conRespaldo4(
          k,
          lote.map((r) => r.persona),
          filas,
          canal,
        );
      yield Buffer.from(filas.map((f) => lineaDe(f, columnas)).join(''));
    }
    return;
  }
  let despues = 0;
  for (;;) {
    const personas = await repoQuiz.respondientes(k, id, { limit: LOTE_CSV, despuesDe: despues });
    if (personas.length === 0) return;
    yield lineas(await filasReporte4(k, textos, personas, canal), columnas);
    despues = Number(personas[personas.length - 1]!.id_detalle);
    if (personas.length < LOTE_CSV) return;
  }
}

async function* csvResumen(ctx: CtxEjercicios, id: number) {
  const r = await resumen(ctx, id);
  yield (
    BOM +
    lineaCsv(['seccion', 'clave', 'nombre', 'total', 'verde', 'amarillo', 'rojo', 'cancelado'])
  );
  const s = r.semaforo;
  let texto = lineaCsv([
    'total',
    r.ejercicio.id_ejercicio,
    r.ejercicio.ejercicio,
    s.total,
    s.verde,
    s.amarillo,
    s.rojo,
    s.cancelado,
  ]);
  texto += lineaCsv(['estatus', r.ejercicio.id_ejercicio, r.ejercicio.estatus, '', '', '', '', '']);
  for (const e of r.porEstado) {
    texto += lineaCsv([
      'estado',
      e.id_estado,
      e.estado,
      e.total,
      e.verde,
      e.amarillo,
      e.rojo,
      e.cancelado,
    ]);
  }
  for (const c of r.porCategoria) {
    texto += lineaCsv([
      'categoria',
      c.id_categoria,
      c.categoria,
      c.total,
      c.verde,
      c.amarillo,
      c.rojo,
      c.cancelado,
    ]);
  }
  for (const m of r.porMinuto) texto += lineaCsv(['minuto', m.minuto, '', m.total, '', '', '', '']);
  yield texto;
}

async function* csvEjercicios(ctx: CtxEjercicios) {
  yield BOM + lineaCsv(COLUMNAS_EXPORTACION.map((c) => c.titulo));
  const filas = await repo.listarEjercicios(ctx.db.kysely);
  yield lineas(
    filas.map((e) => filaLista(e, true)),
    COLUMNAS_EXPORTACION.map((c) => c.campo),
  );
}

/**
 * A stream over CSV chunks that reads ahead one chunk only: chunks waiting in a deep queue
 * survive young-generation collections and pile up in the old heap until a full collection.
 */
const desde = (fuente: AsyncGenerator<string | Buffer>) =>
  Readable.from(fuente, { highWaterMark: 1 });

/** A file name safe for Content-Disposition: the exercise's name, without path or control characters. */
function nombreArchivo(base: string): string {
  const limpio = [...base]
    .map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? '_' : c))
    .join('')
    .trim()
    .slice(0, 150);
  return `${limpio || 'reporte'}.csv`;
}

/** Content-Disposition header with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(nombre: string): string {
  const ascii = nombre
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[";\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(nombre)}`;
}

/**
 * Prepares an export: checks the exercise exists (so a 404 is answered before streaming) and
 * returns the file name and a readable stream of CSV text.
 */
export async function exportar(
  ctx: CtxEjercicios,
  tipo: (typeof TIPOS_CSV)[number],
  id?: number,
): Promise<{ archivo: string; flujo: Readable }> {
  if (tipo === 'ejercicios' || id === undefined) {
    return {
      archivo: nombreArchivo(msg('archivoEjercicios')),
      flujo: desde(csvEjercicios(ctx)),
    };
  }
  const e = await ejercicioOError(ctx.db.kysely, ctx, id);
  const archivo = nombreArchivo(tipo === 'reporte' ? e.titulo : `${e.titulo} ${tipo}`);
  let fuente: AsyncGenerator<string | Buffer>;
  switch (tipo) {
    case 'reporte':
      fuente = csvDetalle(ctx, id, COLUMNAS_REPORTE, filaReporte);
      break;
    case 'reporte2':
      fuente = csvDetalle(ctx, id, COLUMNAS_REPORTE2, filaReporte2);
      break;
    case 'reporte3':
      fuente = (async function* () {
        yield (
          BOM + lineaCsv(COLUMNAS_REPORTE3) + lineas(await reporte3(ctx, id), COLUMNAS_REPORTE3)
        );
      })();
      break;
    case 'reporte4':
      fuente = csvReporte4(ctx, id);
      break;
    case 'resumen':
      fuente = csvResumen(ctx, id);
      break;
  }
  return { archivo, flujo: desde(fuente) };
}
