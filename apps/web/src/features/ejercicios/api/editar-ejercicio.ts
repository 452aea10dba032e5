import type { z } from 'zod';
import { editarEjercicio, type CrearEjercicioSchema } from '@pregon/contract/api/ejercicios';
import { llamar } from '../../../lib/api-client.ts';

/** PUT /ejercicio/{id}/: writes every field of the dialog to an exercise that has not started
 * (the server generates its recipients again when the selection changed). */
export function editarEjercicioApi(id: number, datos: z.input<typeof CrearEjercicioSchema>) {
  return llamar(editarEjercicio, { params: { id }, body: datos });
}
