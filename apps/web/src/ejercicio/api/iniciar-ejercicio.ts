import { useMutation, useQuery } from '@tanstack/react-query';
import type { Canal } from '@pregon/contract/constants';
import { iniciarEjercicio } from '@pregon/contract/api/ejercicios';
import { bajasDeEjercicio } from '@pregon/contract/api/bajas';
import { llamar } from '../../lib/api-client.ts';

/** POST /ejercicio/{canal}/ {id_ejercicio, time}: starts (or resumes) an exercise. */
export function iniciarEjercicioApi(datos: { canal: Canal; id_ejercicio: number; time: number }) {
  return llamar(iniciarEjercicio, {
    params: { canal: datos.canal },
    body: { id_ejercicio: datos.id_ejercicio, time: datos.time },
  });
}

/** Mutation hook of the start call. */
export function useIniciarEjercicio() {
  return useMutation({ mutationFn: iniciarEjercicioApi });
}

/** Query key prefix of what the starts say of the opted-out phones (issue 46.4). */
export const CLAVE_BAJAS_INICIO = ['bajas-inicio'] as const;
/** Query key of what one exercise's start says of them. */
export const claveBajasInicio = (id: number) => [...CLAVE_BAJAS_INICIO, id] as const;

/** GET /ejercicio/bajas/{id}/: how many waiting recipients are on the opt-out list, whether
 * they are skipped, the confirmation's line and the real-alert mark with its reason. Read each
 * time the start confirmation (or the real-alert panel) opens. */
export function useBajasInicio(id: number, activo = true) {
  return useQuery({
    queryKey: claveBajasInicio(id),
    queryFn: ({ signal }) => llamar(bajasDeEjercicio, { params: { id }, signal }),
    enabled: activo,
    staleTime: 0,
  });
}

