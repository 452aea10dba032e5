import { useMutation } from '@tanstack/react-query';
import type { Canal } from '@pregon/contract/constants';
import { iniciarEjercicio } from '@pregon/contract/api/ejercicios';
import { llamar } from '../lib/api-client.ts';

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
