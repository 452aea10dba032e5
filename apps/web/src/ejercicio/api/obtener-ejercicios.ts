import { useQuery } from '@tanstack/react-query';
import { listarEjercicios, type EjercicioFila } from '@pregon/contract/api/ejercicios';
import { llamar } from '../../lib/api-client.ts';
import { CLAVE_EJERCICIOS } from '../../lib/claves-consulta.ts';

/** GET /ejercicios/: every exercise (the screen sorts, searches and pages them); `respuesta`:
 * the same request already sent by the route (pedirAntes). */
export async function obtenerEjercicios(respuesta?: Promise<Response>) {
  return (await llamar(listarEjercicios, { respuesta })).data;
}

/** The list's query: its key and call (`respuesta`: an answer already on its way, read once). The
 * router prefetches it with the request it sent itself, so its key stays off the first screen. */
export const consultaEjercicios = (respuesta?: () => Promise<Response> | undefined) => ({
  queryKey: CLAVE_EJERCICIOS,
  queryFn: () => obtenerEjercicios(respuesta?.()),
});

/** How often the list reloads by itself: every second around a scheduled start (the row turns
 * from 'Programado' to running without a reload), every 15 s while any start is scheduled, every
 * 10 s while an approval is pending (issue 47.2), else never (actions reload it). */
function intervaloLista(filas: EjercicioFila[] | undefined): number | false {
  const ahora = Date.now();
  const programados = (filas ?? []).filter((f) => f.inicio_automatico && f.inicio_programado);
  // Issue 47.2: while a request waits, its approval or rejection shows within 10 s.
  const pendiente = (filas ?? []).some((f) => f.aprobacion === 'pendiente');
  if (!programados.length) return pendiente ? 10_000 : false;
  return programados.some((f) => Math.abs(f.inicio_programado! - ahora) < 60_000) ? 1_000 : 15_000;
}

/** The exercises list. */
export function useEjercicios() {
  return useQuery({
    ...consultaEjercicios(),
    refetchInterval: (q) => intervaloLista(q.state.data),
  });
}
