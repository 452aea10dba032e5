import { useMutation } from '@tanstack/react-query';
import { detenerEjercicio } from '@pregon/contract/api/ejercicios';
import { llamar } from '../../lib/api-client.ts';

/** POST /quiz/stop/ {id_ejercicio}: stops the exercise and cancels its pending recipients. */
export function detenerEjercicioApi(id_ejercicio: number) {
  return llamar(detenerEjercicio, { body: { id_ejercicio } });
}

/** Mutation hook of the stop call. */
export function useDetenerEjercicio() {
  return useMutation({ mutationFn: detenerEjercicioApi });
}
