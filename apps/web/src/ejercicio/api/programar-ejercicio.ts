import type { z } from 'zod';
import { programarEjercicio, type ProgramarSchema } from '@pregon/contract/api/ejercicios';
import { llamar } from '../../lib/api-client.ts';

/** PUT /ejercicio/programar/ {id_ejercicio, inicio_automatico, fecha_ini?, hora_ini?}: schedules,
 * reschedules or unschedules an exercise's start (issue 24.3). */
export function programarEjercicioApi(datos: z.input<typeof ProgramarSchema>) {
  return llamar(programarEjercicio, { body: datos });
}
