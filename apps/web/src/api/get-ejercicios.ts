import { useQuery } from '@tanstack/react-query';
import { listarEjercicios } from '@pregon/contract/api/ejercicios';
import { llamar } from '../lib/api-client.ts';

/** Query key of the exercises list; invalidating it reloads the list. */
export const CLAVE_EJERCICIOS = ['ejercicios'] as const;
/** Query key prefix of the dashboards (['tablero', …]); actions refresh them with the list. */
export const CLAVE_TABLEROS = ['tablero'] as const;

/** GET /ejercicios/: every exercise (the screen sorts, searches and pages them). */
export async function obtenerEjercicios() {
  return (await llamar(listarEjercicios)).data;
}

/** The exercises list. */
export function useEjercicios() {
  return useQuery({ queryKey: CLAVE_EJERCICIOS, queryFn: obtenerEjercicios });
}
