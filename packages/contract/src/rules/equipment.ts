/** Which equipment the 'Equipo' select offers for the chosen exercise type (SPEC 9). */
import { NOMBRE_MENSAJERIA, type IdTipoEjercicio } from '../constants.ts';

/** Keywords per type: an equipment is offered when its alias contains one, ignoring case. */
export const PALABRAS_EQUIPO: Readonly<Record<IdTipoEjercicio, readonly string[]>> = {
  1: ['SMS', 'MENSAJES'],
  2: ['LLAMADAS', 'LLAMADA', 'CALL', 'CALLS'],
  3: [NOMBRE_MENSAJERIA.toUpperCase()],
  4: ['QUIZ', 'CUESTIONARIO', 'CUESTIONARIOS'],
};

/** Whether an alias fits a type; an unknown type fits nothing. */
export function equipoParaTipo(alias: string | null | undefined, tipo: number | string): boolean {
  const palabras = PALABRAS_EQUIPO[Number(tipo) as IdTipoEjercicio] ?? [];
  const nombre = (alias ?? '').toUpperCase();
  return palabras.some((p) => nombre.includes(p));
}

/** Equipment offered for a type; with no type chosen (undefined, null or ''), all of it. */
export function equiposParaTipo<T extends { alias?: string | null }>(
  equipos: readonly T[],
  tipo?: number | string | null,
): T[] {
  if (tipo === undefined || tipo === null || String(tipo).trim() === '') return [...equipos];
  return equipos.filter((e) => equipoParaTipo(e.alias, tipo));
}
