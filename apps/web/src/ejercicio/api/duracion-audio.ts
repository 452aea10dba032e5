import { useQueries, useQuery } from '@tanstack/react-query';
import { duracionAudio } from '@pregon/contract/api/pbx';
import { leerCuestionario } from '@pregon/contract/api/quiz';
import { avisoCuestionarioLargo } from '@pregon/contract/rules/dialplan';
import { llamar } from '../../lib/api-client.ts';
import { claveCuestionario } from '../../lib/claves-consulta.ts';

/** A stored audio's length as GET /audio/duracion/ answers it: read once per page (a stored name
 * never changes content). */
const consultaDuracion = (nombre: string | undefined, activo: boolean) => ({
  queryKey: ['duracion-audio', nombre] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    llamar(duracionAudio, { query: { nombre: nombre! }, signal }),
  enabled: activo && !!nombre,
  staleTime: Infinity,
});

/** GET /audio/duracion/?nombre= (issue 45.5): a stored audio's length in seconds (null when the
 * server cannot know it). */
export function useDuracionAudio(nombre: string | undefined, activo = true) {
  return useQuery(consultaDuracion(nombre, activo));
}

/** The lengths of several stored audios, in their order (null: unknown, loading, or no name). */
export function useDuracionesAudio(
  nombres: readonly (string | undefined)[],
  activo = true,
): (number | null)[] {
  const r = useQueries({ queries: nombres.map((n) => consultaDuracion(n, activo)) });
  return r.map((d) => d.data?.duracion_s ?? null);
}

/**
 * Issue 45.5, a questionnaire: 'Los audios de las preguntas suman … y cada llamada se corta a …'
 * (contract rules/dialplan.ts avisoCuestionarioLargo) for the questions `id_ejercicio` holds
 * (GET /quiz/{id}/: each one's stored audio, whose length the api reads from the agent) against
 * `accion`, the quiz's minutes. Null while they load, when they fit, or without questions.
 */
export function useAvisoCuestionario(
  id_ejercicio: number | undefined,
  accion: string | number | null | undefined,
  activo = true,
): string | null {
  const preguntas = useQuery({
    // The questionnaire dialog's key: its save refreshes this too.
    queryKey: claveCuestionario(id_ejercicio ?? 0),
    queryFn: () => llamar(leerCuestionario, { params: { id_ejercicio: id_ejercicio! } }),
    enabled: activo && id_ejercicio !== undefined,
  });
  const lista = activo ? (preguntas.data ?? []) : [];
  const duraciones = useDuracionesAudio(lista.map((p) => p.file || undefined));
  if (!lista.length) return null;
  return avisoCuestionarioLargo(duraciones, accion);
}
