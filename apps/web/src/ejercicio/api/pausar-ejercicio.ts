import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { pausarEjercicio, type PausaSchema } from '@pregon/contract/api/ejercicios';
import { llamar } from '../../lib/api-client.ts';

/** POST /ejercicio/pausa/ {id_ejercicio, proceso, pausa}: pause (0, 1) or mark running (1, 0). */
export function pausaEjercicioApi(datos: z.input<typeof PausaSchema>) {
  return llamar(pausarEjercicio, { body: datos });
}

/** Mutation hook of the pause/process call. */
export function usePausaEjercicio() {
  return useMutation({ mutationFn: pausaEjercicioApi });
}
