import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { crearEjercicio, type CrearEjercicioSchema } from '@pregon/contract/api/ejercicios';
import { llamar } from '../../../lib/api-client.ts';

/** POST /ejercicio/: creates the exercise and returns its id_ejercicio. */
export function crearEjercicioApi(datos: z.input<typeof CrearEjercicioSchema>) {
  return llamar(crearEjercicio, { body: datos });
}

/** Mutation hook of the create call. */
export function useCrearEjercicio() {
  return useMutation({ mutationFn: crearEjercicioApi });
}
