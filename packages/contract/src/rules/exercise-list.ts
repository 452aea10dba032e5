/**
 * Ordering, search and paging of the exercises list (SPEC 4 "List ordering, filtering and
 * paging", with ARCHITECTURE correction 2) and the multi-word search of the phone preview.
 */
import { FILAS_POR_PAGINA } from '../constants.ts';
import { msg } from '../messages.ts';
import { coincidenTerminos, terminosPlegados } from './busqueda.ts';

/** The list row fields the ordering and the 'Activos' filter read. */
export interface FilaOrdenable {
  completado: string | number;
  /** '1' when archived (issue 26.1); absent means not archived. */
  archivado?: string | number;
}

/** The Estatus text of an exercise: 'No completo' while completado is '0', else 'Completado', with
 * '(Detenido)' when an operator stopped it (issue 17; the list, the .xlsx and the reports). */
export function estatusEjercicio(f: {
  completado: string | number;
  detenido?: string | number | null;
}): string {
  if (String(f.completado).trim() === '0') return msg('noCompleto');
  return String(f.detenido ?? '0').trim() === '1' ? msg('completadoDetenido') : msg('completado');
}

/** The fields `situacionEjercicio` reads (a list row or a database row). */
export interface FlagsSituacion {
  completado: string | number;
  en_proceso: string | number;
  en_pausa: string | number;
  detenido?: string | number | null;
  inicio_automatico?: boolean | number | null;
  en_espera?: string | null;
}

/**
 * What an exercise is doing, shown beside the SPEC's 'No completo' / 'Completado' tag (issue
 * 26.3): 'Programado' (waits for its scheduled start), 'Sin iniciar', 'En curso', 'En pausa',
 * 'En espera' (running while its gateway cannot be reached) or 'Detenido' (stopped by an
 * operator); null for one that finished by itself ('Completado' says it all).
 */
export function situacionEjercicio(f: FlagsSituacion): string | null {
  const es = (v: unknown, x: string) => String(v ?? '0').trim() === x;
  if (!es(f.completado, '0')) return es(f.detenido, '1') ? msg('detenido') : null;
  if (es(f.en_proceso, '1')) {
    if (es(f.en_pausa, '1')) return msg('estadoEnPausa');
    return f.en_espera ? msg('situacionEnEspera') : msg('estatusEnCurso');
  }
  return f.inicio_automatico === true || f.inicio_automatico === 1
    ? msg('situacionProgramado')
    : msg('estadoSinIniciar');
}

/** Sorts by completado ascending (incomplete first), keeping the order of equal rows; returns a copy. */
export function ordenarEjercicios<T extends FilaOrdenable>(rows: readonly T[]): T[] {
  const clave = (r: T): number => {
    const n = Number(r.completado);
    return Number.isFinite(n) ? n : Number.POSITIVE_INFINITY;
  };
  return [...rows].sort((a, b) => clave(a) - clave(b));
}

/** Splits search text into its space-separated terms, folded (lower case, no accents: see
 * rules/busqueda.ts). */
export function terminosBusqueda(texto: string | null | undefined): string[] {
  return terminosPlegados(texto);
}

/**
 * Whether every space-separated term of `texto` appears, ignoring case and accents, in some field
 * value of the row (terms may match different fields). Only string, number and boolean values are
 * searched; empty text matches every row.
 */
export function coincideBusqueda(row: object, texto: string | null | undefined): boolean {
  return coincidenTerminos(Object.values(row), texto);
}

/** Rows matching a multi-word search (the exercises list and the phone preview table). */
export function buscarEnFilas<T extends object>(
  rows: readonly T[],
  texto: string | null | undefined,
): T[] {
  return rows.filter((r) => coincideBusqueda(r, texto));
}

/** One page of rows (pagina counts from 1; a page below 1 is page 1). */
export function paginar<T>(rows: readonly T[], pagina = 1, tamano = FILAS_POR_PAGINA): T[] {
  const p = Math.max(1, Math.floor(pagina));
  const t = Math.max(1, Math.floor(tamano));
  return rows.slice((p - 1) * t, p * t);
}

/** Options of `paginaEjercicios`. */
export interface OpcionesPagina {
  texto?: string | null;
  /** The switch on 'Activos': keep only completado '0'. */
  soloActivos: boolean;
  /** Issue 26.1: the 'Archivados' filter shows only archived rows; otherwise they are hidden. */
  archivados?: boolean;
  /** Page number, from 1. */
  pagina?: number;
  tamano?: number;
}

/**
 * The visible page of the exercises list: sorted, searched, filtered by 'Activos' (or, under
 * 'Archivados', only the archived rows; elsewhere those are hidden), then sliced.
 * The filter runs before paging and `total` counts the filtered rows (ARCHITECTURE correction 2;
 * the original filtered after slicing and counted every exercise).
 */
export function paginaEjercicios<T extends FilaOrdenable>(
  rows: readonly T[],
  opciones: OpcionesPagina,
): { filas: T[]; total: number } {
  const visibles = buscarEnFilas(ordenarEjercicios(rows), opciones.texto).filter((r) =>
    String(r.archivado ?? '0').trim() === '1'
      ? opciones.archivados === true
      : !opciones.archivados && (!opciones.soloActivos || String(r.completado).trim() === '0'),
  );
  return {
    filas: paginar(visibles, opciones.pagina ?? 1, opciones.tamano ?? FILAS_POR_PAGINA),
    total: visibles.length,
  };
}
