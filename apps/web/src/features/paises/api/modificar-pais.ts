import { modificarPais, type ModificarPaisBodySchema } from '@pregon/contract/api/paises';
import type { z } from 'zod';
import { llamar } from '../../../lib/api-client.ts';

/** PUT /paises/{id}/: changes a country (409 when its name or code exist, or when someone saved
 * it after the form loaded `version`: issue 48.3). */
export function modificarPaisApi(id: number, datos: z.input<typeof ModificarPaisBodySchema>) {
  return llamar(modificarPais, { params: { id }, body: datos });
}
