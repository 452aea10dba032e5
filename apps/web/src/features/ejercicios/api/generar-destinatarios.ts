import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { generarDestinatarios, type GenerarSchema } from '@pregon/contract/api/ejercicios';
import { llamar } from '../../../lib/api-client.ts';

/** POST /ejercicio/generar/: builds the exercise's recipients from its estado and categorias. */
export function generarDestinatariosApi(datos: z.input<typeof GenerarSchema>) {
  return llamar(generarDestinatarios, { body: datos });
}

/** Mutation hook of the generate call. */
export function useGenerarDestinatarios() {
  return useMutation({ mutationFn: generarDestinatariosApi });
}
